// GET /api/collections and collection notes against a real database, through the unmodified
// @huggingface/hub (its fetch goes to the route handlers): listing without an owner, q, item, sort,
// limit and pages, the items each collection shows (only those the caller may see), and notes
// with their HTML that adding the item again does not wipe.
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createCollection, listCollections } from '@huggingface/hub'
import type { addCollectionItem as AddItem } from '../../../node_modules/@huggingface/hub/dist/src/lib/add-collection-item'
import type { collectionInfo as CollectionInfo } from '../../../node_modules/@huggingface/hub/dist/src/lib/collection-info'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg } from '@/lib/hub/orgs'
import { createRepo } from '@/lib/hub/repos'
import { addToCollection, noteHtml, removeFromCollection } from '@/lib/hub/collections'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { GET as collectionsGET } from '@/app/api/collections/route'
import { collect, hubFetch, nextLink } from './hub-fetch'

const hubUrl = 'http://hub.test'
const client = { hubUrl, fetch: hubFetch }
let ownerWrite: string
let memberRead: string
let outsiderWrite: string
let owner: { id: string }

/** @huggingface/hub ships these in its sources but leaves them out of its bundle: load the unmodified sources. */
async function hubSource<T>(file: string, name: string): Promise<T> {
  return ((await import(/* @vite-ignore */ path.resolve('node_modules/@huggingface/hub/src/lib', file))) as Record<string, T>)[name]!
}
const addCollectionItem = (params: Parameters<typeof AddItem>[0]) => hubSource<typeof AddItem>('add-collection-item.ts', 'addCollectionItem').then((add) => add(params))
const collectionInfo = (params: Parameters<typeof CollectionInfo>[0]) => hubSource<typeof CollectionInfo>('collection-info.ts', 'collectionInfo').then((info) => info(params))

function get(query: string, token?: string) {
  return collectionsGET(new Request(`${hubUrl}/api/collections?${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }))
}

async function slugs(query: string, token?: string): Promise<string[]> {
  const res = await get(query, token)
  expect(res.status, query).toBe(200)
  return ((await res.json()) as { slug: string }[]).map((c) => c.slug)
}

const made: Record<string, string> = {}
async function make(title: string, namespace = 'clsowner', options: { private?: boolean; description?: string; token?: string } = {}) {
  const { slug } = await createCollection({ ...client, accessToken: options.token ?? ownerWrite, collection: { title, namespace, private: options.private, description: options.description } })
  made[title] = slug
  return slug
}

beforeAll(async () => {
  owner = await createUser({ username: 'clsowner', email: 'clsowner@test.dev', password: 'password-owner' })
  const member = await createUser({ username: 'clsmember', email: 'clsmember@test.dev', password: 'password-member' })
  const outsider = await createUser({ username: 'clsoutsider', email: 'clsoutsider@test.dev', password: 'password-outsider' })
  const org = await createOrg(owner.id, { name: 'clsorg' })
  await addMember(org.id, 'clsmember', 'read')
  ownerWrite = (await createPersonalToken(owner.id, { name: 'w', role: 'write' })).token
  memberRead = (await createPersonalToken(member.id, { name: 'r', role: 'read' })).token
  outsiderWrite = (await createPersonalToken(outsider.id, { name: 'w', role: 'write' })).token
  const session = { userId: owner.id, principal: null }
  for (const name of ['one', 'two', 'three', 'four', 'five']) await createRepo(session, { namespace: 'clsowner', name })
  await createRepo(session, { namespace: 'clsowner', name: 'secret', private: true })
  await createRepo(session, { type: 'dataset', namespace: 'clsowner', name: 'corpus' })

  await make('Cls public picks', 'clsowner', { description: 'models for moderation' })
  await make('Cls private picks', 'clsowner', { private: true })
  await make('Cls org internal', 'clsorg', { private: true })
  await make('Cls outsider list', 'clsoutsider', { token: outsiderWrite })
  for (const id of ['clsowner/secret', 'clsowner/one', 'clsowner/two', 'clsowner/three', 'clsowner/four', 'clsowner/five']) {
    await addToCollection(session, made['Cls public picks']!, { item: { type: 'model', id } })
  }
  await addToCollection(session, made['Cls public picks']!, { item: { type: 'dataset', id: 'clsowner/corpus' } })
  await addToCollection(session, made['Cls private picks']!, { item: { type: 'model', id: 'clsowner/one' } })
  await addToCollection({ userId: outsider.id, principal: null }, made['Cls outsider list']!, { item: { type: 'model', id: 'clsowner/two' } })
})

describe('listing collections', () => {
  it('works without an owner: everyone\'s public ones, and the private ones the caller may read', async () => {
    const anonymous = (await collect(listCollections(client))).map((c) => c.slug)
    expect(anonymous).toEqual(expect.arrayContaining([made['Cls public picks'], made['Cls outsider list']]))
    expect(anonymous).not.toContain(made['Cls private picks'])
    expect(anonymous).not.toContain(made['Cls org internal'])
    const mine = (await collect(listCollections({ ...client, accessToken: ownerWrite }))).map((c) => c.slug)
    expect(mine).toEqual(expect.arrayContaining([made['Cls private picks'], made['Cls org internal'], made['Cls outsider list']]))
    const member = (await collect(listCollections({ ...client, accessToken: memberRead }))).map((c) => c.slug)
    expect(member).toContain(made['Cls org internal'])
    expect(member).not.toContain(made['Cls private picks'])
  })

  it('filters by owner, by q in the title or description, and by items (every one required)', async () => {
    const search = async (s: NonNullable<Parameters<typeof listCollections>[0]>['search'], accessToken?: string) => (await collect(listCollections({ ...client, accessToken, search: s }))).map((c) => c.slug).sort()
    expect(await search({ owner: ['clsoutsider'] })).toEqual([made['Cls outsider list']])
    expect(await search({ q: 'Cls pub' })).toEqual([made['Cls public picks']])
    expect(await search({ q: 'for moderation' })).toEqual([made['Cls public picks']])
    expect(await search({ item: ['models/clsowner/two'] })).toEqual([made['Cls public picks'], made['Cls outsider list']].sort())
    expect(await search({ item: ['models/clsowner/two', 'datasets/clsowner/corpus'] })).toEqual([made['Cls public picks']])
    expect(await search({ item: ['models/clsowner/one'] }, ownerWrite)).toEqual([made['Cls public picks'], made['Cls private picks']].sort())
    expect(await search({ item: ['models/clsowner/one'], owner: ['clsowner'], q: 'private' }, ownerWrite)).toEqual([made['Cls private picks']])
    expect(await search({ item: ['datasets/clsowner/two'] })).toEqual([])
    expect(await search({ item: ['papers/2401.00001'] })).toEqual([])
    // A private repo is not revealed by the collections that hold it.
    expect(await search({ item: ['models/clsowner/secret'] })).toEqual([])
    expect(await search({ item: ['models/clsowner/secret'] }, ownerWrite)).toEqual([made['Cls public picks']])
    const bad = await get('item=clsowner/two')
    expect([bad.status, (await bad.json()).error]).toEqual([400, expect.stringMatching(/Invalid item/)])
  })

  it('shows each collection with its first four items the caller may see, in the shape the clients read', async () => {
    const [anonymous] = await collect(listCollections({ ...client, search: { q: 'Cls public' } }))
    expect(anonymous!.items.map((i) => [i.position, i.type, i.id])).toEqual([
      [0, 'model', 'clsowner/one'],
      [1, 'model', 'clsowner/two'],
      [2, 'model', 'clsowner/three'],
      [3, 'model', 'clsowner/four'],
    ])
    expect(anonymous).toMatchObject({ title: 'Cls public picks', description: 'models for moderation', private: false, owner: { name: 'clsowner', type: 'user' }, theme: expect.any(String), upvotes: 0, isUpvotedByUser: false, gating: false, position: 0 })
    expect(Date.parse(anonymous!.lastUpdated)).not.toBeNaN()
    expect(anonymous!.items[0]).toMatchObject({ _id: expect.any(String), author: 'clsowner', repoType: 'model', private: false, gated: false, likes: 0, downloads: 0 })
    const [theirs] = await collect(listCollections({ ...client, accessToken: ownerWrite, search: { q: 'Cls public' } }))
    expect(theirs!.items.map((i) => i.id)).toEqual(['clsowner/secret', 'clsowner/one', 'clsowner/two', 'clsowner/three'])
  })

  it('takes the Hub\'s sorts and a limit, pages with a Link header, and refuses other sorts', async () => {
    for (const sort of ['lastModified', 'trending', 'upvotes'] as const) {
      expect((await collect(listCollections({ ...client, sort, search: { owner: ['clsowner', 'clsoutsider'] } }))).length, sort).toBe(2)
    }
    const bad = await get('sort=stars')
    expect([bad.status, (await bad.json()).error]).toEqual([400, expect.stringMatching(/Invalid sort "stars"/)])
    expect((await collect(listCollections({ ...client, accessToken: ownerWrite, limit: 2 }))).length).toBe(2)
    // One a page, every one once.
    const seen: string[] = []
    let res = await get('owner=clsowner&owner=clsorg&limit=1', ownerWrite)
    for (;;) {
      seen.push(...((await res.json()) as { slug: string }[]).map((c) => c.slug))
      const next = nextLink(res)
      if (!next) break
      expect(next).toMatch(/^http:\/\/hub\.test\/api\/collections\?owner=clsowner&owner=clsorg&limit=1&cursor=/)
      res = await collectionsGET(new Request(next, { headers: { authorization: `Bearer ${ownerWrite}` } }))
    }
    expect(seen.sort()).toEqual([made['Cls public picks'], made['Cls private picks'], made['Cls org internal']].sort())
    const cursor = await get('cursor=nonsense')
    expect([cursor.status, (await cursor.json()).error]).toEqual([400, expect.stringMatching(/Invalid cursor/)])
    for (const limit of ['x', '-1', '0', '2.5']) {
      const refused = await get(`limit=${limit}`)
      expect([refused.status, (await refused.json()).error], limit).toEqual([400, expect.stringMatching(/^Invalid limit /)])
    }
    expect((await get('limit=100000')).status).toBe(200)
  })
})

describe('lastModified', () => {
  it('is when the collection or its items last changed: the most recently changed come first', async () => {
    const mine = () => slugs('owner=clsowner&owner=clsorg&sort=lastModified', ownerWrite)
    await addToCollection({ userId: owner.id, principal: null }, made['Cls org internal']!, { item: { type: 'model', id: 'clsowner/three' } })
    expect((await mine())[0]).toBe(made['Cls org internal'])
    await addToCollection({ userId: owner.id, principal: null }, made['Cls private picks']!, { item: { type: 'model', id: 'clsowner/one' }, note: 'now with a note' })
    expect((await mine())[0]).toBe(made['Cls private picks'])
    const [item] = (await collectionInfo({ ...client, accessToken: ownerWrite, slug: made['Cls org internal']! })).items
    await removeFromCollection({ userId: owner.id, principal: null }, made['Cls org internal']!, item!._id)
    expect((await mine())[0]).toBe(made['Cls org internal'])
  })
})

describe('notes (addCollectionItem)', () => {
  it('answer their text and HTML, and adding the item again without a note keeps it', async () => {
    const slug = await make('Cls noted')
    const add = (note?: string) => addCollectionItem({ ...client, accessToken: ownerWrite, slug, item: { type: 'model', id: 'clsowner/one' }, note })
    await add('a <b>note</b> & more')
    await addCollectionItem({ ...client, accessToken: ownerWrite, slug, item: { type: 'model', id: 'clsowner/two' } })
    const notes = async () => (await collectionInfo({ ...client, accessToken: ownerWrite, slug })).items.map((i) => [i.id, i.position, i.note])
    expect(await notes()).toEqual([
      ['clsowner/one', 0, { text: 'a <b>note</b> & more', html: '<p>a &lt;b&gt;note&lt;/b&gt; &amp; more</p>' }],
      ['clsowner/two', 1, undefined],
    ])
    await add()
    await add('')
    expect((await notes())[0]).toEqual(['clsowner/one', 0, { text: 'a <b>note</b> & more', html: '<p>a &lt;b&gt;note&lt;/b&gt; &amp; more</p>' }])
    await add('a new note')
    expect(await notes()).toEqual([
      ['clsowner/one', 0, { text: 'a new note', html: '<p>a new note</p>' }],
      ['clsowner/two', 1, undefined],
    ])
    expect(await db.collectionItem.count({ where: { collection: { slug } } })).toBe(2)
  })

  it('render paragraphs as escaped text', () => {
    expect(noteHtml('first line\nsame paragraph\n\n<script>x</script>\n\n\n')).toBe('<p>first line\nsame paragraph</p>\n<p>&lt;script&gt;x&lt;/script&gt;</p>')
  })
})

describe('creating a collection', () => {
  it('answers the whole collection, as huggingface_hub reads it', async () => {
    const res = await hubFetch(`${hubUrl}/api/collections`, { method: 'POST', headers: { authorization: `Bearer ${ownerWrite}`, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Cls created', namespace: 'clsowner' }) })
    expect(await res.json()).toMatchObject({ slug: expect.stringMatching(/^clsowner\/cls-created-[0-9a-f]{24}$/), title: 'Cls created', private: false, items: [], owner: { name: 'clsowner' }, lastUpdated: expect.any(String), position: 0, theme: expect.any(String), upvotes: 0 })
  })
})
