// Accounts: sign-up, sign-in checks, profile settings.
import { z } from 'zod'
import { db } from '@/lib/db'
import { hashPassword, verifyPassword, decoyHash } from '@/lib/auth/password'
import { claimName, isUniqueViolation } from '@/lib/hub/namespaces'
import { namespaceName } from '@/lib/hub/names'
import { conflict } from '@/lib/http/errors'

export const signUpInput = z.object({
  username: namespaceName,
  email: z.string().trim().max(254, 'must be at most 254 characters').email('must be a valid e-mail address'),
  password: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
  fullname: z.string().trim().max(100, 'must be at most 100 characters').default(''),
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

/**
 * The account a sign-in names, spelled however the person typed it: surrounding spaces are
 * ignored, an e-mail address in any case, a username exactly. Null when no account matches.
 */
export async function findUserByLogin(login: string) {
  const key = login.trim()
  if (!key) return null
  return key.includes('@') ? db.user.findUnique({ where: { email: key.toLowerCase() } }) : db.user.findUnique({ where: { username: key } })
}

/** Whether the password is the user's. Spends the same time when there is no user. */
export async function passwordMatches(user: { passwordHash: string } | null, password: string): Promise<boolean> {
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()))
  return user !== null && ok
}

const optionalUrl = z
  .string()
  .trim()
  .max(500, 'must be at most 500 characters')
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), 'must be an http(s) URL')

export const profileInput = z.object({
  fullname: z.string().trim().max(100, 'must be at most 100 characters'),
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
