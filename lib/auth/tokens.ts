// Issuing, finding and revoking the hub's bearer tokens (every kind lives in AccessToken).
// Tokens start with hf_ because @huggingface/hub refuses any other credential.
import { db, readList, writeList, type Tx } from '@/lib/db'
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

export async function issueToken(input: IssueTokenInput, tx: Tx = db): Promise<{ token: string; id: string }> {
  const token = TOKEN_PREFIX[input.kind] + randomToken(34)
  const row = await tx.accessToken.create({
    data: {
      kind: input.kind,
      userId: input.userId,
      displayName: input.displayName ?? '',
      role: input.role,
      scopes: writeList(input.scopes ?? []),
      orgIds: writeList(input.orgIds ?? []),
      appId: input.appId ?? null,
      repoId: input.repoId ?? null,
      grantId: input.grantId ?? null,
      expiresAt: input.expiresAt ?? null,
      tokenHash: sha256Hex(token),
      prefix: token.slice(0, TOKEN_PREFIX[input.kind].length + 4),
    },
  })
  return { token, id: row.id }
}

// lastUsedAt is written at most once a minute per token, so reads stay cheap under load.
const LAST_USED_RESOLUTION_MS = 60_000

/** The principal a bearer token stands for, or null when it is unknown, expired or revoked. */
export async function principalFromToken(token: string): Promise<Principal | null> {
  if (!token.startsWith('hf_') || token.length > 200) return null
  const row = await db.accessToken.findUnique({ where: { tokenHash: sha256Hex(token) }, include: { user: true } })
  if (!row || row.revokedAt) return null
  const now = new Date()
  if (row.expiresAt && row.expiresAt <= now) return null
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.accessToken.update({ where: { id: row.id }, data: { lastUsedAt: now } })
  }
  return {
    userId: row.userId,
    username: row.user.username,
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
