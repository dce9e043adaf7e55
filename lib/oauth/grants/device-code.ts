// grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 3.4-3.5): the polling side
// of device authorization (lib/oauth/device-authorization issues the codes and records the answer).
import { db, readList, sql } from '@/lib/db'
import { sha256Hex } from '@/lib/auth/secrets'
import { OAuthError, invalidGrant, type OAuthErrorCode } from '@/lib/oauth/errors'
import { issueTokens } from '@/lib/oauth/tokens'
import { DEVICE_POLL_INTERVAL } from '@/lib/oauth/device-authorization'
import type { Grant } from '@/lib/oauth/grants/types'

export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code'
/** RFC 8628 3.5: slow_down adds 5 seconds to the interval, for this and every later poll. */
const SLOW_DOWN_STEP = 5
const MAX_INTERVAL = 60

function pollingError(code: string, description: string, status = 400): OAuthError {
  // RFC 8628 3.5 extends RFC 6749's error codes; the renderer treats them like the others.
  return new OAuthError(code as OAuthErrorCode, description, status)
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
    // early. The interval then asked for is the early poll's gap plus the 5 s a client adds on
    // slow_down (RFC 8628 3.5), at least the starting interval: a client that waits as told gets a
    // real answer next. Growing it by 5 s on every early poll instead left a client that started
    // after someone else's early polls (a retry, a second poller) 5 s behind on every poll, told to
    // slow down until the code expired.
    const gap = row.lastPolledAt === null ? null : now.getTime() - row.lastPolledAt.getTime()
    if (gap !== null && gap < row.interval * 1000) {
      const interval = Math.min(MAX_INTERVAL, Math.max(DEVICE_POLL_INTERVAL, Math.round(gap / 1000) + SLOW_DOWN_STEP))
      await db.deviceCode.update({ where: { id: row.id }, data: { lastPolledAt: now, interval } })
      throw pollingError('slow_down', `Poll at most every ${interval} seconds`)
    }
    if (row.status === 'pending') {
      await db.deviceCode.update({ where: { id: row.id }, data: { lastPolledAt: now } })
      throw pollingError('authorization_pending', 'The user has not finished approving yet')
    }
    // Approved: tokens exactly once, even when two polls race (redeemed with the tokens' transaction).
    const issued = await issueTokens(
      { client, userId: row.userId!, scopes: readList(row.scopes), orgIds: readList(row.orgIds), familyId: row.id, authTime: row.authTime },
      {
        refresh: true,
        consume: { table: 'DeviceCode', set: sql`"status" = 'redeemed', "lastPolledAt" = ${now}`, where: sql`"id" = ${row.id} AND "status" = 'approved'` },
      },
    )
    if (!issued) throw invalidGrant('This device code was already used')
    return issued
  },
}
