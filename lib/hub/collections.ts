// Collections: public or private lists of repos, owned by a user or an organization.
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { db } from '@/lib/db'
import { findNamespace } from '@/lib/hub/namespaces'
import { roleInOrg } from '@/lib/hub/orgs'
import { collectionDecision, type Caller, type CollectionAction } from '@/lib/policy'
import { mayViewRepo } from '@/lib/hub/repos'
import { denial, notFound } from '@/lib/http/errors'

export const createCollectionInput = z.object({
  namespace: z.string().min(1).max(42),
  title: z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters'),
  description: z.string().trim().max(150, 'must be at most 150 characters').default(''),
  private: z.boolean().default(false),
})

function slugify(title: string): string {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40)
  return `${base || 'collection'}-${randomBytes(12).toString('hex')}`
}

export async function createCollection(caller: Caller, input: z.input<typeof createCollectionInput>) {
  const data = createCollectionInput.parse(input)
  if (!caller) throw denial('unauthenticated')
  const owner = await findNamespace(data.namespace)
  if (!owner) throw notFound(`No user or organization named "${data.namespace}"`)
  const facts = { private: data.private, ownerUserId: owner.kind === 'user' ? owner.id : null, ownerOrgId: owner.kind === 'org' ? owner.id : null }
  const orgRole = owner.kind === 'org' ? await roleInOrg(caller.userId, owner.id) : null
  const decision = collectionDecision(caller, 'write', facts, orgRole)
  if (decision !== 'allow') throw denial(decision === 'not-found' ? 'forbidden' : decision, 'Collection')
  return db.collection.create({
    data: { ...facts, namespace: owner.name, title: data.title, description: data.description, slug: `${owner.name}/${slugify(data.title)}` },
  })
}

export async function authorizedCollection(caller: Caller, slug: string, action: CollectionAction) {
  const collection = await db.collection.findUnique({
    where: { slug },
    include: { items: { include: { repo: true }, orderBy: { position: 'asc' } } },
  })
  if (!collection) throw notFound('Collection not found')
  const orgRole = collection.ownerOrgId ? await roleInOrg(caller?.userId, collection.ownerOrgId) : null
  const decision = collectionDecision(caller, action, collection, orgRole)
  if (decision !== 'allow') throw denial(decision, 'Collection')
  // Items the caller may not see (private repos) are left out, wherever the collection is shown.
  const items = []
  for (const item of collection.items) if (await mayViewRepo(caller, item.repo)) items.push(item)
  return { ...collection, items }
}

export async function addToCollection(caller: Caller, slug: string, repoId: string, note = '') {
  const collection = await authorizedCollection(caller, slug, 'write')
  const repo = await db.repo.findUnique({ where: { id: repoId } })
  if (!repo || !(await mayViewRepo(caller, repo))) throw notFound('Repository not found')
  // After every item, counted over all items: some may be hidden from this caller.
  const last = await db.collectionItem.aggregate({ where: { collectionId: collection.id }, _max: { position: true } })
  const position = (last._max.position ?? -1) + 1
  return db.collectionItem.upsert({
    where: { collectionId_repoId: { collectionId: collection.id, repoId } },
    create: { collectionId: collection.id, repoId, position, note },
    update: { note },
  })
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
    items: collection.items.map((i) => ({
        _id: i.id,
        position: i.position,
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
