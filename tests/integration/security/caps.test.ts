// The caps on what one owner may hold (personal tokens, OAuth apps, trusted publishers) hold under
// a burst: each request counts under the owner's row lock, so requests that arrive together cannot
// all see the count below the cap and all create. Runs on SQLite and on PostgreSQL (npm test).
import { describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { createOrg } from '@/lib/hub/orgs'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { createApp } from '@/lib/oauth/clients/apps'
import { addPublisher } from '@/lib/hub/publishers'

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
})
