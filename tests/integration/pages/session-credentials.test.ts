// The session credential that the docs page ("Use my account") and the playground's server mode
// use: one live credential per user, handed out again instead of minting a token per page load,
// never listed among the user's access tokens, accepted by the moderation API, refused once
// expired or after sign-out.
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { listPersonalTokens } from '@/lib/auth/personal-tokens'
import { principalFromToken } from '@/lib/auth/tokens'
import { revokeSessionCredentials, sessionCredential, SESSION_CREDENTIAL_SECONDS } from '@/lib/auth/session-credentials'
import { sha256Hex } from '@/lib/auth/secrets'
import { whoami } from '@/lib/hub/identity'

let userId: string

beforeAll(async () => {
  userId = (await createUser({ username: 'sessioncred', email: 'sessioncred@test.dev', password: 'password-session' })).id
})

async function moderate(token: string) {
  const route = await import('@/app/rai/v1/raimoderationmodels/[check]/route')
  const request = new Request('http://hub.test/rai/v1/raimoderationmodels/sentimentmodel', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ text: 'The book was good.' }),
  })
  return route.POST(request, { params: Promise.resolve({ check: 'sentimentmodel' }) })
}

describe('session credentials', () => {
  it('two page loads get the same credential: one row, no access token', async () => {
    const tokensBefore = await listPersonalTokens(userId)
    const first = await sessionCredential(userId)
    const second = await sessionCredential(userId)
    expect(second.token).toBe(first.token)
    expect(first.token).toMatch(/^hf_session_/)
    expect(await db.accessToken.count({ where: { userId } })).toBe(1)
    expect(await listPersonalTokens(userId)).toEqual(tokensBefore)
    // Only its hash is stored.
    const row = await db.accessToken.findFirstOrThrow({ where: { userId, kind: 'session' } })
    expect(row.tokenHash).toBe(sha256Hex(first.token))
    expect(JSON.stringify(row)).not.toContain(first.token)
    expect(first.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(SESSION_CREDENTIAL_SECONDS * 1000 + 1000)
  })

  it('carries only the moderation scope, and the moderation API accepts it', async () => {
    const { token } = await sessionCredential(userId)
    const principal = await principalFromToken(token)
    expect(principal).toMatchObject({ userId, tokenKind: 'session', role: null, scopes: ['write:users'], orgIds: [] })
    expect((await whoami(userId, principal)).auth).toMatchObject({ type: 'session_credential', scope: 'write:users' })
    const response = await moderate(token)
    expect(response.status).toBe(200)
  })

  it('close to its expiry a new one is minted; an expired one is refused', async () => {
    const { token: old } = await sessionCredential(userId)
    const later = new Date(Date.now() + (SESSION_CREDENTIAL_SECONDS - 5 * 60) * 1000)
    const { token: fresh } = await sessionCredential(userId, later)
    expect(fresh).not.toBe(old)
    // The old one lives until its own expiry ...
    expect(await principalFromToken(old)).not.toBeNull()
    // ... and not a moment after.
    await db.accessToken.update({ where: { tokenHash: sha256Hex(old) }, data: { expiresAt: new Date(Date.now() - 1000) } })
    expect(await principalFromToken(old)).toBeNull()
    expect((await moderate(old)).status).toBe(401)
    // Expired credentials are cleared away when the next one is made.
    await db.accessToken.update({ where: { tokenHash: sha256Hex(fresh) }, data: { expiresAt: new Date(Date.now() - 1000) } })
    await sessionCredential(userId)
    expect(await db.accessToken.count({ where: { userId, kind: 'session' } })).toBe(1)
    expect(await listPersonalTokens(userId)).toEqual([])
  })

  it('signing out revokes it', async () => {
    const { token } = await sessionCredential(userId)
    await revokeSessionCredentials(userId)
    expect(await principalFromToken(token)).toBeNull()
    expect((await moderate(token)).status).toBe(401)
    const { token: next } = await sessionCredential(userId)
    expect(next).not.toBe(token)
    expect(await principalFromToken(next)).not.toBeNull()
  })

  it('reaches no private repository and creates nothing', async () => {
    const { repoDecision, createRepoDecision } = await import('@/lib/policy')
    const principal = (await principalFromToken((await sessionCredential(userId)).token))!
    const caller = { userId, principal }
    const ownPrivate = { private: true, gated: false, ownerUserId: userId, ownerOrgId: null, createdById: userId, createdByApp: null }
    expect(repoDecision(caller, 'view', ownPrivate, { orgRole: null, gatedAccepted: false })).toBe('not-found')
    expect(createRepoDecision(caller, { kind: 'user', userId })).toBe('forbidden')
  })
})
