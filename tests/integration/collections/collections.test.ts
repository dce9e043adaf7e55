// Collections through the route handlers @huggingface/hub calls, against a real database: slugs as
// the Hub makes them, adding and removing items, and who may do what.
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg } from '@/lib/hub/orgs'
import { createRepo } from '@/lib/hub/repos'
import { createCollection, mayCreateCollection } from '@/lib/hub/collections'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { POST as collectionsPOST } from '@/app/api/collections/route'
import { GET as collectionGET } from '@/app/api/collections/[namespace]/[slug]/route'
import { POST as itemsPOST } from '@/app/api/collections/[namespace]/[slug]/items/route'
import { DELETE as itemDELETE } from '@/app/api/collections/[namespace]/[slug]/items/[itemId]/route'

const BASE = 'http://hub.test'
let owner: { id: string }
let ownerWrite: string
let outsiderWrite: string
let orgReaderWrite: string
let orgReader: { id: string }
let org: { id: string }

function call<P>(handler: (r: Request, c: { params: Promise<P> }) => Promise<Response>, params: P, init: { method?: string; token?: string; body?: unknown } = {}) {
  const headers = new Headers({ 'content-type': 'application/json' })
  if (init.token) headers.set('authorization', `Bearer ${init.token}`)
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
  return handler(new Request(`${BASE}/api/collections`, { method: init.method ?? 'GET', headers, body }), { params: Promise.resolve(params) })
}

const split = (slug: string) => ({ namespace: slug.split('/')[0]!, slug: slug.split('/')[1]! })

async function create(title: string, token = ownerWrite, namespace = 'colowner') {
  const res = await collectionsPOST(new Request(`${BASE}/api/collections`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ title, namespace }) }))
  return { res, body: (await res.json()) as { slug: string; error?: string } }
}

beforeAll(async () => {
  const u = await createUser({ username: 'colowner', email: 'colowner@test.dev', password: 'password-owner' })
  const outsider = await createUser({ username: 'coloutsider', email: 'coloutsider@test.dev', password: 'password-outsider' })
  orgReader = await createUser({ username: 'colreader', email: 'colreader@test.dev', password: 'password-reader' })
  owner = u
  org = await createOrg(u.id, { name: 'colorg' })
  await addMember(org.id, 'colreader', 'read')
  ownerWrite = (await createPersonalToken(u.id, { name: 'w', role: 'write' })).token
  outsiderWrite = (await createPersonalToken(outsider.id, { name: 'w', role: 'write' })).token
  orgReaderWrite = (await createPersonalToken(orgReader.id, { name: 'w', role: 'write' })).token
  const session = { userId: u.id, principal: null }
  await createRepo(session, { type: 'model', namespace: 'colowner', name: 'tiny' })
  await createRepo(session, { type: 'dataset', namespace: 'colowner', name: 'corpus' })
  await createRepo(session, { type: 'model', namespace: 'colowner', name: 'secret', private: true })
})

describe('slugs', () => {
  it('keep the whole slugified title, then one dash and the 24-hex id, as on the Hub', async () => {
    // Slugified, its 40th character is a dash: cutting there used to leave "...these--{id}".
    const title = 'Moderation models we trust: all of these - the best ones'
    const { res, body } = await create(title)
    expect(res.status).toBe(200)
    expect(body.slug).toMatch(/^colowner\/moderation-models-we-trust-all-of-these-the-best-ones-[0-9a-f]{24}$/)
    expect(body.slug).not.toContain('--')
    const id = body.slug.slice(-24)
    expect((await db.collection.findUniqueOrThrow({ where: { slug: body.slug } })).id).toBe(id)
    // The id is what is looked up: an out-of-date title part still finds the collection.
    const renamed = await call(collectionGET, { namespace: 'colowner', slug: `old-title-${id}` }, { token: ownerWrite })
    expect([renamed.status, (await renamed.json()).slug]).toEqual([200, body.slug])
    // But not in another namespace.
    expect((await call(collectionGET, { namespace: 'coloutsider', slug: `x-${id}` }, { token: ownerWrite })).status).toBe(404)
  })

  it('still resolve for collections made before slugs ended with their id', async () => {
    const legacy = await db.collection.create({ data: { namespace: 'colowner', ownerUserId: owner.id, title: 'Legacy', slug: 'colowner/legacy-0123456789abcdef01234567' } })
    const res = await call(collectionGET, split(legacy.slug), { token: ownerWrite })
    expect([res.status, (await res.json()).title]).toEqual([200, 'Legacy'])
  })
})

describe('items (addCollectionItem, deleteCollectionItem)', () => {
  it('adds repos with a note, lists them with _id, and removes them by _id', async () => {
    const { body } = await create('Items')
    const params = split(body.slug)
    const added = await call(itemsPOST, params, { method: 'POST', token: ownerWrite, body: { item: { type: 'model', id: 'colowner/tiny' }, note: 'small and fast' } })
    expect(added.status).toBe(200)
    await call(itemsPOST, params, { method: 'POST', token: ownerWrite, body: { item: { type: 'dataset', id: 'colowner/corpus' } } })
    const info = await (await call(collectionGET, params, { token: ownerWrite })).json()
    expect(info.items.map((i: { type: string; id: string; note?: { text: string } }) => [i.type, i.id, i.note?.text])).toEqual([
      ['model', 'colowner/tiny', 'small and fast'],
      ['dataset', 'colowner/corpus', undefined],
    ])
    const removed = await call(itemDELETE, { ...params, itemId: info.items[0]._id }, { method: 'DELETE', token: ownerWrite })
    expect(removed.status).toBe(200)
    const after = await (await call(collectionGET, params, { token: ownerWrite })).json()
    expect(after.items.map((i: { id: string }) => i.id)).toEqual(['colowner/corpus'])
    // Removing it again: not found, nothing else changes.
    expect((await call(itemDELETE, { ...params, itemId: info.items[0]._id }, { method: 'DELETE', token: ownerWrite })).status).toBe(404)
  })

  it('finds the repo in any letter case, as the listing\'s item filter does: one item, under its own name', async () => {
    const { body } = await create('Any case')
    const params = split(body.slug)
    for (const id of ['COLOWNER/Tiny', 'colowner/TINY', 'colowner/tiny']) {
      const res = await call(itemsPOST, params, { method: 'POST', token: ownerWrite, body: { item: { type: 'model', id } } })
      expect([id, res.status]).toEqual([id, 200])
    }
    const info = await (await call(collectionGET, params, { token: ownerWrite })).json()
    expect(info.items.map((i: { type: string; id: string }) => [i.type, i.id])).toEqual([['model', 'colowner/tiny']])
    // Another user's private repo stays unknown in every spelling.
    const theirs = await create('Theirs in any case', outsiderWrite, 'coloutsider')
    const res = await call(itemsPOST, split(theirs.body.slug), { method: 'POST', token: outsiderWrite, body: { item: { type: 'model', id: 'ColOwner/Secret' } } })
    expect([res.status, (await res.json()).error]).toEqual([404, 'No model named "ColOwner/Secret"'])
  })

  it('numbers items among those the reader sees: hidden private repos leave no gap', async () => {
    const { body } = await create('Mixed')
    const params = split(body.slug)
    for (const id of ['colowner/secret', 'colowner/tiny']) await call(itemsPOST, params, { method: 'POST', token: ownerWrite, body: { item: { type: 'model', id } } })
    const mine = await (await call(collectionGET, params, { token: ownerWrite })).json()
    expect(mine.items.map((i: { id: string; position: number }) => [i.id, i.position])).toEqual([['colowner/secret', 0], ['colowner/tiny', 1]])
    const theirs = await (await call(collectionGET, params)).json()
    expect(theirs.items.map((i: { id: string; position: number }) => [i.id, i.position])).toEqual([['colowner/tiny', 0]])
  })

  it('refuses bad items with a clear 4xx and changes nothing', async () => {
    const { body } = await create('Refusals')
    const params = split(body.slug)
    const cases: [unknown, number, RegExp][] = [
      [{ item: { type: 'paper', id: '2401.00001' } }, 400, /not supported/],
      [{ item: { type: 'collection', id: '0123456789abcdef01234567' } }, 400, /not supported/],
      [{ item: { type: 'tool', id: 'colowner/tiny' } }, 400, /item\.type/],
      [{ item: { type: 'model' } }, 400, /item\.id/],
      [{}, 400, /item/],
      ['{"item": ', 400, /JSON/],
      [{ item: { type: 'model', id: 'colowner/nope' } }, 404, /No model named/],
      [{ item: { type: 'dataset', id: 'colowner/tiny' } }, 404, /No dataset named/],
      [{ item: { type: 'model', id: 'colowner/tiny/extra' } }, 404, /No model named/],
      [{ item: { type: 'model', id: 'colowner/tiny' }, note: 'x'.repeat(501) }, 400, /note/],
    ]
    for (const [payload, status, message] of cases) {
      const res = await call(itemsPOST, params, { method: 'POST', token: ownerWrite, body: payload })
      expect([JSON.stringify(payload).slice(0, 60), res.status]).toEqual([JSON.stringify(payload).slice(0, 60), status])
      expect((await res.json()).error).toMatch(message)
    }
    expect((await (await call(collectionGET, params, { token: ownerWrite })).json()).items).toEqual([])
  })

  it('lets only those who may write the collection change its items', async () => {
    const { body } = await create('Guarded')
    const params = split(body.slug)
    await call(itemsPOST, params, { method: 'POST', token: ownerWrite, body: { item: { type: 'model', id: 'colowner/tiny' } } })
    const [item] = (await (await call(collectionGET, params, { token: ownerWrite })).json()).items
    expect((await call(itemsPOST, params, { method: 'POST', token: outsiderWrite, body: { item: { type: 'model', id: 'colowner/tiny' } } })).status).toBe(403)
    expect((await call(itemsPOST, params, { method: 'POST', body: { item: { type: 'model', id: 'colowner/tiny' } } })).status).toBe(401)
    expect((await call(itemDELETE, { ...params, itemId: item._id }, { method: 'DELETE', token: outsiderWrite })).status).toBe(403)
    // Another user's private repo cannot be added (it does not exist for them).
    const theirs = await create('Theirs', outsiderWrite, 'coloutsider')
    const res = await call(itemsPOST, split(theirs.body.slug), { method: 'POST', token: outsiderWrite, body: { item: { type: 'model', id: 'colowner/secret' } } })
    expect(res.status).toBe(404)
  })
})

describe('who may create a collection', () => {
  it('is decided by lib/policy: the user and org writers, not org readers', async () => {
    const orgOwner = { kind: 'org' as const, id: org.id }
    expect(mayCreateCollection({ userId: owner.id, principal: null }, orgOwner, 'admin')).toBe(true)
    expect(mayCreateCollection({ userId: orgReader.id, principal: null }, orgOwner, 'read')).toBe(false)
    expect(mayCreateCollection({ userId: orgReader.id, principal: null }, { kind: 'user', id: orgReader.id }, null)).toBe(true)
    expect(mayCreateCollection(null, { kind: 'user', id: orgReader.id }, null)).toBe(false)
    await expect(createCollection({ userId: orgReader.id, principal: null }, { namespace: 'colorg', title: 'Nope' })).rejects.toMatchObject({ status: 403 })
    expect((await create('Nope', orgReaderWrite, 'colorg')).res.status).toBe(403)
  })
})
