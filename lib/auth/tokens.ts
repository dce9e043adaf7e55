// Issuing, finding and revoking the hub's bearer tokens (every kind lives in AccessToken).
// Tokens start with hf_ because @huggingface/hub refuses any other credential.
import { processState } from '@/lib/config/process-state'
import { db, insertStatement, newId, readList, rows, sql, statements, writeList, type Insert, type Statements } from '@/lib/db'
import { randomToken, sha256Hex } from '@/lib/auth/secrets'
import type { Principal, TokenKind } from '@/lib/policy/principal'

export const TOKEN_PREFIX: Record<TokenKind, string> = {
  personal: 'hf_',
  oauth: 'hf_oauth_',
  exchange: 'hf_oauth_',
  publisher: 'hf_oidc_',
  session: 'hf_session_',
}

export type IssueTokenInput = {
  kind: TokenKind
  userId: string
  displayName?: string
  role: string
  scopes?: string[]
  orgIds?: string[]
  appId?: string | null
  repoId?: string | null
  grantId?: string | null
  expiresAt?: Date | null
}

/** A new token and the AccessToken row that stores it (only its hash), not written yet. */
export function newAccessToken(input: IssueTokenInput): { token: string; id: string; row: Insert } {
  const token = TOKEN_PREFIX[input.kind] + randomToken(34)
  const id = newId()
  const row: Insert = {
    into: 'AccessToken',
    values: {
      id,
      kind: input.kind,
      userId: input.userId,
      displayName: input.displayName ?? '',
      role: input.role,
      scopes: writeList(input.scopes ?? []),
      orgIds: writeList(input.orgIds ?? []),
      appId: input.appId ?? null,
      repoId: input.repoId ?? null,
      grantId: input.grantId ?? null,
      tokenHash: sha256Hex(token),
      prefix: token.slice(0, TOKEN_PREFIX[input.kind].length + 4),
      createdAt: new Date(),
      expiresAt: input.expiresAt ?? null,
    },
  }
  return { token, id, row }
}

/** Stores a new token and returns it once; inside a transaction when `on` is one (lib/db/statements). */
export async function issueToken(input: IssueTokenInput, on: Statements = statements): Promise<{ token: string; id: string }> {
  const { token, id, row } = newAccessToken(input)
  await on.run(insertStatement(row))
  return { token, id }
}

// Bookkeeping off the request path: a token's last-used time is recorded at most once a minute,
// and what is recorded waits in memory and is written in one statement per LAST_USED_FLUSH_MS (and
// when the process ends), so a read-only API call writes nothing while it is answered.
const LAST_USED_RESOLUTION_MS = 60_000
/** How late Settings -> Access tokens may show a use: README "Several instances". */
export const LAST_USED_FLUSH_MS = 30_000
const FLUSH_CHUNK = 500
// One buffer per process (lib/config/process-state), whichever copy of this module saw the use;
// `unwritten`: token id -> its latest use not yet written.
const pending = processState('tokenUses', () => ({ unwritten: new Map<string, Date>(), timer: null as ReturnType<typeof setTimeout> | null, flushOnExit: false }))
const unwrittenUses = pending.unwritten

function noteUse(tokenId: string, lastUsedAt: Date | null, now: Date) {
  if (lastUsedAt && now.getTime() - lastUsedAt.getTime() <= LAST_USED_RESOLUTION_MS) return
  unwrittenUses.set(tokenId, now)
  pending.timer ??= setTimeout(() => void flushTokenUses().catch((error) => console.error('could not record token uses', error)), LAST_USED_FLUSH_MS)
  pending.timer.unref?.()
  if (!pending.flushOnExit) {
    pending.flushOnExit = true
    process.once('beforeExit', () => void flushTokenUses().catch(() => {}))
    // next start exits on SIGTERM once it has closed its server; the write is one statement and
    // starts first. Alone (a script), the process exits after writing, as it would have anyway.
    process.once('SIGTERM', () => {
      void flushTokenUses()
        .catch(() => {})
        .finally(() => process.listenerCount('SIGTERM') === 0 && process.exit(143))
    })
  }
}

/**
 * Writes the recorded last-used times: one statement per FLUSH_CHUNK tokens, each stamped with the
 * batch's latest use (at most LAST_USED_FLUSH_MS after the token's own, within the one-minute
 * resolution the settings page shows anyway).
 */
export async function flushTokenUses(): Promise<void> {
  if (pending.timer) clearTimeout(pending.timer)
  pending.timer = null
  if (!unwrittenUses.size) return
  const uses = [...unwrittenUses]
  unwrittenUses.clear()
  const latest = new Date(Math.max(...uses.map(([, at]) => at.getTime())))
  for (let i = 0; i < uses.length; i += FLUSH_CHUNK) {
    const ids = uses.slice(i, i + FLUSH_CHUNK).map(([id]) => id)
    await db.accessToken.updateMany({ where: { id: { in: ids } }, data: { lastUsedAt: latest } })
  }
}

type TokenRow = {
  id: string
  kind: string
  userId: string
  displayName: string
  role: string
  scopes: string
  orgIds: string
  appId: string | null
  repoId: string | null
  createdAt: Date
  expiresAt: Date | null
  revokedAt: Date | null
  lastUsedAt: Date | null
  username: string
  disabledAt: Date | null
}

/**
 * The principal a bearer token stands for, or null when it is unknown, expired or revoked, or its
 * user's account is disabled. One indexed statement (the token by its hash, joined to its user;
 * Prisma's include would be two), read on every request so that a revocation or a disabled account
 * takes effect at once on every instance.
 */
export async function principalFromToken(token: string): Promise<Principal | null> {
  if (!token.startsWith('hf_') || token.length > 200) return null
  const [row] = await rows<TokenRow>(sql`
    SELECT t."id", t."kind", t."userId", t."displayName", t."role", t."scopes", t."orgIds", t."appId", t."repoId",
           t."createdAt", t."expiresAt", t."revokedAt", t."lastUsedAt", u."username", u."disabledAt"
    FROM "AccessToken" t JOIN "User" u ON u."id" = t."userId"
    WHERE t."tokenHash" = ${sha256Hex(token)}`)
  if (!row || row.revokedAt || row.disabledAt) return null
  const now = new Date()
  if (row.expiresAt && row.expiresAt <= now) return null
  noteUse(row.id, row.lastUsedAt, now)
  return {
    userId: row.userId,
    username: row.username,
    tokenId: row.id,
    tokenKind: row.kind as TokenKind,
    displayName: row.displayName,
    role: row.kind === 'personal' ? (row.role as Principal['role']) : null,
    scopes: readList(row.scopes),
    orgIds: readList(row.orgIds),
    appId: row.appId,
    repoId: row.repoId,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  }
}

export async function revokeToken(userId: string, tokenId: string): Promise<boolean> {
  const result = await db.accessToken.updateMany({ where: { id: tokenId, userId, revokedAt: null }, data: { revokedAt: new Date() } })
  return result.count > 0
}
