// @huggingface/hub, unmodified, against the running hub with a personal token.
import { expect, test } from '@playwright/test'
import { createCollection, createRepo, deleteCollection, deleteRepo, datasetInfo, listCollections, modelInfo, whoAmI } from '@huggingface/hub'
import { DEMO, createToken, signIn } from './helpers'

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
