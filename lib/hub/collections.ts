// Collections: public or private lists of repos, owned by a user or an organization.
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { displayText } from '@/lib/display-text'
import { db, joinSql, lockRow, rows, sql, statementsIn, type Sql } from '@/lib/db'
import { isOneOf, textMatches } from '@/lib/db/filters'
import { findNamespace } from '@/lib/hub/namespaces'
import { roleInOrg } from '@/lib/hub/orgs'
import { collectionDecision, type Caller, type CollectionAction, type OrgRole } from '@/lib/policy'
import { cursorDate, cursorPosition, findRepo, keysetPage, listingCursor, mayViewRepo, type RepoRow } from '@/lib/hub/repos'
import { repoTypeFromPlural } from '@/lib/hub/names'
import { badRequest, denial, notFound } from '@/lib/http/errors'

export const createCollectionInput = z.object({
  namespace: z.string().min(1).max(42),
  title: displayText(60, { required: true }),
  description: displayText(150).default(''),
  private: z.boolean().default(false),
})

/**
 * A collection's slug, as the Hub makes it: "{namespace}/{the whole title slugified}-{id}", the id
 * being 24 hex digits. The Hub finds a collection by that id; the title part is for people.
 */
function collectionSlug(namespace: string, title: string, id: string): string {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  return `${namespace}/${base || 'collection'}-${id}`
}

const COLLECTION_ID = /-([0-9a-f]{24})$/

type Owner = { kind: 'user' | 'org'; id: string }

function ownerFacts(owner: Owner, isPrivate: boolean) {
  return { private: isPrivate, ownerUserId: owner.kind === 'user' ? owner.id : null, ownerOrgId: owner.kind === 'org' ? owner.id : null }
}

/** Whether the caller may create collections owned by this user or organization (pages offer the button on it). */
export function mayCreateCollection(caller: Caller, owner: Owner, orgRole: OrgRole | null): boolean {
  return collectionDecision(caller, 'write', ownerFacts(owner, false), orgRole) === 'allow'
}

/** Collections one user or organization may hold (each is listed, paged and searched with the others). */
const MAX_COLLECTIONS_PER_OWNER = 1000

export async function createCollection(caller: Caller, input: z.input<typeof createCollectionInput>) {
  const data = createCollectionInput.parse(input)
  if (!caller) throw denial('unauthenticated')
  const owner = await findNamespace(data.namespace)
  if (!owner) throw notFound(`No user or organization named "${data.namespace}"`)
  const facts = ownerFacts(owner, data.private)
  const orgRole = owner.kind === 'org' ? await roleInOrg(caller.userId, owner.id) : null
  const decision = collectionDecision(caller, 'write', facts, orgRole)
  if (decision !== 'allow') throw denial(decision === 'not-found' ? 'forbidden' : decision, 'Collection')
  const id = randomBytes(12).toString('hex')
  return db.$transaction(async (tx) => {
    // Counted under the owner's row lock, so a burst of requests cannot pass the cap together.
    await lockRow(statementsIn(tx), owner.kind === 'user' ? 'User' : 'Org', owner.id)
    if ((await tx.collection.count({ where: { namespace: owner.name } })) >= MAX_COLLECTIONS_PER_OWNER) {
      throw badRequest(`${owner.name} may hold at most ${MAX_COLLECTIONS_PER_OWNER} collections; delete one first`)
    }
    return tx.collection.create({
      data: { ...facts, id, namespace: owner.name, title: data.title, description: data.description, slug: collectionSlug(owner.name, data.title, id) },
    })
  })
}

/**
 * The collection a slug names: the exact slug, else (as on the Hub) the id at its end within the
 * namespace, so a link whose title part is out of date still resolves. Collections made before
 * slugs ended with their id are found by the exact slug.
 */
async function findCollection(slug: string) {
  const include = { items: { include: { repo: true }, orderBy: { position: 'asc' as const } } }
  const exact = await db.collection.findUnique({ where: { slug }, include })
  if (exact) return exact
  const [namespace, rest] = slug.split('/')
  const id = rest ? COLLECTION_ID.exec(rest)?.[1] : undefined
  return id ? db.collection.findFirst({ where: { id, namespace }, include }) : null
}

export async function authorizedCollection(caller: Caller, slug: string, action: CollectionAction) {
  const collection = await findCollection(slug)
  if (!collection) throw notFound('Collection not found')
  const orgRole = collection.ownerOrgId ? await roleInOrg(caller?.userId, collection.ownerOrgId) : null
  const decision = collectionDecision(caller, action, collection, orgRole)
  if (decision !== 'allow') throw denial(decision, 'Collection')
  return { ...collection, items: await visibleItems(caller, collection.items) }
}

/**
 * The items the caller may see, the first `max` of them. Items the caller may not see (private
 * repos) are left out, wherever a collection is shown.
 */
async function visibleItems<Item extends { repo: RepoRow }>(caller: Caller, items: Item[], max = Infinity): Promise<Item[]> {
  const visible: Item[] = []
  for (const item of items) {
    if (visible.length >= max) break
    if (await mayViewRepo(caller, item.repo)) visible.push(item)
  }
  return visible
}

/** An item as the Hub's API names it: a repo by type and "namespace/name" (papers and collections are not kept here). */
export const collectionItemInput = z.object({
  item: z.object({
    type: z.enum(['model', 'dataset', 'space', 'paper', 'collection']),
    id: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  }),
  note: z.string().trim().max(500, 'must be at most 500 characters').optional(),
})

/**
 * Adds a repository to the collection after every item. Adding one that is there already changes
 * only its note, when one is given (as the Hub, adding is idempotent: without a note it keeps its
 * own). `input` (collectionItemInput) is validated here: route handlers pass a body as it came.
 */
export async function addToCollection(caller: Caller, slug: string, input: unknown) {
  const { item, note } = collectionItemInput.parse(input)
  const collection = await authorizedCollection(caller, slug, 'write')
  if (item.type === 'paper' || item.type === 'collection') throw badRequest(`Items of type "${item.type}" are not supported: add a model, dataset or space`)
  const [namespace, name, ...extra] = item.id.split('/')
  // In any letter case, as every repo id on the hub (and as the listing's `item` filter finds it).
  const repo = namespace && name && extra.length === 0 ? await findRepo(item.type, namespace, name) : null
  if (!repo || !(await mayViewRepo(caller, repo))) throw notFound(`No ${item.type} named "${item.id.slice(0, 200)}"`)
  // After every item, counted over all items: some may be hidden from this caller.
  const last = await db.collectionItem.aggregate({ where: { collectionId: collection.id }, _max: { position: true } })
  const position = (last._max.position ?? -1) + 1
  const row = await db.collectionItem.upsert({
    where: { collectionId_repoId: { collectionId: collection.id, repoId: repo.id } },
    create: { collectionId: collection.id, repoId: repo.id, position, note: note ?? '' },
    // An empty note (a form's blank field) is no note either.
    update: note ? { note } : {},
  })
  // An item that was there already keeps its place (and gets the new note, if any): it is not added again.
  const added = row.position === position
  if (added || note) await touchCollection(collection.id)
  return { item: row, added }
}

/** Removes one item; an item the caller cannot see is not found, as it is not shown to them. */
export async function removeFromCollection(caller: Caller, slug: string, itemId: string): Promise<void> {
  const collection = await authorizedCollection(caller, slug, 'write')
  if (!collection.items.some((item) => item.id === itemId)) throw notFound('Item not found in this collection')
  await db.collectionItem.delete({ where: { id: itemId } })
  await touchCollection(collection.id)
}

/** A change of its items updates the collection: its lastUpdated, which listings sort by. */
async function touchCollection(id: string) {
  await db.collection.update({ where: { id }, data: { updatedAt: new Date() } })
}

export async function deleteCollection(caller: Caller, slug: string) {
  const collection = await authorizedCollection(caller, slug, 'write')
  await db.collection.delete({ where: { id: collection.id } })
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * A note as HTML, which the Hub answers beside its text (rendered from Markdown there): here each
 * paragraph as escaped text, so no markup in a note reaches a page that shows the HTML.
 */
export function noteHtml(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${paragraph.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)}</p>`)
    .join('\n')
}

type ShownCollection = Awaited<ReturnType<typeof authorizedCollection>>

/**
 * The Hub's collection JSON (ApiCollectionInfo), of a collection as authorizedCollection returns it
 * (visible items only). The hub keeps no upvotes, likes, downloads, themes, gating or order of an
 * owner's collections: those answer fixed values (none, the Hub's first theme, not gated, first),
 * since huggingface_hub's Collection reads every one of them.
 */
export function collectionJson(collection: ShownCollection) {
  return {
    slug: collection.slug,
    title: collection.title,
    description: collection.description,
    private: collection.private,
    owner: { name: collection.namespace, type: collection.ownerOrgId ? 'org' : 'user' },
    lastUpdated: collection.updatedAt.toISOString(),
    position: 0,
    theme: 'orange',
    upvotes: 0,
    isUpvotedByUser: false,
    gating: false,
    // Positions among the items this caller sees: the stored ones would count the private repos
    // hidden before each item.
    items: collection.items.map((i, position) => ({
      _id: i.id,
      position,
      type: i.repo.type,
      repoType: i.repo.type,
      id: `${i.repo.namespace}/${i.repo.name}`,
      author: i.repo.namespace,
      private: i.repo.private,
      gated: i.repo.gated ? 'manual' : false,
      lastModified: i.repo.updatedAt.toISOString(),
      likes: 0,
      isLikedByUser: false,
      ...(i.repo.type === 'space' ? { createdAt: i.repo.createdAt.toISOString() } : { downloads: 0 }),
      note: i.note ? { text: i.note, html: noteHtml(i.note) } : undefined,
    })),
  }
}

type CollectionRow = NonNullable<Awaited<ReturnType<typeof db.collection.findFirst>>>

/** The collections the caller may read, in the order given. */
async function readableBy(caller: Caller, rows: CollectionRow[]): Promise<CollectionRow[]> {
  const readable: CollectionRow[] = []
  for (const c of rows) {
    // A public collection is everyone's to read, whatever the caller's role in its organization.
    const orgRole = c.private && c.ownerOrgId ? await roleInOrg(caller?.userId, c.ownerOrgId) : null
    if (collectionDecision(caller, 'read', c, orgRole) === 'allow') readable.push(c)
  }
  return readable
}

export async function listCollections(caller: Caller, namespace: string) {
  return readableBy(caller, await db.collection.findMany({ where: { namespace }, orderBy: { updatedAt: 'desc' } }))
}

/**
 * The Hub's collection sorts. The hub keeps no upvotes nor trending score: every one of them
 * orders as lastModified does, the most recently updated first.
 */
const COLLECTION_SORTS = ['lastModified', 'trending', 'upvotes']
const COLLECTIONS_ORDER = 'collections:lastModified:-1'
/** The Hub answers at most 100 collections a page (@huggingface/hub's listCollections asks no more). */
export const MAX_COLLECTION_PAGE = 100
/** As on the Hub, a listing shows the first four items of each collection (the caller's visible ones). */
const ITEMS_LISTED = 4

/**
 * The repos that `item` filters name ("models/alice/toxicity-tiny"), each one the caller may see;
 * null when one names nothing the caller sees (no collection they may know of holds it): a
 * private repo of another is not told apart from one that does not exist.
 */
async function itemRepoIds(caller: Caller, items: string[]): Promise<string[] | null> {
  const ids: string[] = []
  for (const item of items) {
    const [plural, namespace, name, ...extra] = item.split('/')
    if (plural === 'papers' || plural === 'collections') return null
    const type = repoTypeFromPlural(plural ?? '')
    if (!type || !namespace || !name || extra.length > 0) {
      throw badRequest(`Invalid item "${item.slice(0, 100)}": use its type and id, as "models/{namespace}/{name}" (datasets/, spaces/, papers/ and collections/ too)`)
    }
    const repo = await findRepo(type, namespace, name)
    if (!repo || !(await mayViewRepo(caller, repo))) return null
    ids.push(repo.id)
  }
  return ids
}

/** Every column of a collection row, as Prisma reads it. */
const COLLECTION_COLUMNS = sql`"id", "slug", "namespace", "title", "description", "private", "ownerUserId", "ownerOrgId", "createdAt", "updatedAt"`

/** The collections after a position (updated at, id) of the listing's order. */
function collectionsAfter([updatedAt, id]: string[]): Sql {
  const at = cursorDate(updatedAt!)
  return sql`("updatedAt" < ${at} OR ("updatedAt" = ${at} AND "id" < ${id!}))`
}

/**
 * GET /api/collections: one page of the collections the caller may read (everyone's public ones,
 * and the private ones they may read), the most recently updated first: of `owners` when given,
 * holding every one of `items`, whose title or description holds `search` (whatever the case of
 * its letters, "%" and "_" taken literally, on both databases: lib/db/filters). Each comes with its
 * first visible items; `nextCursor` continues the listing, null at its end.
 */
export async function collectionListing(
  caller: Caller,
  query: { owners: string[]; items: string[]; search?: string; sort: string | null; limit: number; cursor: string | null },
) {
  if (query.sort !== null && !COLLECTION_SORTS.includes(query.sort)) {
    throw badRequest(`Invalid sort "${query.sort.slice(0, 40)}": use one of ${COLLECTION_SORTS.join(', ')}`)
  }
  const after = query.cursor ? cursorPosition(query.cursor, COLLECTIONS_ORDER, 2) : null
  const repoIds = await itemRepoIds(caller, query.items)
  if (repoIds === null) return { collections: [], nextCursor: null }
  const holding = [...new Set(repoIds)]
  // One statement whatever the number of owners and items (lib/db/filters isOneOf).
  const conditions: Sql[] = [
    ...(query.owners.length > 0 ? [isOneOf(sql`"namespace"`, query.owners)] : []),
    ...(query.search ? [sql`(${textMatches(sql`"title"`, query.search, 'contains')} OR ${textMatches(sql`"description"`, query.search, 'contains')})`] : []),
    // Holding every one: as many of them as there are (an item is in a collection once).
    ...(holding.length > 0
      ? [sql`(SELECT COUNT(*) FROM "CollectionItem" WHERE "CollectionItem"."collectionId" = "Collection"."id" AND ${isOneOf(sql`"CollectionItem"."repoId"`, holding)}) = ${holding.length}`]
      : []),
    // Anonymous callers read no private collection: those are not even read.
    ...(caller ? [] : [sql`NOT "private"`]),
  ]
  const where = conditions.length > 0 ? joinSql(conditions, ' AND ') : sql`1 = 1`
  const { rows: page, next } = await keysetPage({
    limit: query.limit,
    after,
    read: (after, take) =>
      rows<CollectionRow>(sql`
        SELECT ${COLLECTION_COLUMNS} FROM "Collection" WHERE ${where}${after ? sql` AND ${collectionsAfter(after)}` : sql``}
        ORDER BY "updatedAt" DESC, "id" DESC LIMIT ${take}`),
    position: (c) => [c.updatedAt.toISOString(), c.id],
    visible: (batch) => readableBy(caller, batch),
  })
  const items = await db.collectionItem.findMany({ where: { collectionId: { in: page.map((c) => c.id) } }, include: { repo: true }, orderBy: { position: 'asc' } })
  const collections = []
  for (const c of page) collections.push({ ...c, items: await visibleItems(caller, items.filter((i) => i.collectionId === c.id), ITEMS_LISTED) })
  return { collections, nextCursor: next ? listingCursor(COLLECTIONS_ORDER, next) : null }
}
