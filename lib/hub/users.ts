// Accounts: sign-up and profile settings (sign-in itself is lib/auth/sign-in).
import { z } from 'zod'
import { db } from '@/lib/db'
import { hashPassword } from '@/lib/auth/password'
import { claimName, isUniqueViolation } from '@/lib/hub/namespaces'
import { namespaceName } from '@/lib/hub/names'
import { displayText } from '@/lib/display-text'
import { conflict } from '@/lib/http/errors'

export const signUpInput = z.object({
  username: namespaceName,
  email: z.string().trim().max(254, 'must be at most 254 characters').email('must be a valid e-mail address'),
  password: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
  fullname: displayText(100).default(''),
})

export async function createUser(input: z.input<typeof signUpInput>, extra: { emailVerified?: boolean; isPro?: boolean; isOperator?: boolean } = {}) {
  const data = signUpInput.parse(input)
  const passwordHash = await hashPassword(data.password)
  try {
    return await db.$transaction(async (tx) => {
      await claimName(data.username, 'user', tx)
      if (await tx.user.findUnique({ where: { email: data.email.toLowerCase() } })) throw conflict('An account with this e-mail address already exists')
      return tx.user.create({
        data: {
          username: data.username,
          email: data.email.toLowerCase(),
          fullname: data.fullname || data.username,
          passwordHash,
          emailVerified: extra.emailVerified ?? false,
          isPro: extra.isPro ?? false,
          isOperator: extra.isOperator ?? false,
        },
      })
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict('This name or e-mail address is already taken')
    throw e
  }
}

const optionalUrl = z
  .string()
  .trim()
  .max(500, 'must be at most 500 characters')
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), 'must be an http(s) URL')

export const profileInput = z.object({
  fullname: displayText(100),
  email: z.string().trim().max(254).email('must be a valid e-mail address'),
  website: optionalUrl,
  avatarUrl: optionalUrl,
})

export async function updateProfile(userId: string, input: z.input<typeof profileInput>) {
  const data = profileInput.parse(input)
  return db.$transaction(async (tx) => {
    const current = await tx.user.findUniqueOrThrow({ where: { id: userId } })
    const email = data.email.toLowerCase()
    if (email !== current.email && (await tx.user.findUnique({ where: { email } }))) throw conflict('An account with this e-mail address already exists')
    return tx.user.update({
      where: { id: userId },
      data: {
        fullname: data.fullname,
        email,
        // A changed address has not been verified yet.
        emailVerified: email === current.email ? current.emailVerified : false,
        website: data.website || null,
        avatarUrl: data.avatarUrl || null,
      },
    })
  })
}

export async function usernameOf(userId: string): Promise<string> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { username: true } })
  return user.username
}

/** The signed-in user's own account, for their settings page. */
export async function ownAccount(userId: string) {
  return db.user.findUniqueOrThrow({ where: { id: userId } })
}

/** Whether the user operates the hub (the header links /operator for them). */
export async function isHubOperator(userId: string | null | undefined): Promise<boolean> {
  if (!userId) return false
  return (await db.user.findUnique({ where: { id: userId }, select: { isOperator: true } }))?.isOperator ?? false
}
