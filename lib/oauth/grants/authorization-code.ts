// grant_type=authorization_code (RFC 6749 4.1.3 with PKCE). A public client may leave out
// client_id: the code names its client (@huggingface/hub's oauthHandleRedirect sends none).
import { readList, rows, sql } from '@/lib/db'
import { sha256Hex } from '@/lib/auth/secrets'
import { invalidGrant, invalidRequest } from '@/lib/oauth/errors'
import { isValidVerifier, s256, verifierMatches } from '@/lib/oauth/pkce'
import { issueTokens, issueTokensSpending, revokeFamily } from '@/lib/oauth/tokens'
import type { Grant } from '@/lib/oauth/grants/types'
import type { Client } from '@/lib/oauth/clients'
import type { Params } from '@/lib/oauth/request'
import { USER_MEMBERSHIPS_COLUMNS, USER_MEMBERSHIPS_JOINS, USER_MEMBERSHIPS_ORDER, userFromMembershipRows, type UserMembershipRow } from '@/lib/hub/identity'

type CodeRow = {
  codeId: string
  clientId: string
  userId: string
  redirectUri: string
  scopes: string
  orgIds: string
  codeChallenge: string | null
  nonce: string | null
  authTime: number | null
  expiresAt: Date
  usedAt: Date | null
}

export const authorizationCodeGrant: Grant = {
  type: 'authorization_code',
  required: ['code', 'redirect_uri'],
  async exchange({ params, credentials, authenticate }) {
    const codeHash = sha256Hex(params.get('code')!)
    const named = credentials.clientId ? await authenticate(credentials.clientId) : null
    if (named) {
      // The common case, a client that names itself: the code is checked, spent and its tokens
      // stored by one statement that matches only a valid code (one round trip on PostgreSQL).
      // When it matches nothing, the code is read below to say why (or to revoke on reuse).
      const issued = await spendValidCode(named, codeHash, params)
      if (issued !== 'not-matched') return issued
    }
    // The code and its user in one statement (one row per membership of the user).
    const found = await rows<CodeRow & UserMembershipRow>(sql`
      SELECT c."id" AS "codeId", c."clientId", c."userId", c."redirectUri", c."scopes", c."orgIds", c."codeChallenge", c."nonce", c."authTime",
             c."expiresAt", c."usedAt", ${USER_MEMBERSHIPS_COLUMNS}
      FROM "AuthorizationCode" c LEFT JOIN "User" u ON u."id" = c."userId" ${USER_MEMBERSHIPS_JOINS}
      WHERE c."codeHash" = ${codeHash} ORDER BY ${USER_MEMBERSHIPS_ORDER}`)
    const code = found[0]
    // Without a client_id the code says which client it is for; only a public client may rely on that.
    const client = named ?? (await authenticate(code?.clientId ?? null))
    if (!code || code.clientId !== client.clientId) throw invalidGrant('Unknown authorization code')
    if (code.usedAt) {
      // RFC 6749 4.1.2: a code used twice was probably stolen; end what the first use issued.
      await revokeFamily(code.codeId)
      throw invalidGrant('Authorization code already used')
    }
    if (code.expiresAt <= new Date()) throw invalidGrant('Authorization code expired')
    if (params.get('redirect_uri') !== code.redirectUri) throw invalidGrant('redirect_uri does not match the authorization request')
    const verifier = params.get('code_verifier')
    // A public client proves nothing but the verifier: a code issued without a challenge (to the app
    // while it still had a secret) is not its to redeem.
    if (client.isPublic && !code.codeChallenge) throw invalidGrant('This code was issued without PKCE; a public client must use PKCE')
    if (code.codeChallenge) {
      if (!verifier) throw invalidRequest('Missing parameter: code_verifier')
      if (!verifierMatches(verifier, code.codeChallenge)) throw invalidGrant('code_verifier does not match the code_challenge')
    } else if (verifier) {
      throw invalidGrant('No code_challenge was sent with the authorization request')
    }
    // Spent in the transaction that stores the tokens: a code that raced another use issues nothing.
    const issued = await issueTokens(
      { client, userId: code.userId, scopes: readList(code.scopes), orgIds: readList(code.orgIds), familyId: code.codeId, authTime: code.authTime === null ? null : Number(code.authTime) },
      {
        user: userFromMembershipRows(found),
        nonce: code.nonce,
        refresh: true,
        consume: { table: 'AuthorizationCode', set: sql`"usedAt" = ${new Date()}`, where: sql`"id" = ${code.codeId} AND "usedAt" IS NULL` },
      },
    )
    if (!issued) {
      await revokeFamily(code.codeId)
      throw invalidGrant('Authorization code already used')
    }
    return issued
  },
}

/**
 * Spends the code (by its hash) if it is valid for the client (known, unspent, unexpired, same
 * redirect_uri, the PKCE verifier's S256 equal to the code's challenge, or neither sent) and issues
 * its tokens; 'not-matched' when no code matched all of that. The challenge is compared in SQL: it
 * is no secret (the authorization request carried it in its URL), and the code itself is found by
 * its hash, as every token here is.
 */
async function spendValidCode(client: Client, codeHash: string, params: Params) {
  const verifier = params.get('code_verifier') ?? null
  if (verifier !== null && !isValidVerifier(verifier)) return 'not-matched' as const
  if (verifier === null && client.isPublic) return 'not-matched' as const // (PKCE is required: said below)
  const now = new Date()
  const issued = await issueTokensSpending(client, {
    table: 'AuthorizationCode',
    set: sql`"usedAt" = ${now}`,
    where: sql`"codeHash" = ${codeHash} AND "clientId" = ${client.clientId} AND "usedAt" IS NULL
               AND "expiresAt" > ${now} AND "redirectUri" = ${params.get('redirect_uri') ?? ''}
               AND ${verifier === null ? sql`"codeChallenge" IS NULL` : sql`"codeChallenge" = ${s256(verifier)}`}`,
  })
  return issued ?? ('not-matched' as const)
}
