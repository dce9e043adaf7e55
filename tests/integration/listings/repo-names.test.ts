// No two repos of one type and owner have names that differ only in letter case, as on the Hub:
// "Alice/Toxicity-Tiny" is alice/toxicity-tiny. createRepo checks first; the database's unique
// index on (type, lower(namespace), lower(name)) refuses the second of two racing requests, which
// then gets the same 409 as a name that was taken before it asked. Both databases.
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { createRepo, findRepo } from '@/lib/hub/repos'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { POST as createPOST } from '@/app/api/repos/create/route'
import { GET as repoGET } from '@/app/api/[repoType]/[namespace]/[name]/[[...rest]]/route'

let session: { userId: string; principal: null }
let ownerId: string
let ownerWrite: string

beforeAll(async () => {
  const owner = await createUser({ username: 'rnowner', email: 'rnowner@test.dev', password: 'password-owner' })
  ownerId = owner.id
  session = { userId: owner.id, principal: null }
  ownerWrite = (await createPersonalToken(owner.id, { name: 'w', role: 'write' })).token
})

/** rnowner's repos named `name` in any letter case, read without the lookups under test. */
const rowsNamed = async (name: string) => (await db.repo.findMany({ where: { namespace: 'rnowner' }, orderBy: { type: 'asc' } })).filter((r) => r.name.toLowerCase() === name.toLowerCase())

describe('repo names that differ only in case', () => {
  it('are refused by the database itself, whoever writes the row', async () => {
    await createRepo(session, { namespace: 'rnowner', name: 'case-only' })
    const row = { type: 'model', namespace: 'rnowner', ownerUserId: ownerId, createdById: ownerId }
    await expect(db.repo.create({ data: { ...row, name: 'Case-Only' } })).rejects.toMatchObject({ code: 'P2002' })
    await expect(db.repo.create({ data: { ...row, namespace: 'RNOWNER', name: 'CASE-ONLY' } })).rejects.toMatchObject({ code: 'P2002' })
    // Another type, or another name, is another repo.
    await db.repo.create({ data: { ...row, type: 'dataset', name: 'Case-Only' } })
    await db.repo.create({ data: { ...row, name: 'case-only-2' } })
    expect((await rowsNamed('Case-Only')).map((r) => [r.type, r.name]).sort()).toEqual([['dataset', 'Case-Only'], ['model', 'case-only']])
  })

  it('created by a request that passed the check before the other committed: a 409 that names the repo that exists', async () => {
    // The other request creates "Raced-Name" between this one's check and its insert. (Replaced on
    // the model delegate by hand: vi.spyOn's restore leaves Prisma's delegate without `create`.)
    const delegate = db.repo as unknown as Record<string, unknown>
    const original = delegate.create
    const create = db.repo.create.bind(db.repo)
    let calls = 0
    delegate.create = async (args: Parameters<typeof create>[0]) => {
      if (calls++ === 0) await create({ data: { ...args.data, name: 'Raced-Name' } } as Parameters<typeof create>[0])
      return create(args)
    }
    try {
      await expect(createRepo(session, { namespace: 'rnowner', name: 'raced-name' })).rejects.toMatchObject({ status: 409, message: 'rnowner/Raced-Name exists already: repository names must differ in more than case' })
    } finally {
      delegate.create = original
    }
    expect(calls).toBe(1)
    expect((await rowsNamed('raced-name')).map((r) => r.name)).toEqual(['Raced-Name'])
  })

  it('racing each other for real: one repo, the other request a 409', async () => {
    for (let i = 0; i < 4; i++) {
      const names = [`Race-${i}`, `race-${i}`, `RACE-${i}`]
      const outcomes = await Promise.allSettled(names.map((name) => createRepo(session, { namespace: 'rnowner', name })))
      expect(outcomes.filter((o) => o.status === 'fulfilled'), JSON.stringify(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok')))).toHaveLength(1)
      for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ status: 409 })
      expect(await rowsNamed(`Race-${i}`)).toHaveLength(1)
    }
  })

  it('leave every spelling finding the one repo; the API answers 409 for another spelling', async () => {
    const res = await createPOST(
      new Request('http://hub.test/api/repos/create', { method: 'POST', headers: { authorization: `Bearer ${ownerWrite}`, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'model', name: 'CASE-only', organization: 'rnowner' }) }),
    )
    expect([res.status, (await res.json()).error]).toEqual([409, expect.stringMatching(/rnowner\/case-only exists already/)])
    for (const spelling of ['case-only', 'Case-Only', 'CASE-ONLY']) {
      expect((await findRepo('model', 'RnOwner', spelling))?.name, spelling).toBe('case-only')
      const info = await repoGET(new Request(`http://hub.test/api/models/rnowner/${spelling}`, { headers: { authorization: `Bearer ${ownerWrite}` } }), {
        params: Promise.resolve({ repoType: 'models', namespace: 'rnowner', name: spelling }),
      })
      expect([spelling, info.status]).toEqual([spelling, 200])
    }
  })
})
