/**
 * The playground's catalog (issue 15): the model files the browser loads are the hub's /resolve/
 * URLs of the repos the server runs, pinned to the branch's commit, and a private repo is listed
 * for a viewer who may read it and left out, with the reason, for anyone else. The URLs are then
 * fetched through the real /resolve route handler as that viewer: what the catalog lists is what
 * the browser can load.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fileResponse } from '@/lib/hub/files'
import { forgetModelSnapshots } from '@/lib/hub/model-cache'
import { createOrg } from '@/lib/hub/orgs'
import { createRepo } from '@/lib/hub/repos'
import { createUser } from '@/lib/hub/users'
import { REMOTE_PATH_TEMPLATE } from '@/lib/moderation/browser/catalog'
import { browserCatalog, pickedModelFiles } from '@/lib/moderation/browser/server-catalog'
import type { Caller } from '@/lib/policy'
import { MODELS_NAMESPACE, seedRepoFiles } from '@/scripts/seed-files'

const NS = 'catalog-lab'
let cacheDir: string
let member: NonNullable<Caller>
let stranger: NonNullable<Caller>

/** GET of a catalog URL through the hub's resolve handler, as `caller`. */
async function fetchAs(caller: Caller, url: string) {
  const [, namespace, name, , revision, ...file] = url.split('/')
  const response = await fileResponse(caller, { type: 'model', namespace: namespace!, name: name! }, {
    revision: revision!, path: file.join('/'), raw: false, method: 'GET', range: null, ifRange: null, ifNoneMatch: null, noContentDisposition: false, download: false,
  }).catch((error: { status?: number }) => ({ status: error.status ?? 500, arrayBuffer: async () => new ArrayBuffer(0) }))
  return { status: response.status, bytes: (await response.arrayBuffer()).byteLength }
}

beforeAll(async () => {
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-catalog-cache-'))
  vi.stubEnv('MODELS_CACHE_DIR', cacheDir)
  const owner = await createUser({ username: 'pc-owner', email: 'pc-owner@test.dev', password: 'password-pc-owner' })
  const other = await createUser({ username: 'pc-other', email: 'pc-other@test.dev', password: 'password-pc-other' })
  member = { userId: owner.id, principal: null }
  stranger = { userId: other.id, principal: null }
  await createOrg(owner.id, { name: NS })
  for (const [name, seeded, isPrivate] of [
    ['graphs', 'offline-moderation', false],
    ['private-toxicity', 'unbiased-toxic-roberta-tiny', true],
  ] as const) {
    const repo = await createRepo(member, { namespace: NS, name, private: isPrivate })
    await seedRepoFiles(member, { ...repo, namespace: MODELS_NAMESPACE, name: seeded })
  }
  vi.stubEnv('OFFLINE_MODELS_REPO', `${NS}/graphs`)
  vi.stubEnv('MODERATION_MODEL_TOXICITY', `${NS}/private-toxicity`)
})

afterAll(() => {
  vi.unstubAllEnvs()
  forgetModelSnapshots()
  fs.rmSync(cacheDir, { recursive: true, force: true })
})

describe('the playground catalog', () => {
  it('lists the offline graphs as /resolve/ URLs pinned to a commit, the URL transformers.js builds', async () => {
    const catalog = await browserCatalog(null)
    const graph = catalog.offlineFiles['toxicity.onnx']!
    expect(REMOTE_PATH_TEMPLATE).toBe('{model}/resolve/{revision}/')
    expect(graph.url).toMatch(new RegExp(`^/${NS}/graphs/resolve/[0-9a-f]{40}/toxicity\\.onnx$`))
    expect(graph.size).toBe(fs.statSync('public/models/offline/toxicity.onnx').size)
    expect(Object.keys(catalog.offlineFiles)).not.toContain('README.md')
    const fetched = await fetchAs(null, graph.url)
    expect(fetched).toEqual({ status: 200, bytes: graph.size })
  })

  it('leaves a private repo out for a viewer who cannot read it, with the reason', async () => {
    for (const viewer of [null, stranger]) {
      const catalog = await browserCatalog(viewer)
      expect(catalog.neural.toxicity).toBeUndefined()
      expect(catalog.unreadable).toEqual([`${NS}/private-toxicity: no such model repo, or you have no read access to it`])
    }
  })

  it('lists it for a viewer who may read it, and the hub serves them its files', async () => {
    const catalog = await browserCatalog(member)
    expect(catalog.unreadable).toEqual([])
    const toxicity = catalog.neural.toxicity!
    expect(toxicity).toMatchObject({ id: `${NS}/private-toxicity`, revision: 'main' })
    expect(toxicity.graph.url).toMatch(new RegExp(`^/${NS}/private-toxicity/resolve/[0-9a-f]{40}/onnx/model\\.onnx$`))
    expect(await fetchAs(member, toxicity.graph.url)).toEqual({ status: 200, bytes: toxicity.graph.size })
    // The same URL refused to anyone else: the catalog's choice is the hub's own access decision.
    expect((await fetchAs(stranger, toxicity.graph.url)).status).toBe(404)
  })
})

describe('the repo picker (a model the viewer picks for one check)', () => {
  it('gives the viewer the repo\'s files pinned to the commit its revision names', async () => {
    const picked = await pickedModelFiles(member, 'detoxifymodel', ` ${NS}/private-toxicity@main `)
    expect('files' in picked, JSON.stringify(picked)).toBe(true)
    if (!('files' in picked)) return
    expect(picked.files).toMatchObject({ id: `${NS}/private-toxicity`, revision: 'main', commit: expect.stringMatching(/^[0-9a-f]{40}$/) })
    expect(picked.files.graph.url).toBe(`/${NS}/private-toxicity/resolve/${picked.files.commit}/onnx/model.onnx`)
    expect(await fetchAs(member, picked.files.graph.url)).toEqual({ status: 200, bytes: picked.files.graph.size })
  })

  it('refuses a private repo to anyone who cannot read it, as if it did not exist', async () => {
    for (const viewer of [null, stranger]) {
      expect(await pickedModelFiles(viewer, 'detoxifymodel', `${NS}/private-toxicity`)).toEqual({
        error: `${NS}/private-toxicity: no such model repo, or you have no read access to it`,
      })
    }
    expect(await pickedModelFiles(member, 'detoxifymodel', `${NS}/nothing-here`)).toEqual({
      error: `${NS}/nothing-here: no such model repo, or you have no read access to it`,
    })
  })

  it('names what is wrong with a bad pick: not an id, no such revision, files missing, a check without a model', async () => {
    expect(await pickedModelFiles(member, 'detoxifymodel', '../etc/passwd')).toEqual({ error: '"../etc/passwd": must be namespace/name or namespace/name@revision.' })
    expect(await pickedModelFiles(member, 'detoxifymodel', `${NS}/private-toxicity@v9`)).toEqual({ error: `${NS}/private-toxicity: revision v9 does not exist` })
    const wrongFiles = await pickedModelFiles(member, 'detoxifymodel', `${NS}/graphs`)
    expect(wrongFiles).toEqual({ error: expect.stringContaining(`${NS}/graphs@main: missing config.json`) })
    expect(await pickedModelFiles(member, 'sentimentmodel', `${NS}/private-toxicity`)).toEqual({ error: 'The sentimentmodel check runs no model.' })
  })
})
