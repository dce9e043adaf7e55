// Searching repos (GET /api/models?search=) and collections (GET /api/collections?q=) answers the
// same on SQLite and PostgreSQL, as the Hub searches: a part of the text in any letter case, with
// "%" and "_" taken as the characters they are (lib/db/filters), not as LIKE's wildcards.
import { beforeAll, describe, expect, it } from 'vitest'
import { createCollection, listCollections, listModels } from '@huggingface/hub'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { createOrg } from '@/lib/hub/orgs'
import { createRepo, listRepoPage, repoListing } from '@/lib/hub/repos'
import { addToCollection, collectionListing } from '@/lib/hub/collections'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { GET as listGET } from '@/app/api/[repoType]/route'
import { GET as collectionsGET } from '@/app/api/collections/route'
import { collect, hubFetch, nextLink } from './hub-fetch'

const hubUrl = 'http://hub.test'
const client = { hubUrl, fetch: hubFetch }
let ownerWrite: string
let session: { userId: string; principal: null }

async function repoIds(query: string): Promise<string[]> {
  const res = await listGET(new Request(`${hubUrl}/api/models?${query}`), { params: Promise.resolve({ repoType: 'models' }) })
  expect(res.status, query).toBe(200)
  return ((await res.json()) as { id: string }[]).map((r) => r.id)
}

/** What @huggingface/hub's listModels finds for a search, every page. */
const models = async (query: string, owner?: string) => (await collect(listModels({ ...client, search: { query, owner } }))).map((m) => m.name).sort()

const REPOS = ['srch-toxicity-tiny', 'cc-edge-model', 'cc_edge_model', 'Mixed-Case.Model', 'ccxedge', 'plain']

const titles: Record<string, string> = {}

beforeAll(async () => {
  const owner = await createUser({ username: 'SrchOwner', email: 'srchowner@test.dev', password: 'password-owner' })
  await createOrg(owner.id, { name: 'srch-org' })
  session = { userId: owner.id, principal: null }
  ownerWrite = (await createPersonalToken(owner.id, { name: 'w', role: 'write' })).token
  for (const name of REPOS) await createRepo(session, { namespace: 'SrchOwner', name })
  await createRepo(session, { namespace: 'srch-org', name: 'Org_Model' })
  for (const [key, title, description] of [
    ['percent', 'Srch 100% safe picks', ''],
    ['underscore', 'Srch snake_case models', ''],
    ['dash', 'Srch snake-case models', 'models for Srch-Triage'],
    ['accent', 'Srch Été models', ''],
  ] as const) {
    titles[key] = (await createCollection({ ...client, accessToken: ownerWrite, collection: { namespace: 'SrchOwner', title, description } })).slug
  }
  await addToCollection(session, titles.dash!, { item: { type: 'model', id: 'SrchOwner/plain' } })
})

describe('repo search', () => {
  it('takes "%" and "_" as characters: "%" finds nothing (no id holds one), "_" only ids that hold one', async () => {
    expect(await repoIds('search=%25')).toEqual([])
    expect(await models('%')).toEqual([])
    expect(await repoIds('search=%25%25&author=SrchOwner')).toEqual([])
    const underscore = await repoIds('search=_')
    expect(underscore.length).toBeGreaterThan(0)
    expect(underscore.filter((id) => !id.includes('_'))).toEqual([])
    expect(await models('_', 'SrchOwner')).toEqual(['SrchOwner/cc_edge_model'])
    expect(await models('cc_', 'SrchOwner')).toEqual(['SrchOwner/cc_edge_model'])
    expect(await models('cc_e', 'SrchOwner')).toEqual(['SrchOwner/cc_edge_model'])
    // LIKE's escape character is a character too.
    expect(await models('cc!', 'SrchOwner')).toEqual([])
    expect(await models('cc!_', 'SrchOwner')).toEqual([])
  })

  it('ignores the case of letters, on both databases, in the name and in the owner', async () => {
    expect(await models('Toxicity-Tiny', 'SrchOwner')).toEqual(['SrchOwner/srch-toxicity-tiny'])
    expect(await models('TOXICITY', 'SrchOwner')).toEqual(['SrchOwner/srch-toxicity-tiny'])
    expect(await models('mixed-case.model')).toEqual(['SrchOwner/Mixed-Case.Model'])
    expect(await models('srchowner/MIXED')).toEqual(['SrchOwner/Mixed-Case.Model'])
    expect(await models('ORG/org_')).toEqual(['srch-org/Org_Model'])
    expect(await models('SRCH-ORG/')).toEqual(['srch-org/Org_Model'])
    // The owner part ends the owner, the name part starts the name, literally.
    expect(await models('_org/')).toEqual([])
    expect(await models('srchowner/_')).toEqual([])
    expect(await models('srchowner/cc_')).toEqual(['SrchOwner/cc_edge_model'])
    expect((await repoIds('search=srchowner')).sort()).toEqual(REPOS.map((name) => `SrchOwner/${name}`).sort())
    // author is the owner's name as it is written (the filter the clients send), search is not.
    expect(await repoIds('author=SrchOwner&search=CC-EDGE')).toEqual(['SrchOwner/cc-edge-model'])
  })

  it('keeps pages and orders: a search read one repo a page holds what one page holds, in its order', async () => {
    for (const sort of ['', '&sort=id&direction=1', '&sort=id', '&sort=createdAt&direction=1', '&sort=lastModified']) {
      const whole = await repoIds(`author=SrchOwner&search=CC${sort}`)
      expect(whole.length, sort).toBe(3)
      const paged: string[] = []
      let url: string | null = `${hubUrl}/api/models?author=SrchOwner&search=CC&limit=1${sort}`
      while (url) {
        const res = await listGET(new Request(url), { params: Promise.resolve({ repoType: 'models' }) })
        paged.push(...((await res.json()) as { id: string }[]).map((r) => r.id))
        url = nextLink(res)
      }
      expect(paged, sort).toEqual(whole)
    }
    expect(await repoIds('author=SrchOwner&search=cc&sort=id&direction=1')).toEqual(['SrchOwner/cc-edge-model', 'SrchOwner/cc_edge_model', 'SrchOwner/ccxedge'])
  })

  it('needs lib/db/filters: Prisma\'s own `contains` still takes "_" as any character and "%" as any run', async () => {
    const names = async (contains: string) => (await db.repo.findMany({ where: { namespace: 'SrchOwner', name: { contains } }, orderBy: { name: 'asc' } })).map((r) => r.name)
    expect(await names('cc_')).toEqual(['cc-edge-model', 'cc_edge_model', 'ccxedge'])
    expect((await names('%')).length).toBe(REPOS.length)
  })

  it('reads the rows Prisma reads', async () => {
    const listed = await repoListing(null, { type: 'model', search: 'srch-toxicity-tiny', order: { by: 'id', descending: false }, limit: 10, cursor: null, withFiles: false })
    const row = await db.repo.findFirstOrThrow({ where: { namespace: 'SrchOwner', name: 'srch-toxicity-tiny' } })
    expect(listed.items.map((item) => item._id)).toEqual([row.id])
    const page = await listRepoPage(null, { type: 'model', search: 'SRCH-TOXICITY-tiny', order: { by: 'id', descending: false }, limit: 10, cursor: null })
    expect(page.repos).toEqual([row])
  })
})

describe('collection search (q)', () => {
  const found = async (q: string) => (await collect(listCollections({ ...client, search: { q, owner: ['SrchOwner'] } }))).map((c) => c.slug).sort()

  it('takes "%" and "_" as characters', async () => {
    expect(await found('%')).toEqual([titles.percent])
    expect(await found('100%')).toEqual([titles.percent])
    expect(await found('_')).toEqual([titles.underscore])
    expect(await found('snake_case')).toEqual([titles.underscore])
    expect(await found('snake-case')).toEqual([titles.dash])
  })

  it('ignores the case of ASCII letters in the title and the description; other letters match as written, on both databases', async () => {
    expect(await found('SRCH SNAKE')).toEqual([titles.underscore, titles.dash].sort())
    expect(await found('srch-triage')).toEqual([titles.dash])
    expect(await found('Été')).toEqual([titles.accent])
    expect(await found('été')).toEqual([])
    // A NUL character matches nothing (PostgreSQL refuses it as a value).
    const res = await collectionsGET(new Request(`${hubUrl}/api/collections?q=%00`))
    expect([res.status, await res.json()]).toEqual([200, []])
  })

  it('combines with owners and items, and reads the rows Prisma reads', async () => {
    const listed = await collectionListing(null, { owners: ['SrchOwner', 'srch-org'], items: ['models/srchowner/PLAIN', 'models/SrchOwner/plain'], search: 'SNAKE-', sort: null, limit: 10, cursor: null })
    const row = await db.collection.findUniqueOrThrow({ where: { slug: titles.dash } })
    expect(listed.collections.map(({ items, ...c }) => [c, items.map((i) => i.repo.name)])).toEqual([[row, ['plain']]])
    expect((await collectionListing(null, { owners: ['srch-org'], items: [], search: 'snake', sort: null, limit: 10, cursor: null })).collections).toEqual([])
  })
})
