// The caps on what one owner may hold (personal tokens, OAuth apps, trusted publishers, organizations, collections) hold under
// a burst: each request counts under the owner's row lock, so requests that arrive together cannot
// all see the count below the cap and all create. Runs on SQLite and on PostgreSQL (npm test).
import { describe, expect, it, vi } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { createOrg } from '@/lib/hub/orgs'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { createApp } from '@/lib/oauth/clients/apps'
import { addPublisher } from '@/lib/hub/publishers'
import { createCollection } from '@/lib/hub/collections'
import { signUp } from '@/lib/hub/users'
import { HubError } from '@/lib/http/errors'

const BURST = 8

async function burst(create: (i: number) => Promise<unknown>) {
  const outcomes = await Promise.allSettled(Array.from({ length: BURST }, (_, i) => create(i)))
  const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')
  for (const o of refused) expect(String(o.reason)).toMatch(/at most/i)
  return outcomes.length - refused.length
}

const app = (name: string) => ({ name, redirectUris: ['https://app.example/callback'], scopes: ['openid'] })

describe('a burst of creations at the cap', () => {
  it('makes no more than 100 personal tokens', async () => {
    const user = await createUser({ username: 'cap-tokens', email: 'cap-tokens@test.dev', password: 'password-caps' })
    for (let i = 0; i < 97; i++) await createPersonalToken(user.id, { name: `t${i}`, role: 'read' })
    expect(await burst((i) => createPersonalToken(user.id, { name: `b${i}`, role: 'read' }))).toBe(3)
    expect(await db.accessToken.count({ where: { userId: user.id, kind: 'personal', revokedAt: null } })).toBe(100)
  })

  it('makes no more than 50 apps for a user or for an organization', async () => {
    const user = await createUser({ username: 'cap-apps', email: 'cap-apps@test.dev', password: 'password-caps' })
    const org = await createOrg(user.id, { name: 'cap-apps-org' })
    for (const owner of [{ kind: 'user', userId: user.id } as const, { kind: 'org', orgId: org.id } as const]) {
      for (let i = 0; i < 46; i++) await createApp(owner, app(`app ${i}`), i % 2 === 0)
      expect(await burst((i) => createApp(owner, app(`burst ${i}`), true))).toBe(4)
    }
    expect(await db.oAuthApp.count({ where: { ownerUserId: user.id } })).toBe(50)
    expect(await db.oAuthApp.count({ where: { ownerOrgId: org.id } })).toBe(50)
  })

  it('registers no more than 20 trusted publishers for an account', async () => {
    const user = await createUser({ username: 'cap-publishers', email: 'cap-publishers@test.dev', password: 'password-caps' })
    const caller = { userId: user.id, principal: null }
    const publisher = (i: string) => ({ issuer: 'https://token.actions.githubusercontent.com', claims: { repository: `octo/repo-${i}` } })
    for (let i = 0; i < 17; i++) await addPublisher(caller, { kind: 'user' }, publisher(String(i)))
    expect(await burst((i) => addPublisher(caller, { kind: 'user' }, publisher(`b${i}`)))).toBe(3)
    expect(await db.trustedPublisher.count({ where: { ownerUserId: user.id, repoId: null } })).toBe(20)
  })

  it('lets one user administer no more than 100 organizations', async () => {
    const user = await createUser({ username: 'cap-orgs', email: 'cap-orgs@test.dev', password: 'password-caps' })
    for (let i = 0; i < 97; i++) await createOrg(user.id, { name: `cap-orgs-${i}` })
    expect(await burst((i) => createOrg(user.id, { name: `cap-orgs-b${i}` }))).toBe(3)
    expect(await db.membership.count({ where: { userId: user.id, role: 'admin' } })).toBe(100)
  })

  it('keeps no more than 1000 collections for one owner', async () => {
    const user = await createUser({ username: 'cap-collections', email: 'cap-collections@test.dev', password: 'password-caps' })
    await db.collection.createMany({
      data: Array.from({ length: 996 }, (_, i) => ({ id: `capcol${String(i).padStart(17, '0')}`, slug: `cap-collections/c-${i}`, namespace: 'cap-collections', title: `c ${i}`, ownerUserId: user.id })),
    })
    expect(await burst((i) => createCollection({ userId: user.id, principal: null }, { namespace: 'cap-collections', title: `burst ${i}` }))).toBe(4)
    expect(await db.collection.count({ where: { namespace: 'cap-collections' } })).toBe(1000)
  })
})

describe('new accounts from one client address', () => {
  it('opens SIGN_UPS_PER_ADDRESS an hour; refused sign-ups do not count; another address is not held back', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 1000)
    vi.stubEnv('SIGN_UPS_PER_ADDRESS', '2')
    try {
      const account = (name: string) => ({ username: name, email: `${name}@test.dev`, password: 'password-signup' })
      await signUp(account('signup-a'), '198.51.100.77')
      // A name already taken is refused and costs nothing.
      await expect(signUp(account('signup-a'), '198.51.100.77')).rejects.toMatchObject({ status: 409 })
      await signUp(account('signup-b'), '198.51.100.77')
      const third = await signUp(account('signup-c'), '198.51.100.77').then(() => null, (e: unknown) => e)
      expect(third).toBeInstanceOf(HubError)
      expect(third).toMatchObject({ status: 429, message: expect.stringMatching(/^Too many new accounts from your network; try again in 60 minutes$/) })
      expect(await db.user.findUnique({ where: { username: 'signup-c' } })).toBeNull()
      await signUp(account('signup-c'), '198.51.100.78')
    } finally {
      vi.unstubAllEnvs()
      vi.useRealTimers()
    }
  })
})
