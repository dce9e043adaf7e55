// What a successful token request returns: an opaque hf_oauth_ access token (an AccessToken row
// of kind 'oauth'), a rotating refresh token, and an id_token when openid was granted.
import { db, newId, readList, spend, sql, writeList, type Insert, type SpendUpdate, type Tx } from '@/lib/db'
import { hubUrl } from '@/lib/config'
import { randomToken, sha256Hex } from '@/lib/auth/secrets'
import { newAccessToken } from '@/lib/auth/tokens'
import { signJwt } from '@/lib/oauth/keys'
import { invalidGrant } from '@/lib/oauth/errors'
import { userinfoClaims, userinfoClaimsOf } from '@/lib/oauth/userinfo'
import { USER_MEMBERSHIPS_COLUMNS, USER_MEMBERSHIPS_JOINS, USER_MEMBERSHIPS_ORDER, userFromMembershipRows, userWithMemberships, type UserMembershipRow, type UserWithMemberships } from '@/lib/hub/identity'
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
  /** When the user signed in for this grant (epoch seconds), when known: the ID token's auth_time. */
  authTime?: number | null
}

export type IssueOptions = {
  /** The grant's user when it was read with the grant (null: no longer exists); read here when left out. */
  user?: UserWithMemberships | null
  nonce?: string | null
  refresh: boolean
  /** The access token may carry fewer scopes than the grant (refresh with scope=...); the refresh token keeps them all. */
  narrowedTo?: string[]
  /**
   * Spends what the client presented (a code, a refresh token, a device code): an UPDATE that
   * matches the grant's row only while it is unspent (where: `… AND "usedAt" IS NULL`). It runs with the
   * stores of the new tokens as one atomic unit (lib/db spend), and nothing is stored when
   * it matched no row. The UPDATE takes the row's lock: a second request spending the same grant at
   * the same moment (another instance) waits for the first to end, then finds it spent. So a loser
   * only learns it lost once the winner's tokens are committed, and the revocation it runs next
   * (revokeFamily) sees and ends them (RFC 6749 4.1.2); with the spending and the tokens in separate
   * statements, the loser could revoke before the winner's tokens existed
   * (tests/integration/oauth/concurrent-redemption.test.ts).
   */
  consume: SpendUpdate
}

/**
 * The token response, or null when options.consume found the grant already spent. Reads first
 * (the user with their organizations, for the id_token's claims, unless read with the grant), then spends the grant and
 * stores both tokens atomically (one statement on PostgreSQL), then signs: the statements are
 * hand-written (lib/db/statements) because every exchange and refresh pays them.
 */
export async function issueTokens(grant: GrantedAccess, options: IssueOptions): Promise<TokenResponse | null> {
  const scopes = options.narrowedTo ?? grant.scopes
  const user = options.user !== undefined ? options.user : await userWithMemberships(grant.userId)
  if (!user) throw invalidGrant('The user no longer exists')
  const refreshToken = options.refresh ? randomToken(48) : null
  const access = newAccessToken({
    kind: 'oauth',
    userId: grant.userId,
    displayName: grant.client.name,
    role: 'scoped',
    scopes,
    orgIds: grant.orgIds,
    appId: grant.client.appId,
    grantId: grant.familyId,
    expiresAt: new Date(Date.now() + ACCESS_TOKEN_SECONDS * 1000),
  })
  const inserts = refreshToken ? [access.row, refreshTokenRow(grant, refreshToken)] : [access.row]
  const spent = await spend({ ...options.consume, returning: ['id'], inserts, select: sql`SELECT 1 AS "found" FROM "spent"` })
  if (spent.length !== 1) return null
  return tokenResponse(grant.client, { userId: grant.userId, scopes, orgIds: grant.orgIds, user, nonce: options.nonce ?? null, authTime: grant.authTime ?? null }, access.token, refreshToken)
}

type SpentGrantRow = UserMembershipRow & { grantFamily: string; grantUserId: string; grantScopes: string; grantOrgIds: string; grantNonce: string | null; grantAuthTime: number | null }

/** Where a spendable grant's row keeps what its tokens inherit (a refresh token its family's sign-in time too). */
const GRANT_TABLES = {
  // A code starts its family: its id is the family's.
  AuthorizationCode: { family: sql`"spent"."id"`, returning: ['id', 'userId', 'scopes', 'orgIds', 'nonce', 'authTime'], nonce: sql`"spent"."nonce"` },
  RefreshToken: { family: sql`"spent"."familyId"`, returning: ['familyId', 'userId', 'scopes', 'orgIds', 'authTime'], nonce: sql`NULL` },
} as const

/**
 * The token response for a code or refresh token that `consume` spends (an UPDATE that matches
 * only a valid, unspent grant of this client: lib/oauth/grants), with the grant's user, scopes,
 * organizations and family read from the row it spends: on PostgreSQL one statement, one round
 * trip, where issueTokens' callers read the grant first. The new tokens keep the grant's scopes.
 * Null when `consume` matched nothing.
 */
export async function issueTokensSpending(client: Client, consume: SpendUpdate & { table: keyof typeof GRANT_TABLES }): Promise<TokenResponse | null> {
  const grantTable = GRANT_TABLES[consume.table]
  const refreshToken = randomToken(48)
  const access = newAccessToken({ kind: 'oauth', userId: '', displayName: client.name, role: 'scoped', appId: client.appId, expiresAt: new Date(Date.now() + ACCESS_TOKEN_SECONDS * 1000) })
  const inherited = { userId: sql`"spent"."userId"`, scopes: sql`"spent"."scopes"`, orgIds: sql`"spent"."orgIds"` }
  const authTime = sql`"spent"."authTime"`
  const inserts: Insert[] = [
    { into: access.row.into, values: { ...access.row.values, ...inherited, grantId: grantTable.family } },
    { into: 'RefreshToken', values: { ...refreshTokenRow({ client, userId: '', scopes: [], orgIds: [], familyId: '' }, refreshToken).values, ...inherited, authTime, familyId: grantTable.family } },
  ]
  const found = await spend<SpentGrantRow>({
    ...consume,
    returning: [...grantTable.returning],
    inserts,
    select: sql`SELECT ${grantTable.family} AS "grantFamily", ${inherited.userId} AS "grantUserId", ${inherited.scopes} AS "grantScopes", ${inherited.orgIds} AS "grantOrgIds",
                       ${grantTable.nonce} AS "grantNonce", ${authTime} AS "grantAuthTime", ${USER_MEMBERSHIPS_COLUMNS}
                FROM "spent" LEFT JOIN "User" u ON u."id" = ${inherited.userId} ${USER_MEMBERSHIPS_JOINS} ORDER BY ${USER_MEMBERSHIPS_ORDER}`,
  })
  const [grant] = found
  if (!grant) return null
  const user = userFromMembershipRows(found)
  if (!user) throw invalidGrant('The user no longer exists') // (unreachable: a user's grants go with the user, by foreign key)
  const spent = { userId: grant.grantUserId, scopes: readList(grant.grantScopes), orgIds: readList(grant.grantOrgIds), user, nonce: grant.grantNonce, authTime: grant.grantAuthTime === null ? null : Number(grant.grantAuthTime) }
  return tokenResponse(client, spent, access.token, refreshToken)
}

async function tokenResponse(
  client: Client,
  grant: { userId: string; scopes: string[]; orgIds: string[]; user: UserWithMemberships; nonce: string | null; authTime: number | null },
  accessToken: string,
  refreshToken: string | null,
): Promise<TokenResponse> {
  const response: TokenResponse = { access_token: accessToken, token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS, scope: grant.scopes.join(' ') }
  if (refreshToken) response.refresh_token = refreshToken
  if (grant.scopes.includes('openid')) {
    const claims = userinfoClaimsOf(grant.user, { tokenKind: 'oauth', role: null, scopes: grant.scopes, orgIds: grant.orgIds })
    response.id_token = await signIdToken({ userId: grant.userId, clientId: client.clientId, scopes: grant.scopes, orgIds: grant.orgIds, authTime: grant.authTime }, grant.nonce, claims)
  }
  return response
}

function refreshTokenRow(grant: GrantedAccess, token: string): Insert {
  const now = new Date()
  return {
    into: 'RefreshToken',
    values: {
      id: newId(),
      tokenHash: sha256Hex(token),
      familyId: grant.familyId,
      clientId: grant.client.clientId,
      appId: grant.client.appId,
      userId: grant.userId,
      scopes: writeList(grant.scopes),
      orgIds: writeList(grant.orgIds),
      authTime: grant.authTime ?? null,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_SECONDS * 1000),
      createdAt: now,
    },
  }
}

export type IdTokenSubject = { userId: string; clientId: string; scopes: string[]; orgIds: string[]; authTime?: number | null }

/** OIDC Core 2: iss, sub, aud, exp, iat, nonce when sent, auth_time when known, plus the same claims as userinfo (read here unless given). */
export async function signIdToken(grant: IdTokenSubject, nonce: string | null = null, userClaims?: Record<string, unknown>): Promise<string> {
  const claims = userClaims ?? (await userinfoClaims(grant.userId, { tokenKind: 'oauth', role: null, scopes: grant.scopes, orgIds: grant.orgIds }))
  const { sub, ...profile } = claims
  const now = Math.floor(Date.now() / 1000)
  return signJwt({ ...profile, ...(nonce ? { nonce } : {}), ...(grant.authTime != null ? { auth_time: grant.authTime } : {}), iss: hubUrl(), sub, aud: grant.clientId, iat: now, exp: now + ID_TOKEN_SECONDS })
}

/** Ends a whole authorization: its access tokens and refresh tokens. */
export async function revokeFamily(familyId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await revokeRefreshTokens(tx, { familyId })
    await tx.accessToken.updateMany({ where: { grantId: familyId, revokedAt: null }, data: { revokedAt: new Date() } })
  })
}

/** Refresh tokens one revocation ends: a family, or all that a user gave a client. */
export type RefreshTokenSet = { familyId: string } | { userId: string; clientId: string }

/**
 * Revokes the set's refresh tokens, those that a rotation racing this transaction adds included;
 * run it before revoking the set's access tokens, in the same transaction. Under PostgreSQL's READ
 * COMMITTED a statement sees only the rows committed when it began: a rotation that held its token's
 * row lock when the UPDATE began makes it wait, but the token that rotation inserts is not among the
 * rows the UPDATE read, and it stayed live. So the UPDATE is repeated until it finds nothing: each
 * repeat sees what the rotations it waited for committed, and a rotation that has not yet spent its
 * token finds it revoked (its UPDATE waits on this transaction's row lock, then matches nothing).
 * Every token of the set is then revoked and locked, so the access tokens' UPDATE after it sees every
 * access token a rotation will ever have committed. (On SQLite writers take turns: one pass.)
 */
export async function revokeRefreshTokens(tx: Tx, set: RefreshTokenSet): Promise<void> {
  const now = new Date()
  // Each pass waits for the rotations in flight; a chain of them ends, as each needs a token not yet revoked.
  for (let pass = 0; pass < MAX_REVOCATION_PASSES; pass++) {
    const { count } = await tx.refreshToken.updateMany({ where: { ...set, revokedAt: null }, data: { revokedAt: now } })
    if (count === 0) return
  }
  throw new Error(`refresh tokens still being added after ${MAX_REVOCATION_PASSES} revocation passes`)
}
const MAX_REVOCATION_PASSES = 50
