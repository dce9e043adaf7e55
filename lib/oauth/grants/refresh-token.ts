// grant_type=refresh_token: rotating refresh tokens. Each use returns a new one; presenting a used
// one again means it leaked, and the whole family (every token of that authorization) is revoked.
import { readList, rows, sql } from '@/lib/db'
import { sha256Hex } from '@/lib/auth/secrets'
import { invalidGrant, invalidScope } from '@/lib/oauth/errors'
import { parseScope } from '@/lib/oauth/scopes'
import { issueTokens, issueTokensSpending, revokeFamily } from '@/lib/oauth/tokens'
import type { Grant } from '@/lib/oauth/grants/types'
import { USER_MEMBERSHIPS_COLUMNS, USER_MEMBERSHIPS_JOINS, USER_MEMBERSHIPS_ORDER, userFromMembershipRows, type UserMembershipRow } from '@/lib/hub/identity'

type RefreshTokenRow = {
  refreshId: string
  familyId: string
  clientId: string
  userId: string
  scopes: string
  orgIds: string
  authTime: number | null
  expiresAt: Date
  usedAt: Date | null
  revokedAt: Date | null
}

export const refreshTokenGrant: Grant = {
  type: 'refresh_token',
  required: ['refresh_token'],
  async exchange({ params, authenticate }) {
    const client = await authenticate()
    const tokenHash = sha256Hex(params.get('refresh_token')!)
    if (!params.has('scope')) {
      // The common case, a refresh that keeps the grant's scopes: the token is checked, spent and
      // the new pair stored by one statement that matches only a valid token of this client (one
      // round trip on PostgreSQL). When it matches nothing, the token is read below to say why
      // (and to revoke the family on reuse).
      const now = new Date()
      const issued = await issueTokensSpending(client, {
        table: 'RefreshToken',
        set: sql`"usedAt" = ${now}`,
        where: sql`"tokenHash" = ${tokenHash} AND "clientId" = ${client.clientId} AND "usedAt" IS NULL AND "revokedAt" IS NULL AND "expiresAt" > ${now}`,
      })
      if (issued) return issued
    }
    // The refresh token and its user in one statement (one row per membership of the user).
    const found = await rows<RefreshTokenRow & UserMembershipRow>(sql`
      SELECT r."id" AS "refreshId", r."familyId", r."clientId", r."userId", r."scopes", r."orgIds", r."authTime", r."expiresAt", r."usedAt", r."revokedAt",
             ${USER_MEMBERSHIPS_COLUMNS}
      FROM "RefreshToken" r LEFT JOIN "User" u ON u."id" = r."userId" ${USER_MEMBERSHIPS_JOINS}
      WHERE r."tokenHash" = ${tokenHash} ORDER BY ${USER_MEMBERSHIPS_ORDER}`)
    const row = found[0]
    if (!row || row.clientId !== client.clientId || row.revokedAt) throw invalidGrant('Unknown or revoked refresh token')
    if (row.usedAt) {
      await revokeFamily(row.familyId)
      throw invalidGrant('Refresh token already used; the authorization was revoked')
    }
    if (row.expiresAt <= new Date()) throw invalidGrant('Refresh token expired')
    const granted = readList(row.scopes)
    // RFC 6749 6: the new access token may be narrower than the grant, never broader.
    const scopes = parseScope(params.get('scope'), granted)
    const escalated = scopes.filter((s) => !granted.includes(s))
    if (escalated.length) throw invalidScope(`Not granted: ${escalated.join(' ')}`)
    // Spent in the transaction that stores the new pair (issueTokens also refuses a deleted user).
    const issued = await issueTokens(
      { client, userId: row.userId, scopes: granted, orgIds: readList(row.orgIds), familyId: row.familyId, authTime: row.authTime === null ? null : Number(row.authTime) },
      {
        user: userFromMembershipRows(found),
        refresh: true,
        narrowedTo: scopes,
        consume: { table: 'RefreshToken', set: sql`"usedAt" = ${new Date()}`, where: sql`"id" = ${row.refreshId} AND "usedAt" IS NULL AND "revokedAt" IS NULL` },
      },
    )
    if (!issued) {
      await revokeFamily(row.familyId)
      throw invalidGrant('Refresh token already used; the authorization was revoked')
    }
    return issued
  },
}
