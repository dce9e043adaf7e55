// Device authorization (RFC 8628): a CLI or TV asks for a code pair (POST /oauth/device), the user
// enters the short user code on another device and approves here; the app then polls the token
// endpoint, where lib/oauth/grants/device-code answers.
import { db, lockRow, readList, statementsIn, writeList } from '@/lib/db'
import { hubUrl, setting } from '@/lib/config'
import { randomToken, sha256Hex } from '@/lib/auth/secrets'
import { addressKey, clientIp, hit, refund } from '@/lib/ratelimit'
import { credentialsFrom } from '@/lib/oauth/clients/authenticate'
import { authenticateClientCountingFailures, refuseAddressWithFailedAuthentications, tooManyRequests } from '@/lib/oauth/clients/auth-failures'
import { OAuthError, invalidScope } from '@/lib/oauth/errors'
import { bodyParams, required } from '@/lib/oauth/request'
import { parseScope, permittedScopes } from '@/lib/oauth/scopes'
import { memberOrgIds } from '@/lib/oauth/authorize'
import { saveConsent } from '@/lib/oauth/consent'
import { clientFromApp, type Client } from '@/lib/oauth/clients'
import { formatUserCode, newUserCode, normalizeUserCode } from '@/lib/oauth/user-code'

/** The interval a new code starts with; polling (grants/device-code) may grow it. */
export const DEVICE_POLL_INTERVAL = 5
/**
 * Live codes one confidential client may hold at once: a misbehaving client cannot fill the table.
 * A public client proves nothing (anyone may send its id), so a cap of its own would let anyone
 * stop its users signing in: its requests are limited per address only (DEVICE_AUTHORIZATIONS_PER_IP).
 */
const MAX_LIVE_CODES_PER_CLIENT = 50
const PER_IP_WINDOW_SECONDS = 5 * 60

export function deviceCodeSeconds(): number {
  return setting('DEVICE_CODE_SECONDS')
}

export function verificationUri(): string {
  return `${hubUrl()}/oauth/device`
}

/** POST /oauth/device (RFC 8628 3.1-3.2). */
export async function startDeviceAuthorization(request: Request) {
  const ip = clientIp(request.headers)
  const perIp = await hit(`device-authorization:ip:${addressKey(ip)}`, setting('DEVICE_AUTHORIZATIONS_PER_IP'), PER_IP_WINDOW_SECONDS)
  if (!perIp.allowed) throw tooManyRequests(perIp.retryAfterSeconds)
  await refuseAddressWithFailedAuthentications(ip)
  const params = await bodyParams(request)
  const credentials = credentialsFrom(request, params)
  // RFC 8628 3.1: client_id in the body unless the client authenticates (HTTP Basic names it).
  if (!credentials.clientId) required(params, 'client_id')
  const client = await authenticateClientCountingFailures(credentials, ip)
  if (client.viaMetadataDocument) throw new OAuthError('unauthorized_client', 'Metadata-document clients use the authorization code flow; register an app for device login')
  const allowed = permittedScopes(client.scopes)
  const scopes = parseScope(params.get('scope'), ['openid', 'profile', ...client.scopes])
  const refused = scopes.filter((s) => !allowed.has(s))
  if (refused.length) throw invalidScope(`This app may not ask for: ${refused.join(' ')}`)

  const now = new Date()
  const deviceCode = randomToken(43)
  const seconds = deviceCodeSeconds()
  // A fresh user code can collide with a live one (2.5e10 codes): the unique index refuses it, try again.
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode()
    try {
      await db.$transaction(async (tx) => {
        if (!client.isPublic && client.appId) {
          // Counted under the app's row lock, so a burst cannot pass the cap.
          await lockRow(statementsIn(tx), 'OAuthApp', client.appId)
          const live = await tx.deviceCode.count({ where: { clientId: client.clientId, expiresAt: { gt: now }, status: { in: ['pending', 'approved'] } } })
          if (live >= MAX_LIVE_CODES_PER_CLIENT) throw new OAuthError('temporarily_unavailable', 'Too many pending device codes for this app; try again later', 429, { 'Retry-After': '60' })
        }
        await tx.deviceCode.create({
          data: {
            deviceCodeHash: sha256Hex(deviceCode),
            userCode: sha256Hex(userCode),
            clientId: client.clientId,
            appId: client.appId,
            scopes: writeList(scopes),
            interval: DEVICE_POLL_INTERVAL,
            expiresAt: new Date(now.getTime() + seconds * 1000),
          },
        })
      })
      const shown = formatUserCode(userCode)
      return {
        device_code: deviceCode,
        user_code: shown,
        verification_uri: verificationUri(),
        verification_uri_complete: `${verificationUri()}?user_code=${encodeURIComponent(shown)}`,
        expires_in: seconds,
        interval: DEVICE_POLL_INTERVAL,
      }
    } catch (error) {
      if (attempt >= 3 || (error as { code?: string }).code !== 'P2002') throw error
    }
  }
}

export type PendingDeviceRequest = { id: string; client: Client; scopes: string[]; expiresAt: Date; userCode: string }

export class UserCodeError extends Error {}

const GUESS_WINDOW_SECONDS = 15 * 60

/**
 * Finds the pending request a user code names. Wrong codes count against the user and the address
 * (DEVICE_CODE_GUESSES_PER_*): each lookup is counted while it runs, so a burst of guesses gets no
 * more than the budget, and given back when the code was right, so opening a valid code's link,
 * or reloading its page, costs nothing.
 */
export async function findPendingRequest(enteredCode: string, userId: string, ip: string): Promise<PendingDeviceRequest> {
  const now = Date.now()
  const keys = [`device-code:user:${userId}`, `device-code:ip:${addressKey(ip)}`]
  const perUser = await hit(keys[0]!, setting('DEVICE_CODE_GUESSES_PER_USER'), GUESS_WINDOW_SECONDS, now)
  const perIp = await hit(keys[1]!, setting('DEVICE_CODE_GUESSES_PER_IP'), GUESS_WINDOW_SECONDS, now)
  if (!perUser.allowed || !perIp.allowed) throw new UserCodeError('Too many attempts. Wait a few minutes and try again.')
  const code = normalizeUserCode(enteredCode)
  // Says what a code looks like without claiming what was typed is shaped otherwise: an 8-letter
  // entry with a vowel or digit is refused here too.
  if (!code) throw new UserCodeError('That is not a code from this hub. Codes have 8 letters, like BCDF-GHJK, with no vowels or digits.')
  const row = await db.deviceCode.findUnique({ where: { userCode: sha256Hex(code) }, include: { app: true } })
  if (!row || !row.app || row.status !== 'pending' || row.expiresAt <= new Date()) throw new UserCodeError('This code is unknown, was already used, or has expired. Start again on your device.')
  await Promise.all(keys.map((key) => refund(key, GUESS_WINDOW_SECONDS, now)))
  return { id: row.id, client: clientFromApp(row.app), scopes: readList(row.scopes), expiresAt: row.expiresAt, userCode: formatUserCode(code) }
}

/**
 * How `userId` answered the device request `id` ('approved' also once the device has its tokens),
 * or null when they did not answer it: the page after the answer says only what happened.
 */
export async function deviceAnswer(id: string, userId: string): Promise<'approved' | 'denied' | null> {
  const row = await db.deviceCode.findUnique({ where: { id }, select: { userId: true, status: true } })
  if (!row || row.userId !== userId) return null
  return row.status === 'denied' ? 'denied' : row.status === 'approved' || row.status === 'redeemed' ? 'approved' : null
}

/**
 * Records the user's answer; only a pending, unexpired request can be decided, once. An approval is
 * remembered as the user's consent to the app, like one on the authorization code's consent page:
 * Settings → Authorized apps lists it, and revoking it ends every token the device code produced.
 * `authTime`: when the approving user signed in (their session's), the ID token's auth_time.
 */
export async function decideDeviceRequest(request: { id: string; userCode: string }, userId: string, approve: boolean, orgIds: readonly string[], authTime: number | null = null): Promise<boolean> {
  // The user code is what proves the request is the one on the user's device (it is shown only to who entered it, at
  // a limited rate): a request's id alone, which the page carries too, decides nothing.
  const code = normalizeUserCode(request.userCode)
  if (!code) return false
  const granted = approve ? await memberOrgIds(userId, orgIds) : []
  return db.$transaction(async (tx) => {
    const result = await tx.deviceCode.updateMany({
      where: { id: request.id, userCode: sha256Hex(code), status: 'pending', expiresAt: { gt: new Date() } },
      data: approve ? { status: 'approved', userId, orgIds: writeList(granted), authTime } : { status: 'denied', userId },
    })
    if (result.count !== 1) return false
    if (approve) {
      const row = await tx.deviceCode.findUniqueOrThrow({ where: { id: request.id }, select: { clientId: true, scopes: true } })
      await saveConsent(userId, row.clientId, readList(row.scopes), granted, tx)
    }
    return true
  })
}
