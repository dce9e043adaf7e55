// Repositories (models, datasets, spaces): create, delete, look up, list; gated access requests.
import { z } from 'zod'
import { db, rows, sql } from '@/lib/db'
import { findNamespace } from '@/lib/hub/namespaces'
import { roleInOrg } from '@/lib/hub/orgs'
import { repoName, REPO_TYPES, type RepoType } from '@/lib/hub/names'
import { displayText } from '@/lib/display-text'
import { createRepoDecision, repoDecision, type Caller, type Decision, type RepoAction, type RepoContext } from '@/lib/policy'
import { badRequest, conflict, denial, HubError, notFound } from '@/lib/http/errors'
import { isUniqueViolation } from '@/lib/hub/namespaces'
import type { CardMetadata } from '@/lib/hub/files/model-card'

export type RepoRow = NonNullable<Awaited<ReturnType<typeof db.repo.findFirst>>>

export const createRepoInput = z.object({
  type: z.enum(REPO_TYPES).default('model'),
  namespace: z.string().min(1, 'must not be empty').max(42),
  name: repoName,
  private: z.boolean().default(false),
  gated: z.boolean().default(false),
  description: displayText(500, { lines: true }).default(''),
})

/** The caller's context for a repo: their role in its organization and their gated access. */
export async function repoContext(caller: Caller, repo: Pick<RepoRow, 'id' | 'ownerOrgId' | 'gated'>): Promise<RepoContext> {
  if (!caller) return { orgRole: null, gatedAccepted: false }
  const [orgRole, access] = await Promise.all([
    repo.ownerOrgId ? roleInOrg(caller.userId, repo.ownerOrgId) : Promise.resolve(null),
    repo.gated ? db.gatedAccess.findUnique({ where: { repoId_userId: { repoId: repo.id, userId: caller.userId } } }) : Promise.resolve(null),
  ])
  return { orgRole, gatedAccepted: access?.status === 'accepted' }
}

/** Whether the caller may see the repo at all (private repos of others are not even listed). */
export async function mayViewRepo(caller: Caller, repo: RepoRow): Promise<boolean> {
  return repoDecision(caller, 'view', repo, await repoContext(caller, repo)) === 'allow'
}

/**
 * The repo at a path: what `db.repo.findUnique` on (type, namespace, name) answers, read as one
 * hand-written statement, because every repo API call and download starts here and Prisma's query
 * layer costs about twice the CPU of the same SELECT (bench/api/RESULTS.md).
 * tests/integration/hot-paths/repo-lookup.test.ts holds the two to the same rows.
 */
export async function findRepo(type: string, namespace: string, name: string): Promise<RepoRow | null> {
  const [row] = await rows<RepoRow>(sql`
    SELECT "id", "type", "namespace", "name", "private", "gated", "description", "ownerUserId", "ownerOrgId",
           "createdById", "createdByApp", "createdAt", "updatedAt"
    FROM "Repo" WHERE "type" = ${type} AND "namespace" = ${namespace} AND "name" = ${name}`)
  return row ?? null
}

/** Finds a repo and checks the caller may take `action` on it; throws 401/403/404 otherwise. */
export async function authorizedRepo(caller: Caller, type: RepoType, namespace: string, name: string, action: RepoAction) {
  const repo = await findRepo(type, namespace, name)
  if (!repo) throw repoNotFound()
  const ctx = await repoContext(caller, repo)
  const decision = repoDecision(caller, action, repo, ctx)
  if (decision !== 'allow') throw repoDenial(decision, repo, action)
  return { repo, ctx }
}

/** Missing, or private and not the caller's to see: one answer, with the Hub's X-Error-Code. */
const repoNotFound = () => new HubError(404, 'Repository not found', 'RepoNotFound')

/**
 * A refusal with the X-Error-Code huggingface_hub turns into its error classes (RepositoryNotFoundError,
 * GatedRepoError): without one, a refused HEAD of a download reads as a network failure there.
 */
function repoDenial(decision: Exclude<Decision, 'allow'>, repo: { type: string; namespace: string; name: string; gated: boolean }, action: RepoAction): HubError {
  if (decision === 'not-found') return repoNotFound()
  if (repo.gated && action === 'read') {
    const what = `${repo.type} ${repo.namespace}/${repo.name}`
    return decision === 'unauthenticated'
      ? new HubError(401, `Access to ${what} is restricted: sign in, and request access on its page`, 'GatedRepo')
      : new HubError(403, `Access to ${what} is restricted and you are not in its authorized list: request access on its page`, 'GatedRepo')
  }
  return denial(decision)
}

export async function createRepo(caller: Caller, input: z.input<typeof createRepoInput>) {
  const data = createRepoInput.parse(input)
  if (!caller) throw denial('unauthenticated')
  const owner = await findNamespace(data.namespace)
  if (!owner) throw notFound(`No user or organization named "${data.namespace}"`)
  const ownerRef =
    owner.kind === 'user'
      ? ({ kind: 'user', userId: owner.id } as const)
      : ({ kind: 'org', orgId: owner.id, role: await roleInOrg(caller.userId, owner.id) } as const)
  const decision = createRepoDecision(caller, ownerRef)
  if (decision !== 'allow') throw denial(decision === 'not-found' ? 'forbidden' : decision)
  try {
    return await db.repo.create({
      data: {
        type: data.type,
        namespace: owner.name,
        name: data.name,
        private: data.private,
        gated: data.gated,
        description: data.description,
        ownerUserId: owner.kind === 'user' ? owner.id : null,
        ownerOrgId: owner.kind === 'org' ? owner.id : null,
        createdById: caller.userId,
        createdByApp: caller.principal?.appId ?? null,
      },
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict('You already created this repo')
    throw e
  }
}

export async function deleteRepo(caller: Caller, type: RepoType, namespace: string, name: string) {
  const { repo } = await authorizedRepo(caller, type, namespace, name, 'manage')
  await db.repo.delete({ where: { id: repo.id } })
}

export async function updateRepoSettings(caller: Caller, type: RepoType, namespace: string, name: string, settings: { private?: boolean; gated?: boolean }) {
  const { repo } = await authorizedRepo(caller, type, namespace, name, 'manage')
  return db.repo.update({ where: { id: repo.id }, data: settings })
}

/** Repos of a namespace that the caller may see, newest first. */
export async function listRepos(caller: Caller, filter: { type?: RepoType; namespace?: string; search?: string; limit?: number }) {
  const rows = await db.repo.findMany({
    where: {
      type: filter.type,
      namespace: filter.namespace,
      name: filter.search ? { contains: filter.search } : undefined,
    },
    orderBy: { updatedAt: 'desc' },
    take: 1000,
  })
  const visible: RepoRow[] = []
  for (const repo of rows) {
    if (!repo.private) visible.push(repo)
    else if (caller && (await mayViewRepo(caller, repo))) visible.push(repo)
    if (visible.length >= (filter.limit ?? 100)) break
  }
  return visible
}

/** The files of a revision, for callers who may read them (lib/hub/files revisionSummary). */
export type RepoContent = { sha: string | null; lastModified: Date | null; siblings: { rfilename: string }[] }

type CardData = Readonly<CardMetadata>

const listOf = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value])
/** A card field that holds one non-empty text ("pipeline_tag: text-classification"), else null. */
export function cardText(value: string | string[] | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

/**
 * The tags the Hub lists for a repo, from its card: the card's own tags, its library and task,
 * `license:…`, its languages, `dataset:…` and `base_model:…`; each once, in that order.
 */
export function cardTags(card: CardData): string[] {
  return [
    ...new Set([
      ...listOf(card.tags),
      ...listOf(card.library_name),
      ...listOf(card.pipeline_tag),
      ...listOf(card.license).map((l) => `license:${l}`),
      ...listOf(card.language),
      ...listOf(card.datasets).map((d) => `dataset:${d}`),
      ...listOf(card.base_model).map((b) => `base_model:${b}`),
    ]),
  ]
}

/**
 * The Hub's repo-info JSON (what @huggingface/hub's modelInfo / datasetInfo / spaceInfo and the
 * listings read). `card` is README.md's metadata on the revision, which anyone who may see the repo
 * may read (a gated repo's card included); `content` (sha, files) only those who may read files.
 */
export function repoInfoJson(repo: RepoRow, content: RepoContent | null, card: CardData = {}) {
  return {
    _id: repo.id,
    id: `${repo.namespace}/${repo.name}`,
    author: repo.namespace,
    private: repo.private,
    gated: repo.gated ? 'manual' : false,
    disabled: false,
    downloads: 0,
    likes: 0,
    createdAt: repo.createdAt.toISOString(),
    lastModified: (content?.lastModified ?? repo.updatedAt).toISOString(),
    description: repo.description,
    ...(repo.type === 'model' ? { pipeline_tag: cardText(card.pipeline_tag), library_name: cardText(card.library_name) } : {}),
    ...(repo.type === 'space' ? { sdk: cardText(card.sdk) ?? 'static' } : {}),
    tags: cardTags(card),
    ...(Object.keys(card).length > 0 ? { cardData: card } : {}),
    // File listings are content: only for callers who may read it (gated repos need granted access).
    ...(content ? { sha: content.sha, siblings: content.siblings } : {}),
  }
}

// ---------------------------------------------------------------- gated access

export async function requestGatedAccess(caller: Caller, type: RepoType, namespace: string, name: string) {
  if (!caller) throw denial('unauthenticated')
  const { repo } = await authorizedRepo(caller, type, namespace, name, 'view')
  if (!repo.gated) throw badRequest('This repository is not gated')
  return db.gatedAccess.upsert({
    where: { repoId_userId: { repoId: repo.id, userId: caller.userId } },
    create: { repoId: repo.id, userId: caller.userId },
    update: {},
  })
}

/** Pending access requests to every gated repo the caller may manage (their own, and their organizations'), oldest first. */
export async function pendingAccessRequests(caller: NonNullable<Caller>) {
  const memberships = await db.membership.findMany({ where: { userId: caller.userId }, select: { orgId: true } })
  const candidates = await db.repo.findMany({
    where: { gated: true, OR: [{ ownerUserId: caller.userId }, { ownerOrgId: { in: memberships.map((m) => m.orgId) } }] },
  })
  const managed: RepoRow[] = []
  for (const repo of candidates) {
    if (repoDecision(caller, 'manage', repo, await repoContext(caller, repo)) === 'allow') managed.push(repo)
  }
  const requests = await db.gatedAccess.findMany({
    where: { status: 'pending', repoId: { in: managed.map((r) => r.id) } },
    include: { user: { select: { username: true } } },
    orderBy: { createdAt: 'asc' },
  })
  const byId = new Map(managed.map((r) => [r.id, r]))
  return requests.map((r) => ({ repo: byId.get(r.repoId)!, userId: r.userId, username: r.user.username, requestedAt: r.createdAt }))
}

/** The caller's own requests for access to gated repos, newest first, with their answers (repos they can no longer see are left out). */
export async function myAccessRequests(caller: NonNullable<Caller>) {
  const rows = await db.gatedAccess.findMany({ where: { userId: caller.userId }, include: { repo: true }, orderBy: { createdAt: 'desc' } })
  const visible = []
  for (const row of rows) {
    if (repoDecision(caller, 'view', row.repo, await repoContext(caller, row.repo)) === 'allow') {
      visible.push({ repo: row.repo, status: row.status as 'pending' | 'accepted' | 'rejected', requestedAt: row.createdAt, answeredAt: row.status === 'pending' ? null : row.updatedAt })
    }
  }
  return visible
}

export async function decideGatedAccess(caller: Caller, repoId: string, userId: string, status: 'accepted' | 'rejected') {
  const repo = await db.repo.findUnique({ where: { id: repoId } })
  if (!repo) throw notFound('Repository not found')
  const decision = repoDecision(caller, 'manage', repo, await repoContext(caller, repo))
  if (decision !== 'allow') throw denial(decision)
  const { count } = await db.gatedAccess.updateMany({ where: { repoId, userId }, data: { status } })
  if (count === 0) throw notFound('No access request from this user')
}

/** A user's own repositories, for pickers on their settings pages. */
export async function reposOwnedBy(userId: string) {
  return db.repo.findMany({ where: { ownerUserId: userId }, orderBy: [{ type: 'asc' }, { name: 'asc' }], select: { type: true, namespace: true, name: true } })
}

/**
 * What the repository page may show this caller: the repo (null when it does not exist or the caller
 * may not know it does), what the caller may do, their own access request, and (for managers) the
 * pending requests.
 */
export async function repoPageView(caller: Caller, type: RepoType, namespace: string, name: string) {
  const repo = await db.repo.findUnique({ where: { type_namespace_name: { type, namespace, name } } })
  if (!repo) return null
  const ctx = await repoContext(caller, repo)
  if (repoDecision(caller, 'view', repo, ctx) !== 'allow') return null
  const may = (action: RepoAction) => repoDecision(caller, action, repo, ctx) === 'allow'
  const mayManage = may('manage')
  const [myRequest, pending] = await Promise.all([
    caller && repo.gated ? db.gatedAccess.findUnique({ where: { repoId_userId: { repoId: repo.id, userId: caller.userId } } }) : null,
    mayManage && repo.gated ? db.gatedAccess.findMany({ where: { repoId: repo.id, status: 'pending' }, include: { user: true } }) : [],
  ])
  return { repo, mayRead: may('read'), mayWrite: may('write'), mayManage, myRequest, pending }
}

