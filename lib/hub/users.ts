// Accounts: sign-up, profile settings, password changes, and what operators do to accounts
// (a password reset, disabling and enabling, who else operates the hub); sign-in itself is
// lib/auth/sign-in.
import { z } from 'zod'
import { db } from '@/lib/db'
import { hashPassword, verifyPassword } from '@/lib/auth/password'
import { sessionsSupersededBefore } from '@/lib/auth/ended-sessions'
import { findUserByLogin } from '@/lib/auth/sign-in'
import { claimName, isUniqueViolation } from '@/lib/hub/namespaces'
import { namespaceName } from '@/lib/hub/names'
import { displayText } from '@/lib/display-text'
import { HubError, conflict } from '@/lib/http/errors'
import { setting } from '@/lib/config'
import { randomBytes } from 'node:crypto'
import { requireOperator } from '@/lib/hub/org-apps'
import type { Caller } from '@/lib/policy'
import { addressKey, hit, refund, resetLimit } from '@/lib/ratelimit'

/** A rate limit's refusal: 429 saying when to try again, with Retry-After. */
function tooMany(what: string, retryAfterSeconds: number): HubError {
  const minutes = Math.ceil(retryAfterSeconds / 60)
  return new HubError(429, `${what}; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, undefined, retryAfterSeconds)
}

const newPassword = z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters')

export const signUpInput = z.object({
  username: namespaceName,
  email: z.string().trim().max(254, 'must be at most 254 characters').email('must be a valid e-mail address'),
  password: newPassword,
  fullname: displayText(100).default(''),
})

export async function createUser(input: z.input<typeof signUpInput>, extra: { emailVerified?: boolean; isPro?: boolean; isOperator?: boolean } = {}) {
  const data = signUpInput.parse(input)
  // A name or address already taken is refused before the password is hashed (the expensive part): refused sign-ups
  // cost little and count against no one's limit (signUp below). The transaction below checks again.
  if (await db.nameClaim.findUnique({ where: { key: data.username.toLowerCase() } })) throw conflict(`The name "${data.username}" is already taken`)
  if (await db.user.findUnique({ where: { email: data.email.toLowerCase() } })) throw conflict('An account with this e-mail address already exists')
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

/** The window SIGN_UPS_PER_ADDRESS counts in. */
const SIGN_UP_WINDOW_SECONDS = 3600

/**
 * A new account from the join page. Each account brings fresh budgets of its own (tokens, apps, device codes,
 * sign-in attempts) and costs a password hash, so one client address may open only SIGN_UPS_PER_ADDRESS an hour;
 * input that is refused (invalid, a name or e-mail taken) does not count against it.
 */
export async function signUp(input: z.input<typeof signUpInput>, ip: string) {
  signUpInput.parse(input)
  const key = `signup:ip:${addressKey(ip)}`
  const now = Date.now()
  const limit = await hit(key, setting('SIGN_UPS_PER_ADDRESS'), SIGN_UP_WINDOW_SECONDS, now)
  if (!limit.allowed) throw tooMany('Too many new accounts from your network', limit.retryAfterSeconds)
  try {
    return await createUser(input)
  } catch (error) {
    await refund(key, SIGN_UP_WINDOW_SECONDS, now)
    throw error
  }
}

export const passwordChangeInput = z
  .object({
    currentPassword: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
    newPassword,
    confirmPassword: z.string().max(200, 'must be at most 200 characters'),
  })
  .refine((d) => d.confirmPassword === d.newPassword, { path: ['confirmPassword'], message: 'does not match the new password' })
  .refine((d) => d.newPassword !== d.currentPassword, { path: ['newPassword'], message: 'must differ from the current password' })

/**
 * Sets a password (over `expectedHash` only, when given) and ends every browser session of the
 * account signed in before now. False when the hash was no longer the expected one.
 */
async function replacePassword(userId: string, password: string, expectedHash?: string): Promise<boolean> {
  const passwordHash = await hashPassword(password)
  const from = new Date()
  const { count } = await db.user.updateMany({ where: { id: userId, ...(expectedHash !== undefined && { passwordHash: expectedHash }) }, data: { passwordHash, sessionsValidFrom: from } })
  if (count > 0) sessionsSupersededBefore(userId, from)
  return count > 0
}

/** The window wrong current passwords count in (as sign-in attempts do). */
const PASSWORD_CHANGE_WINDOW_SECONDS = 15 * 60

/**
 * Changes the signed-in user's password, given the current one, and ends every browser session of
 * theirs signed in before now (lib/auth/ended-sessions); their access tokens and OAuth grants stay.
 * Wrong current passwords count as sign-in attempts do, so a session left open is no way to guess it.
 */
export async function changePassword(userId: string, input: z.input<typeof passwordChangeInput>): Promise<void> {
  const data = passwordChangeInput.parse(input)
  const key = `password-change:user:${userId}`
  const limit = await hit(key, setting('SIGN_IN_ATTEMPTS_PER_ACCOUNT'), PASSWORD_CHANGE_WINDOW_SECONDS)
  if (!limit.allowed) throw tooMany('Too many wrong passwords', limit.retryAfterSeconds)
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } })
  if (!(await verifyPassword(data.currentPassword, user.passwordHash))) {
    throw new z.ZodError([{ code: 'custom', path: ['currentPassword'], message: 'is not your password', input: undefined }])
  }
  // Only over the hash just checked: of two changes made at once with the same current password, one wins.
  if (!(await replacePassword(userId, data.newPassword, user.passwordHash))) throw conflict('Your password was changed meanwhile (in another tab or browser). Reload the page.')
  await resetLimit(key)
}


/**
 * For someone who lost their password (the hub sends no e-mail): a new one, random (`password`
 * when given, checked as sign-up checks one), to be handed to them. Every browser session of theirs
 * ends; tokens and authorized apps stay. `npm run users:reset-password` and the operator page.
 */
export async function resetPassword(login: string, password?: string): Promise<{ username: string; password: string }> {
  const user = await namedAccount(login)
  const chosen = password === undefined ? randomBytes(15).toString('base64url') : newPassword.parse(password)
  await replacePassword(user.id, chosen)
  return { username: user.username, password: chosen }
}

/** resetPassword, by a signed-in hub operator (the operator page); logged with who did it. */
export async function resetPasswordAsOperator(caller: Caller, login: string, ip: string | null): Promise<{ username: string; password: string }> {
  const operator = await requireOperator(caller)
  const reset = await resetPassword(login)
  logOperatorAction(operator.username, `reset the password of ${reset.username}; their sessions ended`, ip)
  return reset
}

/** What an operator did to an account, as one line in the server's log. */
function logOperatorAction(operator: string, did: string, ip: string | null): void {
  console.info(`operator ${operator} ${did}${ip ? ` (from ${ip})` : ''}`)
}

/** The account an operator names by username or e-mail address; 404 when none. */
async function namedAccount(login: string) {
  const user = await findUserByLogin(login)
  if (!user) throw new HubError(404, `No account is named or has the e-mail address "${login.trim().slice(0, 254)}"`)
  return user
}

/**
 * An operator disables an account (abuse, a compromise): it cannot sign in (told so only after the
 * right password), its browser sessions end, its tokens are refused while it stays disabled, and
 * what could mint new ones ends for good: refresh tokens are revoked, codes not yet exchanged
 * expire, approved device codes are denied. Enabling it again lets it sign in and its tokens work
 * again; apps must be authorized anew. An operator cannot disable their own account.
 */
export async function disableAccount(caller: Caller, login: string, ip: string | null): Promise<{ username: string }> {
  const operator = await requireOperator(caller)
  const user = await namedAccount(login)
  if (user.id === operator.id) throw new HubError(400, 'You cannot disable your own account')
  const now = new Date()
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { disabledAt: user.disabledAt ?? now, sessionsValidFrom: now } })
    await tx.refreshToken.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: now } })
    await tx.authorizationCode.updateMany({ where: { userId: user.id, usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } })
    await tx.deviceCode.updateMany({ where: { userId: user.id, status: 'approved' }, data: { status: 'denied' } })
  })
  sessionsSupersededBefore(user.id, now)
  logOperatorAction(operator.username, `disabled ${user.username}`, ip)
  return { username: user.username }
}

/** Enables a disabled account again (see disableAccount). */
export async function enableAccount(caller: Caller, login: string, ip: string | null): Promise<{ username: string }> {
  const operator = await requireOperator(caller)
  const user = await namedAccount(login)
  await db.user.update({ where: { id: user.id }, data: { disabledAt: null } })
  logOperatorAction(operator.username, `enabled ${user.username}`, ip)
  return { username: user.username }
}

/** The disabled accounts, most recently disabled first, for the operator page. */
export async function disabledAccounts(caller: Caller) {
  await requireOperator(caller)
  return db.user.findMany({ where: { disabledAt: { not: null } }, select: { id: true, username: true, email: true, disabledAt: true }, orderBy: { disabledAt: 'desc' }, take: 200 })
}

/** The hub's operators, for the operator page. */
export async function hubOperators(caller: Caller) {
  await requireOperator(caller)
  return db.user.findMany({ where: { isOperator: true }, select: { id: true, username: true, email: true }, orderBy: { username: 'asc' } })
}

/**
 * Makes an account an operator of the hub, or no longer one. An operator does not remove their own
 * role (another operator does), so the hub always keeps one; a disabled account is not made one.
 */
export async function setHubOperator(caller: Caller, login: string, isOperator: boolean, ip: string | null): Promise<{ username: string }> {
  const operator = await requireOperator(caller)
  const user = await namedAccount(login)
  if (!isOperator && user.id === operator.id) throw new HubError(400, 'You cannot remove your own operator role; another operator can')
  if (isOperator && user.disabledAt) throw new HubError(400, `${user.username} is disabled; enable the account first`)
  await db.user.update({ where: { id: user.id }, data: { isOperator } })
  logOperatorAction(operator.username, isOperator ? `made ${user.username} an operator` : `removed ${user.username} as an operator`, ip)
  return { username: user.username }
}
