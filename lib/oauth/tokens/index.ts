// What a successful token request returns: an opaque hf_oauth_ access token (an AccessToken row
// of kind 'oauth'), a rotating refresh token, and an id_token when openid was granted.
import { SignJWT } from 'jose'
import { db, newId, rows, sql, transaction, writeList, type Statements } from '@/lib/db'
import { hubUrl } from '@/lib/config'
import { randomToken, sha256Hex } from '@/lib/auth/secrets'
import { issueToken } from '@/lib/auth/tokens'
import { SIGNING_ALG, signingKey } from '@/lib/oauth/keys'
import { invalidGrant } from '@/lib/oauth/errors'
import { findUserinfoClaims, userinfoClaims } from '@/lib/oauth/userinfo'
import type { Client } from '@/lib/oauth/clients'

export const ACCESS_TOKEN_SECONDS = 8 * 3600
export const REFRESH_TOKEN_SECONDS = 90 * 24 * 3600
export const ID_TOKEN_SECONDS = 3600

export type TokenResponse = {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  scope: string
  refresh_token?: string
  id_token?: string
}

/** One grant of a user to a client, as codes and refresh tokens carry it. */
export type GrantedAccess = {
  client: Client
  userId: string
  scopes: string[]
  orgIds: string[]
  /** Every token of one authorization shares it: a replayed code or refresh token revokes them all. */
  familyId: string
}

export type IssueOptions = {
  nonce?: string | null
  refresh: boolean
  /** The access token may carry fewer scopes than the grant (refresh with scope=...); the refresh token keeps them all. */
  narrowedTo?: string[]
  /**
   * Spends what the client presented (a code, a refresh token, a device code) in the transaction
   * that stores the new tokens; false when it was already spent, and then nothing is stored.
   * It is a conditional UPDATE (`… WHERE usedAt IS NULL`), which takes the row's lock: a second
   * request spending the same grant at the same moment (another instance) waits for the first
   * transaction to end, then finds it spent. So a loser only learns it lost once the winner's tokens
   * are committed, and the revocation it runs next (revokeFamily) sees and ends them (RFC 6749
   * 4.1.2); with the spending and the tokens in separate statements, the loser could revoke before
   * the winner's tokens existed (tests/integration/oauth/concurrent-redemption.test.ts).
   */
  consume: (tx: Statements) => Promise<boolean>
}

/**
 * The token response, or null when options.consume found the grant already spent. Reads first
 * (the user, with the id_token's claims when openid was granted), then writes the spending and
 * both tokens in one transaction, then signs: four statements for a code exchange with openid,
 * hand-written (lib/db/statements) because every exchange and refresh pays them.
 */
export async function issueTokens(grant: GrantedAccess, options: IssueOptions): Promise<TokenResponse | null> {
  const scopes = options.narrowedTo ?? grant.scopes
  const openid = scopes.includes('openid')
  const claims = openid
    ? await findUserinfoClaims(grant.userId, { tokenKind: 'oauth', role: null, scopes, orgIds: grant.orgIds })
    : (await rows<{ id: string }>(sql`SELECT "id" FROM "User" WHERE "id" = ${grant.userId}`))[0]
  if (!claims) throw invalidGrant('The user no longer exists')
  const refreshToken = options.refresh ? randomToken(48) : null
  const access = await transaction(async (tx) => {
    if (!(await options.consume(tx))) return null
    const issued = await issueToken(
      {
        kind: 'oauth',
        userId: grant.userId,
        displayName: grant.client.name,
        role: 'scoped',
        scopes,
        orgIds: grant.orgIds,
        appId: grant.client.appId,
        grantId: grant.familyId,
        expiresAt: new Date(Date.now() + ACCESS_TOKEN_SECONDS * 1000),
      },
      tx,
    )
    if (refreshToken) await storeRefreshToken(grant, refreshToken, tx)
    return issued
  })
  if (!access) return null
  const response: TokenResponse = { access_token: access.token, token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS, scope: scopes.join(' ') }
  if (refreshToken) response.refresh_token = refreshToken
  if (openid) {
    response.id_token = await signIdToken({ userId: grant.userId, clientId: grant.client.clientId, scopes, orgIds: grant.orgIds }, options.nonce ?? null, claims as Record<string, unknown>)
  }
  return response
}

async function storeRefreshToken(grant: GrantedAccess, token: string, tx: Statements): Promise<void> {
  const now = new Date()
  await tx.run(sql`
    INSERT INTO "RefreshToken" ("id", "tokenHash", "familyId", "clientId", "appId", "userId", "scopes", "orgIds", "expiresAt", "createdAt")
    VALUES (${newId()}, ${sha256Hex(token)}, ${grant.familyId}, ${grant.client.clientId}, ${grant.client.appId}, ${grant.userId},
            ${writeList(grant.scopes)}, ${writeList(grant.orgIds)}, ${new Date(now.getTime() + REFRESH_TOKEN_SECONDS * 1000)}, ${now})`)
}

export type IdTokenSubject = { userId: string; clientId: string; scopes: string[]; orgIds: string[] }

/** OIDC Core 2: iss, sub, aud, exp, iat, nonce when sent, plus the same claims as userinfo (read here unless given). */
export async function signIdToken(grant: IdTokenSubject, nonce: string | null = null, userClaims?: Record<string, unknown>): Promise<string> {
  const { kid, privateKey } = await signingKey()
  const claims = userClaims ?? (await userinfoClaims(grant.userId, { tokenKind: 'oauth', role: null, scopes: grant.scopes, orgIds: grant.orgIds }))
  const { sub, ...profile } = claims
  return new SignJWT({ ...profile, ...(nonce ? { nonce } : {}) })
    .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'JWT' })
    .setIssuer(hubUrl())
    .setSubject(sub as string)
    .setAudience(grant.clientId)
    .setIssuedAt()
    .setExpirationTime(`${ID_TOKEN_SECONDS}s`)
    .sign(privateKey)
}

/** Ends a whole authorization: its access tokens and refresh tokens. */
export async function revokeFamily(familyId: string): Promise<void> {
  const now = new Date()
  await db.$transaction([
    db.accessToken.updateMany({ where: { grantId: familyId, revokedAt: null }, data: { revokedAt: now } }),
    db.refreshToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: now } }),
  ])
}
