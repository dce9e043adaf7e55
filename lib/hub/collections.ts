// Collections: public or private lists of repos, owned by a user or an organization.
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { displayText } from '@/lib/display-text'
import { db } from '@/lib/db'
import { findNamespace } from '@/lib/hub/namespaces'
import { roleInOrg } from '@/lib/hub/orgs'
import { collectionDecision, type Caller, type CollectionAction, type OrgRole } from '@/lib/policy'
import { mayViewRepo } from '@/lib/hub/repos'
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
  return db.collection.create({
    data: { ...facts, id, namespace: owner.name, title: data.title, description: data.description, slug: collectionSlug(owner.name, data.title, id) },
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
  // Items the caller may not see (private repos) are left out, wherever the collection is shown.
  const items = []
  for (const item of collection.items) if (await mayViewRepo(caller, item.repo)) items.push(item)
  return { ...collection, items }
}

/** An item as the Hub's API names it: a repo by type and "namespace/name" (papers and collections are not kept here). */
export const collectionItemInput = z.object({
  item: z.object({
    type: z.enum(['model', 'dataset', 'space', 'paper', 'collection']),
    id: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  }),
  note: z.string().trim().max(500, 'must be at most 500 characters').default(''),
})

/**
 * Adds a repository to the collection after every item (or updates its note when it is there
 * already). `input` (collectionItemInput) is validated here: route handlers pass a body as it came.
 */
export async function addToCollection(caller: Caller, slug: string, input: unknown) {
  const { item, note } = collectionItemInput.parse(input)
  const collection = await authorizedCollection(caller, slug, 'write')
  if (item.type === 'paper' || item.type === 'collection') throw badRequest(`Items of type "${item.type}" are not supported: add a model, dataset or space`)
  const [namespace, name, ...extra] = item.id.split('/')
  const repo = namespace && name && extra.length === 0 ? await db.repo.findFirst({ where: { type: item.type, namespace, name } }) : null
  if (!repo || !(await mayViewRepo(caller, repo))) throw notFound(`No ${item.type} named "${item.id.slice(0, 200)}"`)
  // After every item, counted over all items: some may be hidden from this caller.
  const last = await db.collectionItem.aggregate({ where: { collectionId: collection.id }, _max: { position: true } })
  const position = (last._max.position ?? -1) + 1
  const row = await db.collectionItem.upsert({
    where: { collectionId_repoId: { collectionId: collection.id, repoId: repo.id } },
    create: { collectionId: collection.id, repoId: repo.id, position, note },
    update: { note },
  })
  // An item that was there already keeps its place (and gets the new note): it is not added again.
  return { item: row, added: row.position === position }
}

/** Removes one item; an item the caller cannot see is not found, as it is not shown to them. */
export async function removeFromCollection(caller: Caller, slug: string, itemId: string): Promise<void> {
  const collection = await authorizedCollection(caller, slug, 'write')
  if (!collection.items.some((item) => item.id === itemId)) throw notFound('Item not found in this collection')
  await db.collectionItem.delete({ where: { id: itemId } })
}

export async function deleteCollection(caller: Caller, slug: string) {
  const collection = await authorizedCollection(caller, slug, 'write')
  await db.collection.delete({ where: { id: collection.id } })
}

/** The Hub's collection JSON, of a collection as authorizedCollection returns it (visible items only). */
export function collectionJson(collection: Awaited<ReturnType<typeof authorizedCollection>>) {
  return {
    slug: collection.slug,
    title: collection.title,
    description: collection.description,
    private: collection.private,
    owner: { name: collection.namespace, type: collection.ownerOrgId ? 'org' : 'user' },
    lastUpdated: collection.updatedAt.toISOString(),
    // Positions among the items this caller sees: the stored ones would count the private repos
    // hidden before each item.
    items: collection.items.map((i, position) => ({
        _id: i.id,
        position,
        type: i.repo.type,
        id: `${i.repo.namespace}/${i.repo.name}`,
        private: i.repo.private,
        gated: i.repo.gated ? 'manual' : false,
        note: i.note ? { text: i.note } : undefined,
      })),
  }
}

export async function listCollections(caller: Caller, namespace: string) {
  const rows = await db.collection.findMany({ where: { namespace }, orderBy: { updatedAt: 'desc' } })
  const out = []
  for (const c of rows) {
    const orgRole = c.ownerOrgId ? await roleInOrg(caller?.userId, c.ownerOrgId) : null
    if (collectionDecision(caller, 'read', c, orgRole) === 'allow') out.push(c)
  }
  return out
}
