// Personal access tokens: an expiry that bearer authentication enforces, scopes only on
// fine-grained tokens, and the role as people read it.
import { beforeAll, describe, expect, it } from 'vitest'
import { db, readList } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { createPersonalToken, listPersonalTokens } from '@/lib/auth/personal-tokens'
import { principalFromToken } from '@/lib/auth/tokens'
import { GET as whoamiRoute } from '@/app/api/whoami-v2/route'

let userId: string
const DAY = 86_400_000

beforeAll(async () => {
  userId = (await createUser({ username: 'tokenexpiry', email: 'tokenexpiry@test.dev', password: 'password-expiry' })).id
})

const whoami = (token: string) => whoamiRoute(new Request('http://hub.test/api/whoami-v2', { headers: { authorization: `Bearer ${token}` } }))

describe('token expiry', () => {
  it('a token made to last 7 days expires then, and is refused from that moment', async () => {
    const now = new Date()
    const { token, id } = await createPersonalToken(userId, { name: 'week', role: 'read', expiresInDays: 7 }, now)
    const row = await db.accessToken.findUniqueOrThrow({ where: { id } })
    expect(row.expiresAt!.getTime()).toBe(now.getTime() + 7 * DAY)
    expect((await whoami(token)).status).toBe(200)
    await db.accessToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    expect(await principalFromToken(token)).toBeNull()
    expect((await whoami(token)).status).toBe(401)
  })

  it('"never" means no expiry; other lifetimes are refused with a clear message', async () => {
    const { id } = await createPersonalToken(userId, { name: 'forever', role: 'read', expiresInDays: null })
    expect((await db.accessToken.findUniqueOrThrow({ where: { id } })).expiresAt).toBeNull()
    const before = await db.accessToken.count({ where: { userId } })
    await expect(createPersonalToken(userId, { name: 'odd', role: 'read', expiresInDays: 12 })).rejects.toThrow(/must be one of 7, 30, 90 days, or never/)
    expect(await db.accessToken.count({ where: { userId } })).toBe(before)
  })

  it('the settings list shows when each token expires', async () => {
    const listed = await listPersonalTokens(userId)
    expect(listed.find((t) => t.displayName === 'week')?.expiresAt).toBeInstanceOf(Date)
    expect(listed.find((t) => t.displayName === 'forever')?.expiresAt).toBeNull()
  })
})

describe('scopes', () => {
  it('read and write tokens never store scopes sent with them', async () => {
    for (const role of ['read', 'write'] as const) {
      const { id, token } = await createPersonalToken(userId, { name: `${role}-with-scopes`, role, scopes: ['write:users', 'manage-repos'] })
      expect(readList((await db.accessToken.findUniqueOrThrow({ where: { id } })).scopes)).toEqual([])
      expect((await principalFromToken(token))?.scopes).toEqual([])
    }
  })

  it('fine-grained tokens keep exactly their scopes', async () => {
    const { token } = await createPersonalToken(userId, { name: 'fg', role: 'fineGrained', scopes: ['write:users'] })
    expect((await principalFromToken(token))?.scopes).toEqual(['write:users'])
  })
})
