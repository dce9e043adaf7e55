// Bearer-token authentication on the hot path: one statement per request, nothing written while
// the request is answered, revocation and expiry effective at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { flushTokenUses, issueToken, principalFromToken, revokeToken } from '@/lib/auth/tokens'

let userId: string
beforeAll(async () => {
  userId = (await createUser({ username: 'hotbearer', email: 'hotbearer@test.dev', password: 'hot-bearer-pass' })).id
})
afterAll(() => flushTokenUses())

const lastUsed = async (id: string) => (await db.accessToken.findUniqueOrThrow({ where: { id } })).lastUsedAt

describe('principalFromToken', () => {
  it('answers the same principal as the stored row says, for every field', async () => {
    const expiresAt = new Date(Date.now() + 3600_000)
    const { token, id } = await issueToken({ kind: 'oauth', userId, displayName: 'App', role: 'scoped', scopes: ['openid', 'read-repos'], orgIds: ['o1'], expiresAt })
    const row = await db.accessToken.findUniqueOrThrow({ where: { id }, include: { user: true } })
    expect(await principalFromToken(token)).toEqual({
      userId,
      username: 'hotbearer',
      tokenId: id,
      tokenKind: 'oauth',
      displayName: 'App',
      role: null,
      scopes: ['openid', 'read-repos'],
      orgIds: ['o1'],
      appId: null,
      repoId: null,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
    })
    const personal = await issueToken({ kind: 'personal', userId, displayName: 'cli', role: 'write' })
    expect(await principalFromToken(personal.token)).toMatchObject({ tokenKind: 'personal', role: 'write', expiresAt: null, username: 'hotbearer' })
  })

  it('writes the last-used time behind the request, once a minute at most', async () => {
    const { token, id } = await issueToken({ kind: 'personal', userId, role: 'read' })
    const before = Date.now()
    expect(await principalFromToken(token)).not.toBeNull()
    expect(await lastUsed(id)).toBeNull() // nothing written on the request path
    await flushTokenUses()
    const written = await lastUsed(id)
    expect(written!.getTime()).toBeGreaterThanOrEqual(before - 1)
    expect(written!.getTime()).toBeLessThanOrEqual(Date.now())
    // Used again within the minute: nothing new to write.
    expect(await principalFromToken(token)).not.toBeNull()
    await flushTokenUses()
    expect(await lastUsed(id)).toEqual(written)
  })

  it('refuses a revoked or expired token at once, with its use still unwritten', async () => {
    const { token, id } = await issueToken({ kind: 'personal', userId, role: 'read' })
    expect(await principalFromToken(token)).not.toBeNull()
    expect(await revokeToken(userId, id)).toBe(true)
    expect(await principalFromToken(token)).toBeNull()
    const expired = await issueToken({ kind: 'oauth', userId, role: 'scoped', expiresAt: new Date(Date.now() - 1000) })
    expect(await principalFromToken(expired.token)).toBeNull()
    expect(await principalFromToken('hf_unknown')).toBeNull()
    expect(await principalFromToken('not-a-token')).toBeNull()
  })
})
