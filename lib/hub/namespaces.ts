// A namespace is a user name or an organization name; both share one space of names.
import { db, type Tx } from '@/lib/db'
import { conflict } from '@/lib/http/errors'

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
