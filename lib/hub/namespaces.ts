// A namespace is a user name or an organization name; both share one space of names.
import { db, rows, sql, type Tx } from '@/lib/db'
import { conflict } from '@/lib/http/errors'
import { repoTypeFromPlural } from '@/lib/hub/names'

export type Namespace =
  | { kind: 'user'; id: string; name: string }
  | { kind: 'org'; id: string; name: string }

export async function findNamespace(name: string, tx: Tx = db): Promise<Namespace | null> {
  const user = await tx.user.findUnique({ where: { username: name }, select: { id: true, username: true } })
  if (user) return { kind: 'user', id: user.id, name: user.username }
  const org = await tx.org.findUnique({ where: { name }, select: { id: true, name: true } })
  return org ? { kind: 'org', id: org.id, name: org.name } : null
}

/** Claims a name for a new user or organization; 409 when it is taken in any letter case. */
export async function claimName(name: string, kind: 'user' | 'org', tx: Tx): Promise<void> {
  const key = name.toLowerCase()
  if (await tx.nameClaim.findUnique({ where: { key } })) throw conflict(`The name "${name}" is already taken`)
  await tx.nameClaim.create({ data: { key, kind } })
}

/** Prisma's unique-constraint error: a concurrent request took the same name or key. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'P2002'
}

/** What a profile page shows of a namespace: the user, or the organization with its members (public on the hub). */
export async function namespaceProfile(name: string) {
  const owner = await findNamespace(name)
  if (!owner) return null
  const user = owner.kind === 'user' ? await db.user.findUnique({ where: { id: owner.id } }) : null
  const org = owner.kind === 'org' ? await db.org.findUnique({ where: { id: owner.id }, include: { members: { include: { user: true }, orderBy: { createdAt: 'asc' } } } }) : null
  return { owner, user, org }
}

/**
 * "Deleted …" after a repository or collection of this namespace was deleted (deleteRepoAction,
 * deleteCollectionAction): said only while nothing by that name exists, so a link cannot make the
 * page claim a deletion that did not happen, and only to the namespace's own user or to the
 * organization's members: they see its private repositories anyway, while to anyone else whether
 * the notice shows would tell that a private repository by that name exists.
 */
export async function deletedNotice(owner: Namespace, value: unknown, viewerId: string | null): Promise<string | null> {
  if (typeof value !== 'string' || !viewerId) return null
  const insider = owner.kind === 'user' ? viewerId === owner.id : await db.membership.findUnique({ where: { orgId_userId: { orgId: owner.id, userId: viewerId } }, select: { role: true } })
  if (!insider) return null
  const namespace = owner.name
  const collection = /^collections\/(.+)$/.exec(value)
  if (collection) {
    const slug = collection[1]!
    if (!slug.startsWith(`${namespace}/`) || (await db.collection.findUnique({ where: { slug }, select: { id: true } }))) return null
    return 'The collection was deleted.'
  }
  const repo = /^(?:(datasets|spaces)\/)?([^/]+)\/([^/]+)$/.exec(value)
  if (!repo || repo[2] !== namespace) return null
  const type = repo[1] ? repoTypeFromPlural(repo[1])! : 'model'
  // In any letter case, as repo ids are read (the unique index on lower(namespace), lower(name)).
  const [exists] = await rows(sql`SELECT 1 AS "found" FROM "Repo" WHERE "type" = ${type} AND lower("namespace") = lower(${namespace}) AND lower("name") = lower(${repo[3]!})`)
  if (exists) return null
  return `${repo[2]}/${repo[3]} was deleted.`
}
