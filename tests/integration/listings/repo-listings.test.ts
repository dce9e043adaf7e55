// GET /api/models|datasets|spaces against a real database, through the unmodified @huggingface/hub
// listings (their fetch goes to the route handler) and as huggingface_hub's list_models calls it
// (no limit, sort and direction, and the Link header's next page): pages and cursors, sorts,
// search over the full id, expand, and who sees what.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { listDatasets, listModels, listSpaces } from '@huggingface/hub'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg } from '@/lib/hub/orgs'
import { createRepo } from '@/lib/hub/repos'
import { createRepoWithFiles } from '@/lib/hub/files'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { GET as listGET } from '@/app/api/[repoType]/route'
import { GET as repoGET } from '@/app/api/[repoType]/[namespace]/[name]/[[...rest]]/route'
import { collect, fetched, hubFetch, nextLink } from './hub-fetch'

const hubUrl = 'http://hub.test'
let ownerRead: string
let memberRead: string
let outsiderRead: string
let ownerId: string

function list(path: string, token?: string) {
  const request = new Request(path.startsWith('http') ? path : hubUrl + path, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  return listGET(request, { params: Promise.resolve({ repoType: new URL(request.url).pathname.split('/')[2]! }) })
}

async function ids(path: string, token?: string): Promise<string[]> {
  const res = await list(path, token)
  expect(res.status, path).toBe(200)
  return ((await res.json()) as { id: string }[]).map((r) => r.id)
}

/** Every page, following the Link headers as huggingface_hub's paginate does. */
async function allPages(path: string, token?: string): Promise<{ ids: string[]; pages: number; links: string[] }> {
  const out: string[] = []
  const links: string[] = []
  let url: string | null = path
  let pages = 0
  while (url) {
    const res = await list(url, token)
    expect(res.status, url).toBe(200)
    out.push(...((await res.json()) as { id: string }[]).map((r) => r.id))
    pages++
    url = nextLink(res)
    if (url) links.push(url)
  }
  return { ids: out, pages, links }
}

const MODELS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india']

beforeAll(async () => {
  const owner = await createUser({ username: 'lstowner', email: 'lstowner@test.dev', password: 'password-owner' })
  const member = await createUser({ username: 'lstmember', email: 'lstmember@test.dev', password: 'password-member' })
  const outsider = await createUser({ username: 'lstoutsider', email: 'lstoutsider@test.dev', password: 'password-outsider' })
  ownerId = owner.id
  const org = await createOrg(owner.id, { name: 'lstorg' })
  await addMember(org.id, 'lstmember', 'read')
  ownerRead = (await createPersonalToken(owner.id, { name: 'r', role: 'read' })).token
  memberRead = (await createPersonalToken(member.id, { name: 'r', role: 'read' })).token
  outsiderRead = (await createPersonalToken(outsider.id, { name: 'r', role: 'read' })).token
  const session = { userId: owner.id, principal: null }
  // One after another, so that creation and modification times follow this order.
  for (const [i, name] of MODELS.entries()) {
    await createRepo(session, { namespace: 'lstowner', name, private: i % 3 === 1 })
    await new Promise((r) => setTimeout(r, 3))
  }
  await createRepo(session, { namespace: 'lstorg', name: 'org-public' })
  await createRepo(session, { namespace: 'lstorg', name: 'org-private', private: true })
  await createRepoWithFiles(session, { namespace: 'lstowner', name: 'toxicity-tiny' }, [
    { kind: 'file', path: 'README.md', content: Buffer.from('---\npipeline_tag: text-classification\ntags: [lst-tag]\n---\n# Tiny\n') },
    { kind: 'file', path: 'config.json', content: Buffer.from('{}') },
  ])
  await createRepoWithFiles(session, { namespace: 'lstowner', name: 'gated-tiny', gated: true }, [
    { kind: 'file', path: 'README.md', content: Buffer.from('---\ntags: [lst-tag]\n---\n') },
  ])
  // 1005 datasets that share one creation time (their order there is their id's), more than a page.
  const createdAt = new Date('2026-01-01T00:00:00.000Z')
  await db.repo.createMany({
    data: Array.from({ length: 1005 }, (_, i) => ({ type: 'dataset', namespace: 'lstowner', name: `bulk-${String(i).padStart(4, '0')}`, ownerUserId: owner.id, createdById: owner.id, createdAt, updatedAt: createdAt })),
  })
})

afterEach(() => {
  delete process.env.HUB_URL
})

describe('pages', () => {
  it('huggingface_hub without a limit: 1000 repos, then a Link to the rest on the same query', async () => {
    const first = await list('/api/datasets?author=lstowner&sort=createdAt&direction=-1')
    expect(((await first.json()) as unknown[]).length).toBe(1000)
    const link = nextLink(first)!
    expect(link).toMatch(/^http:\/\/hub\.test\/api\/datasets\?/)
    const next = new URL(link).searchParams
    expect([next.get('author'), next.get('sort'), next.get('direction')]).toEqual(['lstowner', 'createdAt', '-1'])
    expect(next.get('cursor')).toEqual(expect.any(String))
    const second = await list(link)
    expect(((await second.json()) as unknown[]).length).toBe(5)
    expect(nextLink(second)).toBeNull()
  })

  it('asked for more than 1000, a page holds 1000', async () => {
    expect((await ids('/api/datasets?author=lstowner&limit=5000')).length).toBe(1000)
  })

  it('@huggingface/hub follows the Link headers: every repo once, in pages of 500', async () => {
    fetched.length = 0
    const names = (await collect(listDatasets({ hubUrl, fetch: hubFetch, search: { owner: 'lstowner' } }))).map((d) => d.name)
    expect(names.length).toBe(1005)
    expect(new Set(names).size).toBe(1005)
    expect(fetched.length).toBe(3)
    // listSpaces always asks for 500 and reads every page.
    expect(await collect(listSpaces({ hubUrl, fetch: hubFetch, search: { owner: 'lstowner' } }))).toEqual([])
  })

  it('small pages hold every repo once, in the order of one big page', async () => {
    for (const query of ['', '&sort=createdAt&direction=1', '&sort=id', '&sort=id&direction=1', '&sort=lastModified']) {
      const whole = await ids(`/api/models?author=lstowner${query}`, ownerRead)
      const paged = await allPages(`/api/models?author=lstowner&limit=2${query}`, ownerRead)
      expect(paged.ids, query).toEqual(whole)
      expect(paged.pages, query).toBe(Math.ceil(whole.length / 2))
    }
  })

  it('the link is on the hub\'s public origin (HUB_URL), not the one the request came to', async () => {
    process.env.HUB_URL = 'https://hub.example.org'
    const res = await list('/api/models?author=lstowner&limit=1')
    expect(nextLink(res)).toMatch(/^https:\/\/hub\.example\.org\/api\/models\?author=lstowner&limit=1&cursor=/)    // A browser page on another origin may read it, the Link header included.
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-expose-headers')).toContain('Link')
  })

  it('a cursor holds its place when repos are added meanwhile: nothing skipped, nothing twice', async () => {
    const before = await ids('/api/models?author=lstowner&sort=createdAt', ownerRead)
    const first = await list('/api/models?author=lstowner&sort=createdAt&limit=3', ownerRead)
    const page1 = ((await first.json()) as { id: string }[]).map((r) => r.id)
    await createRepo({ userId: ownerId, principal: null }, { namespace: 'lstowner', name: 'added-meanwhile' })
    const rest = await allPages(nextLink(first)!, ownerRead)
    expect([...page1, ...rest.ids]).toEqual(before)
    // The new one comes first from now on.
    expect((await ids('/api/models?author=lstowner&sort=createdAt', ownerRead))[0]).toBe('lstowner/added-meanwhile')
    await db.repo.deleteMany({ where: { namespace: 'lstowner', name: 'added-meanwhile' } })
  })

  it('refuses a cursor it did not make, or one of another order, with a clear 400', async () => {
    const link = nextLink(await list('/api/models?author=lstowner&limit=1&sort=createdAt'))!
    const cursor = new URL(link).searchParams.get('cursor')!
    const cases = [
      ['not-a-cursor', /Invalid cursor/],
      [Buffer.from('{"order":"repos:createdAt:-1","position":["yesterday","x"]}').toString('base64url'), /Invalid cursor/],
      [Buffer.from('[1,2]').toString('base64url'), /Invalid cursor/],
    ] as const
    for (const [bad, message] of cases) {
      const res = await list(`/api/models?author=lstowner&sort=createdAt&cursor=${bad}`)
      expect(res.status, bad).toBe(400)
      expect((await res.json()).error).toMatch(message)
    }
    const other = await list(`/api/models?author=lstowner&sort=id&cursor=${cursor}`)
    expect([other.status, (await other.json()).error]).toEqual([400, expect.stringMatching(/another order/)])
  })
})

describe('long scans', () => {
  // 5,100 datasets of one owner, newest first: 4,990 private, 20 public, 90 private.
  const big = Array.from({ length: 5100 }, (_, i) => ({ name: `big-${String(i).padStart(4, '0')}`, private: i < 4990 || i >= 5010 }))
  beforeAll(async () => {
    const bigOwner = await createUser({ username: 'lstbig', email: 'lstbig@test.dev', password: 'password-big' })
    const newest = Date.parse('2026-02-01T00:00:00.000Z')
    await db.repo.createMany({
      data: big.map((r, i) => ({ type: 'dataset', namespace: 'lstbig', ...r, ownerUserId: bigOwner.id, createdById: bigOwner.id, createdAt: new Date(newest - i), updatedAt: new Date(newest - i) })),
    })
  })

  it('others\' private repos are not even read: a filter no repo passes ends at once, and every page only holds what the caller may see', async () => {
    const first = await list('/api/datasets?author=lstbig&filter=lst-none&sort=createdAt', outsiderRead)
    expect(await first.json()).toEqual([])
    // The thousands of private repos of lstbig are left out by the query itself: no scan, no next page.
    expect(nextLink(first)).toBeFalsy()
    // @huggingface/hub follows the empty pages to the end.
    expect(await collect(listDatasets({ hubUrl, fetch: hubFetch, accessToken: outsiderRead, search: { owner: 'lstbig', tags: ['lst-none'] } }))).toEqual([])
  })

  it('others\' private repos are read past until a visible one, and every public one is listed once', async () => {
    const publicOnes = big.filter((r) => !r.private).map((r) => `lstbig/${r.name}`)
    expect((await allPages('/api/datasets?author=lstbig&sort=createdAt&limit=7', outsiderRead)).ids).toEqual(publicOnes)
    expect((await allPages('/api/datasets?author=lstbig&sort=createdAt&limit=7')).ids).toEqual(publicOnes)
  })
})

describe('sort and direction', () => {
  it('order by id, creation and modification, either way; the default is the most recently modified first', async () => {
    const byId = MODELS.map((n) => `lstowner/${n}`)
    const mine = async (query: string) => (await ids(`/api/models?author=lstowner${query}`, ownerRead)).filter((id) => byId.includes(id))
    expect(await mine('&sort=id&direction=1')).toEqual(byId)
    expect(await mine('&sort=id&direction=-1')).toEqual([...byId].reverse())
    expect(await mine('&sort=id')).toEqual([...byId].reverse())
    expect(await mine('&sort=createdAt&direction=1')).toEqual(byId)
    expect(await mine('&sort=createdAt')).toEqual([...byId].reverse())
    expect(await mine('&sort=lastModified&direction=1')).toEqual(byId)
    expect(await mine('')).toEqual([...byId].reverse())
  })

  it('sorts the hub has no numbers for (downloads, likes, trending) keep the default order', async () => {
    const byDefault = await ids('/api/models?author=lstowner', ownerRead)
    for (const sort of ['downloads', 'likes', 'trending', 'trendingScore', 'likes30d']) {
      expect(await ids(`/api/models?author=lstowner&sort=${sort}&direction=-1`, ownerRead), sort).toEqual(byDefault)
      expect(await ids(`/api/models?author=lstowner&sort=${sort}&direction=1`, ownerRead), sort).toEqual(byDefault)
    }
    const viaClient = (await collect(listModels({ hubUrl, fetch: hubFetch, accessToken: ownerRead, search: { owner: 'lstowner' }, sort: 'downloads' }))).map((m) => m.name)
    expect(viaClient).toEqual(byDefault)
  })

  it('an unknown sort key or direction is a 400 that names the good ones', async () => {
    const bad = await list('/api/models?sort=stars')
    expect([bad.status, (await bad.json()).error]).toEqual([400, expect.stringMatching(/Invalid sort "stars".*lastModified/)])
    const direction = await list('/api/models?sort=id&direction=up')
    expect([direction.status, (await direction.json()).error]).toEqual([400, expect.stringMatching(/-1.*1/)])
  })
})

describe('search', () => {
  it('looks in the full id: the owner part too, and author still narrows', async () => {
    const models = async (query: string) => (await collect(listModels({ hubUrl, fetch: hubFetch, search: { query } }))).map((m) => m.name)
    expect(await models('lstowner/tox')).toEqual(['lstowner/toxicity-tiny'])
    expect(await models('owner/toxicity')).toEqual(['lstowner/toxicity-tiny'])
    expect(await models('toxicity-tiny')).toContain('lstowner/toxicity-tiny')
    expect(await models('lstorg/')).toEqual(['lstorg/org-public'])
    expect(await models('lstowner/tox/x')).toEqual([])
    expect(await ids('/api/models?search=lstowner')).toEqual(expect.arrayContaining(['lstowner/alpha', 'lstowner/toxicity-tiny']))
    expect(await ids('/api/models?author=lstorg&search=lstowner')).toEqual([])
  })
})

describe('who sees what', () => {
  it('private repos only for those allowed, however the pages fall', async () => {
    const privateOnes = ['lstowner/bravo', 'lstowner/echo', 'lstowner/hotel']
    const anonymous = await allPages('/api/models?author=lstowner&limit=1')
    expect(anonymous.ids).not.toEqual(expect.arrayContaining([privateOnes[0]]))
    expect(anonymous.ids.filter((id) => privateOnes.includes(id))).toEqual([])
    expect((await allPages('/api/models?author=lstowner&limit=1', outsiderRead)).ids).toEqual(anonymous.ids)
    const owner = await allPages('/api/models?author=lstowner&limit=1', ownerRead)
    expect(owner.ids).toEqual(expect.arrayContaining([...privateOnes, ...anonymous.ids]))
    expect(owner.ids.length).toBe(anonymous.ids.length + 3)
    expect(await ids('/api/models?author=lstorg', memberRead)).toEqual(['lstorg/org-private', 'lstorg/org-public'])
    expect(await ids('/api/models?author=lstorg', outsiderRead)).toEqual(['lstorg/org-public'])
  })

  it('filters by card across pages', async () => {
    const tagged = await allPages('/api/models?filter=lst-tag&limit=1', ownerRead)
    expect(tagged.ids.sort()).toEqual(['lstowner/gated-tiny', 'lstowner/toxicity-tiny'])
    const models = await collect(listModels({ hubUrl, fetch: hubFetch, search: { task: 'text-classification', owner: 'lstowner' } }))
    expect(models.map((m) => m.name)).toEqual(['lstowner/toxicity-tiny'])
  })
})

describe('lastModified', () => {
  it('is the same moment in a listing and in repo info after a commit (to the millisecond)', async () => {
    const listed = ((await (await list('/api/models?author=lstowner&search=toxicity-tiny', ownerRead)).json()) as { id: string; lastModified: string }[]).find((r) => r.id === 'lstowner/toxicity-tiny')!
    const info = await repoGET(new Request(`${hubUrl}/api/models/lstowner/toxicity-tiny`, { headers: { authorization: `Bearer ${ownerRead}` } }), { params: Promise.resolve({ repoType: 'models', namespace: 'lstowner', name: 'toxicity-tiny' }) })
    expect(listed.lastModified).toBe(((await info.json()) as { lastModified: string }).lastModified)
  })
})

describe('expand', () => {
  it('filePaths and sha (expand=siblings, expand=sha) for repos the caller may read', async () => {
    const head = await db.repoRef.findFirstOrThrow({ where: { repo: { namespace: 'lstowner', name: 'toxicity-tiny' }, name: 'main' } })
    const models = await collect(listModels({ hubUrl, fetch: hubFetch, search: { owner: 'lstowner' }, additionalFields: ['filePaths', 'sha'] }))
    const tiny = models.find((m) => m.name === 'lstowner/toxicity-tiny')!
    expect(tiny.filePaths.sort()).toEqual(['README.md', 'config.json'])
    expect(tiny.sha).toBe(head.commitId)
    expect(fetched.at(-1)).toMatch(/expand=siblings.*expand=sha/)
    // A gated repo's files are for those granted access: its owner sees them, others do not.
    const gated = models.find((m) => m.name === 'lstowner/gated-tiny')!
    expect([gated.filePaths, gated.sha]).toEqual([[], undefined])
    const asOwner = await collect(listModels({ hubUrl, fetch: hubFetch, accessToken: ownerRead, search: { owner: 'lstowner', query: 'gated' }, additionalFields: ['filePaths'] }))
    expect(asOwner.map((m) => m.filePaths)).toEqual([['README.md']])
    // An empty repo: no sha, no files.
    const empty = models.find((m) => m.name === 'lstowner/alpha')!
    expect([empty.filePaths, empty.sha]).toEqual([[], null])
  })

  it('full=True (huggingface_hub) reads the files too; without expand the answer has no files', async () => {
    const full = (await (await list('/api/models?search=lstowner/toxicity&full=True')).json()) as { siblings?: unknown[]; sha?: string }[]
    expect(full[0]!.siblings).toEqual([{ rfilename: 'README.md' }, { rfilename: 'config.json' }])
    const plain = (await (await list('/api/models?search=lstowner/toxicity&expand=private&expand=gated')).json()) as Record<string, unknown>[]
    expect(plain[0]).not.toHaveProperty('siblings')
    expect(plain[0]).not.toHaveProperty('sha')
    expect(plain[0]).toMatchObject({ id: 'lstowner/toxicity-tiny', private: false, gated: false, downloads: 0, likes: 0, pipeline_tag: 'text-classification', tags: ['lst-tag', 'text-classification'] })
    // With every repo's files a page holds a tenth as many repos (100), whatever the limit asked.
    const expanded = await list('/api/datasets?author=lstowner&full=True&limit=1000')
    expect(((await expanded.json()) as unknown[]).length).toBe(100)
    expect(expanded.headers.get('link')).toMatch(/rel="next"/)
    // A cursor with a date no database stores is a 400, not a 500.
    const farPast = Buffer.from(JSON.stringify({ order: 'repos:lastModified:-1', position: ['-200000-01-01T00:00:00.000Z', 'x'] })).toString('base64url')
    expect((await list(`/api/models?cursor=${farPast}`)).status).toBe(400)
  })
})
