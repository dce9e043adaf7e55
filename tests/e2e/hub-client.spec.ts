// @huggingface/hub, unmodified, against the running hub with a personal token.
import { expect, test } from '@playwright/test'
import { createCollection, createRepo, deleteCollection, deleteRepo, datasetInfo, listCollections, modelInfo, whoAmI } from '@huggingface/hub'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { tsImport } from 'tsx/esm/api'
import type { addCollectionItem as AddItem } from '../../node_modules/@huggingface/hub/dist/src/lib/add-collection-item'
import type { deleteCollectionItem as DeleteItem } from '../../node_modules/@huggingface/hub/dist/src/lib/delete-collection-item'
import type { collectionInfo as CollectionInfo } from '../../node_modules/@huggingface/hub/dist/src/lib/collection-info'
import { DEMO, createToken, signIn } from './helpers'

/** @huggingface/hub ships these in its sources but leaves them out of its bundle: load the unmodified sources. */
async function hubSource<T>(file: string, name: string): Promise<T> {
  const url = pathToFileURL(path.resolve('node_modules/@huggingface/hub/src/lib', file)).href
  return ((await tsImport(url, import.meta.url)) as Record<string, T>)[name]!
}

test('whoAmI, createRepo, modelInfo, deleteRepo through @huggingface/hub', async ({ page, baseURL }) => {
  await signIn(page, 'alice', DEMO.alice)
  const accessToken = await createToken(page, 'hub-client', 'Write')
  const hubUrl = baseURL!

  const me = await whoAmI({ accessToken, hubUrl })
  expect(me).toMatchObject({ type: 'user', name: 'alice' })
  expect(me.type === 'user' && me.orgs.map((o) => o.name).sort()).toEqual(['acme-ai', 'open-lab'])
  expect(me.auth.accessToken?.role).toBe('write')

  const name = `alice/client-${Date.now() % 100000}`
  const created = await createRepo({ repo: name, accessToken, hubUrl, private: true })
  expect(created.repoUrl).toBe(`${hubUrl}/${name}`)
  const info = await modelInfo({ name, accessToken, hubUrl })
  expect(info).toMatchObject({ name, private: true, gated: false })

  const ds = await createRepo({ repo: { type: 'dataset', name: 'acme-ai/client-ds' }, accessToken, hubUrl })
  expect(ds.repoUrl).toBe(`${hubUrl}/datasets/acme-ai/client-ds`)
  expect((await datasetInfo({ name: 'acme-ai/client-ds', accessToken, hubUrl })).name).toBe('acme-ai/client-ds')
  await deleteRepo({ repo: { type: 'dataset', name: 'acme-ai/client-ds' }, accessToken, hubUrl })

  await deleteRepo({ repo: name, accessToken, hubUrl })
  await expect(modelInfo({ name, accessToken, hubUrl })).rejects.toMatchObject({ statusCode: 404 })
  await expect(createRepo({ repo: 'bob/not-yours', accessToken, hubUrl })).rejects.toMatchObject({ statusCode: 403 })
})

test('a read token can read but not create; private repos are 404 to others', async ({ page, baseURL }) => {
  await signIn(page, 'dave', DEMO.dave)
  const accessToken = await createToken(page, 'reader', 'Read')
  const hubUrl = baseURL!
  await expect(createRepo({ repo: 'dave/x', accessToken, hubUrl })).rejects.toMatchObject({ statusCode: 403 })
  // dave reads acme-ai's private dataset as a `read` member, but not alice's private one.
  expect((await datasetInfo({ name: 'acme-ai/internal-eval', accessToken, hubUrl })).private).toBe(true)
  await expect(datasetInfo({ name: 'alice/private-notes', accessToken, hubUrl })).rejects.toMatchObject({ statusCode: 404 })
})

test('collections through @huggingface/hub: create, list, delete; private ones stay hidden', async ({ page, baseURL }) => {
  await signIn(page, 'bob', DEMO.bob)
  const accessToken = await createToken(page, 'collections', 'Write')
  const hubUrl = baseURL!
  const { slug } = await createCollection({ collection: { title: 'Client picks', namespace: 'bob', private: true }, accessToken, hubUrl })
  expect(slug).toMatch(/^bob\/client-picks-[0-9a-f]+$/)
  const mine = []
  for await (const c of listCollections({ search: { owner: ['bob'] }, accessToken, hubUrl })) mine.push(c.slug)
  expect(mine).toContain(slug)
  const anonymous = []
  for await (const c of listCollections({ search: { owner: ['bob'] }, hubUrl })) anonymous.push(c.slug)
  expect(anonymous).not.toContain(slug)
  await deleteCollection({ slug, accessToken, hubUrl })
  expect((await fetch(`${hubUrl}/api/collections/${slug}`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(404)
})

test('collection items through @huggingface/hub: addCollectionItem, collectionInfo, deleteCollectionItem', async ({ page, baseURL }) => {
  const addCollectionItem = await hubSource<typeof AddItem>('add-collection-item.ts', 'addCollectionItem')
  const deleteCollectionItem = await hubSource<typeof DeleteItem>('delete-collection-item.ts', 'deleteCollectionItem')
  const collectionInfo = await hubSource<typeof CollectionInfo>('collection-info.ts', 'collectionInfo')
  await signIn(page, 'carol', DEMO.carol)
  const accessToken = await createToken(page, 'collection-items', 'Write')
  const hubUrl = baseURL!
  // The whole title goes into the slug, then one dash and the id (a cut at 40 characters left "these--").
  const { slug } = await createCollection({ collection: { title: 'Moderation models we trust: all of these - the best ones', namespace: 'carol' }, accessToken, hubUrl })
  expect(slug).toMatch(/^carol\/moderation-models-we-trust-all-of-these-the-best-ones-[0-9a-f]{24}$/)

  await addCollectionItem({ slug, item: { type: 'model', id: 'alice/toxicity-tiny' }, note: 'the baseline', accessToken, hubUrl })
  await addCollectionItem({ slug, item: { type: 'space', id: 'open-lab/moderation-demo' }, accessToken, hubUrl })
  const info = await collectionInfo({ slug, accessToken, hubUrl })
  expect(info.items.map((i) => [i.type, i.id, i.note?.text])).toEqual([
    ['model', 'alice/toxicity-tiny', 'the baseline'],
    ['space', 'open-lab/moderation-demo', undefined],
  ])
  await expect(addCollectionItem({ slug, item: { type: 'paper', id: '2401.00001' }, accessToken, hubUrl })).rejects.toMatchObject({ statusCode: 400 })

  await deleteCollectionItem({ slug, itemId: info.items[0]!._id, accessToken, hubUrl })
  expect((await collectionInfo({ slug, accessToken, hubUrl })).items.map((i) => i.id)).toEqual(['open-lab/moderation-demo'])
  await expect(deleteCollectionItem({ slug, itemId: info.items[0]!._id, accessToken, hubUrl })).rejects.toMatchObject({ statusCode: 404 })
  await deleteCollection({ slug, accessToken, hubUrl })
})
