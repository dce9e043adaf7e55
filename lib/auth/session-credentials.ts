// The signed-in user's session credential: a bearer token that the hub's own pages use to call the
// moderation API from the browser ("Use my account" on the docs page, the playground's server mode).
// It is not a personal token: it carries only the moderation scope, is never listed under Access
// tokens, lasts an hour, and is revoked when the user signs out.
//
// Loading those pages again must not mint a token each time, yet only the token's hash is stored.
// So the token is derived from its row's random id with a key only the server holds (an HMAC under
// AUTH_SECRET): the server can hand the same live credential out again, and a copy of the database
// alone reveals no usable token.
import { createHmac, randomUUID } from 'node:crypto'
import { db, writeList } from '@/lib/db'
import { authSecret } from '@/lib/config'
import { sha256Hex } from '@/lib/auth/secrets'
import { TOKEN_PREFIX } from '@/lib/auth/tokens'

export const SESSION_CREDENTIAL_SECONDS = 3600
export const SESSION_CREDENTIAL_SCOPES = ['write:users']
// A credential with less than this left is not handed out again: a page keeps it for a while.
const REUSE_MIN_REMAINING_MS = 10 * 60 * 1000
const PREFIX = TOKEN_PREFIX.session

function tokenOf(rowId: string): string {
  return PREFIX + createHmac('sha256', authSecret()).update(`modhub session credential v1:${rowId}`).digest('base64url')
}

/** The user's live session credential, minted only when none has enough time left. */
export async function sessionCredential(userId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const live = await db.accessToken.findFirst({
    where: { userId, kind: 'session', revokedAt: null, expiresAt: { gt: new Date(now.getTime() + REUSE_MIN_REMAINING_MS) } },
    orderBy: { expiresAt: 'desc' },
  })
  if (live?.expiresAt) return { token: tokenOf(live.id), expiresAt: live.expiresAt }
  // Expired ones are of no use to anyone: they go as a new one is made.
  await db.accessToken.deleteMany({ where: { userId, kind: 'session', expiresAt: { lte: now } } })
  const id = randomUUID()
  const token = tokenOf(id)
  const expiresAt = new Date(now.getTime() + SESSION_CREDENTIAL_SECONDS * 1000)
  await db.accessToken.create({
    data: {
      id,
      kind: 'session',
      userId,
      displayName: 'Browser session',
      role: 'scoped',
      scopes: writeList(SESSION_CREDENTIAL_SCOPES),
      tokenHash: sha256Hex(token),
      prefix: token.slice(0, PREFIX.length + 4),
      expiresAt,
    },
  })
  return { token, expiresAt }
}

/** Signing out ends the user's session credentials. */
export async function revokeSessionCredentials(userId: string): Promise<void> {
  await db.accessToken.updateMany({ where: { userId, kind: 'session', revokedAt: null }, data: { revokedAt: new Date() } })
}
