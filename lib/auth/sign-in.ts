// Password sign-in with lockout. Attempts are counted on the account from each address, on the
// account from all addresses together, and per address. The account counters are keyed on the
// account the login resolves to, so " dave", "dave " and dave's e-mail address share them; logins
// that name no account are counted under their normalised spelling, so guessing at unknown names
// is slowed the same way. A lockout per account alone let anyone lock anyone out with ten wrong
// passwords: now a guesser locks out their own address, and only guessing spread over many
// addresses (SIGN_IN_ATTEMPTS_PER_ACCOUNT_TOTAL) closes the account everywhere.
import { db } from '@/lib/db'
import { setting } from '@/lib/config'
import { decoyHash, verifyPassword } from '@/lib/auth/password'
import { addressKey, hit, resetLimit } from '@/lib/ratelimit'

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

const WINDOW_SECONDS = 15 * 60

/** A refusal names the account the login resolved to (null: none), for the log line of refused sign-ins. */
export type SignInResult =
  | { kind: 'ok'; user: NonNullable<Awaited<ReturnType<typeof findUserByLogin>>> }
  | { kind: 'wrong'; account: string | null }
  | { kind: 'rate_limited'; account: string | null }
  /** The right password of an account an operator disabled: said only to whoever knows the password. */
  | { kind: 'disabled'; account: string }

/** The counter a login is charged to. */
function accountLimitKey(user: { id: string } | null, login: string): string {
  return user ? `login:account:${user.id}` : `login:unknown:${login.trim().toLowerCase()}`
}

export async function signInWithPassword(login: string, password: string, ip: string): Promise<SignInResult> {
  const user = await findUserByLogin(login)
  const accountKey = accountLimitKey(user, login)
  const fromHereKey = `${accountKey}:ip:${addressKey(ip)}`
  const fromHere = await hit(fromHereKey, setting('SIGN_IN_ATTEMPTS_PER_ACCOUNT'), WINDOW_SECONDS)
  const everywhere = await hit(accountKey, setting('SIGN_IN_ATTEMPTS_PER_ACCOUNT_TOTAL'), WINDOW_SECONDS)
  const address = await hit(`login:ip:${addressKey(ip)}`, setting('SIGN_IN_ATTEMPTS_PER_ADDRESS'), WINDOW_SECONDS)
  const account = user?.username ?? null
  if (!fromHere.allowed || !everywhere.allowed || !address.allowed) return { kind: 'rate_limited', account }
  const matches = await passwordMatches(user, password)
  if (!user || !matches) return { kind: 'wrong', account }
  if (user.disabledAt) return { kind: 'disabled', account: user.username }
  await resetLimit(fromHereKey)
  return { kind: 'ok', user }
}
