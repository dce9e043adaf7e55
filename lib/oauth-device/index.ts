// The device authorization grant (RFC 8628): a CLI or TV asks for a code pair, the user enters the
// short user code on another device and approves, and the app polls the token endpoint.
import { db, readList, writeList } from '@/lib/db'
import { hubUrl, intSetting } from '@/lib/config'
import { randomToken, sha256Hex } from '@/lib/auth/secrets'
import { clientIp, hit } from '@/lib/ratelimit'
import { credentialsFrom } from '@/lib/oauth/clients/authenticate'
import { authenticateClientCountingFailures, refuseAddressWithFailedAuthentications } from '@/lib/oauth/clients/auth-failures'
import { OAuthError, invalidGrant, invalidScope, type OAuthErrorCode } from '@/lib/oauth/errors'
import { bodyParams, required } from '@/lib/oauth/request'
import { parseScope, permittedScopes } from '@/lib/oauth/scopes'
import { issueTokens } from '@/lib/oauth/tokens'
import { memberOrgIds } from '@/lib/oauth/authorize'
import { saveConsent } from '@/lib/oauth/consent'
import { clientFromApp, type Client } from '@/lib/oauth/clients'
import type { Grant } from '@/lib/oauth/grants/types'
import { formatUserCode, newUserCode, normalizeUserCode } from '@/lib/oauth-device/user-code'

export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code'
/** RFC 8628 3.5: slow_down adds 5 seconds to the interval, for this and every later poll. */
const SLOW_DOWN_STEP = 5
const MAX_INTERVAL = 60
const DEFAULT_INTERVAL = 5
/** Live codes one client may hold at once: a misbehaving client cannot fill the table. */
const MAX_LIVE_CODES_PER_CLIENT = 50

export function deviceCodeSeconds(): number {
  return Math.min(Math.max(intSetting('DEVICE_CODE_SECONDS', 300), 60), 1800)
}

function pollingError(code: string, description: string, status = 400): OAuthError {
  // RFC 8628 3.5 extends RFC 6749's error codes; the renderer treats them like the others.
  return new OAuthError(code as OAuthErrorCode, description, status)
}

export function verificationUri(): string {
  return `${hubUrl()}/oauth/device`
}

/** POST /oauth/device (RFC 8628 3.1-3.2). */
export async function startDeviceAuthorization(request: Request) {
  const ip = clientIp(request.headers)
  await refuseAddressWithFailedAuthentications(ip)
  const params = await bodyParams(request)
  const credentials = credentialsFrom(request, params)
  required(params, 'client_id')
  const client = await authenticateClientCountingFailures(credentials, ip)
  if (client.viaMetadataDocument) throw new OAuthError('unauthorized_client', 'Metadata-document clients use the authorization code flow; register an app for device login')
  const allowed = permittedScopes(client.scopes)
  const scopes = parseScope(params.get('scope'), ['openid', 'profile', ...client.scopes])
  const refused = scopes.filter((s) => !allowed.has(s))
  if (refused.length) throw invalidScope(`This app may not ask for: ${refused.join(' ')}`)

  const now = new Date()
  const live = await db.deviceCode.count({ where: { clientId: client.clientId, expiresAt: { gt: now }, status: { in: ['pending', 'approved'] } } })
  if (live >= MAX_LIVE_CODES_PER_CLIENT) throw new OAuthError('temporarily_unavailable', 'Too many pending device codes for this app; try again later', 429, { 'Retry-After': '60' })

  const deviceCode = randomToken(43)
  const seconds = deviceCodeSeconds()
  // A fresh user code can collide with a live one (2.5e10 codes): the unique index refuses it, try again.
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode()
    try {
      await db.deviceCode.create({
        data: {
          deviceCodeHash: sha256Hex(deviceCode),
          userCode: sha256Hex(userCode),
          clientId: client.clientId,
          appId: client.appId,
          scopes: writeList(scopes),
          interval: DEFAULT_INTERVAL,
          expiresAt: new Date(now.getTime() + seconds * 1000),
        },
      })
      const shown = formatUserCode(userCode)
      return {
        device_code: deviceCode,
        user_code: shown,
        verification_uri: verificationUri(),
        verification_uri_complete: `${verificationUri()}?user_code=${encodeURIComponent(shown)}`,
        expires_in: seconds,
        interval: DEFAULT_INTERVAL,
      }
    } catch (error) {
      if (attempt >= 3 || (error as { code?: string }).code !== 'P2002') throw error
    }
  }
}

/** grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 3.4-3.5). */
export const deviceCodeGrant: Grant = {
  type: DEVICE_GRANT_TYPE,
  required: ['device_code'],
  async exchange({ params, authenticate }) {
    const client = await authenticate()
    const row = await db.deviceCode.findUnique({ where: { deviceCodeHash: sha256Hex(params.get('device_code')!) } })
    if (!row || row.clientId !== client.clientId) throw invalidGrant('Unknown device code')
    const now = new Date()
    if (row.status === 'redeemed') throw invalidGrant('This device code was already used')
    if (row.expiresAt <= now) throw pollingError('expired_token', 'The device code expired; start again')
    if (row.status === 'denied') throw pollingError('access_denied', 'The user denied the request')

    // Polls closer together than the interval are told to slow down. The first poll is never
    // early, and the interval only grows by 5 s per early poll, so a client that waits as told
    // always gets a real answer next.
    const early = row.lastPolledAt !== null && now.getTime() - row.lastPolledAt.getTime() < row.interval * 1000
    if (early) {
      await db.deviceCode.update({ where: { id: row.id }, data: { lastPolledAt: now, interval: Math.min(row.interval + SLOW_DOWN_STEP, MAX_INTERVAL) } })
      throw pollingError('slow_down', `Poll at most every ${Math.min(row.interval + SLOW_DOWN_STEP, MAX_INTERVAL)} seconds`)
    }
    if (row.status === 'pending') {
      await db.deviceCode.update({ where: { id: row.id }, data: { lastPolledAt: now } })
      throw pollingError('authorization_pending', 'The user has not finished approving yet')
    }
    // Approved: tokens exactly once, even when two polls race.
    const redeemed = await db.deviceCode.updateMany({ where: { id: row.id, status: 'approved' }, data: { status: 'redeemed', lastPolledAt: now } })
    if (redeemed.count === 0) throw invalidGrant('This device code was already used')
    return issueTokens({ client, userId: row.userId!, scopes: readList(row.scopes), orgIds: readList(row.orgIds), familyId: row.id }, { refresh: true })
  },
}

export type PendingDeviceRequest = { id: string; client: Client; scopes: string[]; expiresAt: Date; userCode: string }

export class UserCodeError extends Error {}

/** Finds the pending request a user code names, counting guesses per user and per address. */
export async function findPendingRequest(enteredCode: string, userId: string, ip: string): Promise<PendingDeviceRequest> {
  const perUser = await hit(`device-code:user:${userId}`, intSetting('DEVICE_CODE_GUESSES_PER_USER', 20), 15 * 60)
  const perIp = await hit(`device-code:ip:${ip}`, intSetting('DEVICE_CODE_GUESSES_PER_IP', 60), 15 * 60)
  if (!perUser.allowed || !perIp.allowed) throw new UserCodeError('Too many attempts. Wait a few minutes and try again.')
  const code = normalizeUserCode(enteredCode)
  if (!code) throw new UserCodeError('That is not a valid code: it has 8 letters, like BCDF-GHJK.')
  const row = await db.deviceCode.findUnique({ where: { userCode: sha256Hex(code) }, include: { app: true } })
  if (!row || !row.app || row.status !== 'pending' || row.expiresAt <= new Date()) throw new UserCodeError('This code is unknown, was already used, or has expired. Start again on your device.')
  return { id: row.id, client: clientFromApp(row.app), scopes: readList(row.scopes), expiresAt: row.expiresAt, userCode: formatUserCode(code) }
}

/**
 * Records the user's answer; only a pending, unexpired request can be decided, once. An approval is
 * remembered as the user's consent to the app, like one on the authorization code's consent page:
 * Settings → Authorized apps lists it, and revoking it ends every token the device code produced.
 */
export async function decideDeviceRequest(id: string, userId: string, approve: boolean, orgIds: readonly string[]): Promise<boolean> {
  const granted = approve ? await memberOrgIds(userId, orgIds) : []
  return db.$transaction(async (tx) => {
    const result = await tx.deviceCode.updateMany({
      where: { id, status: 'pending', expiresAt: { gt: new Date() } },
      data: approve ? { status: 'approved', userId, orgIds: writeList(granted) } : { status: 'denied', userId },
    })
    if (result.count !== 1) return false
    if (approve) {
      const row = await tx.deviceCode.findUniqueOrThrow({ where: { id }, select: { clientId: true, scopes: true } })
      await saveConsent(userId, row.clientId, readList(row.scopes), granted, tx)
    }
    return true
  })
}
