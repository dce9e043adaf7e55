// Finding a repo's files: access through lib/policy (via authorizedRepo), revisions (a branch name
// or a commit id) and the tree of a commit.
import { processState } from '@/lib/config/process-state'
import { db, lockRow, rows, sql, statementsIn, type Tx } from '@/lib/db'
import { authorizedRepo, type RepoRow } from '@/lib/hub/repos'
import type { RepoType } from '@/lib/hub/names'
import type { Caller, RepoAction } from '@/lib/policy'
import { HubError } from '@/lib/http/errors'
import { COMMIT_ID } from './git'
import { DEFAULT_BRANCH, branchNamed } from './paths'

export type RepoRef = { type: RepoType; namespace: string; name: string }
export type CommitRow = NonNullable<Awaited<ReturnType<typeof db.repoCommit.findUnique>>>
export type EntryRow = Awaited<ReturnType<typeof db.treeEntry.findMany>>[number]

export { DEFAULT_BRANCH }

export function repoAccess(caller: Caller, ref: RepoRef, action: RepoAction): Promise<{ repo: RepoRow }> {
  return authorizedRepo(caller, ref.type, ref.namespace, ref.name, action)
}

/**
 * The model card stays readable in gated repos, as on the Hub; every other file needs read access.
 * The card is README.md exactly (model-card.ts reads no other spelling): readme.md or ReadMe.md at
 * the root are other files, gated like the rest.
 */
export function actionToRead(path: string): RepoAction {
  return path === 'README.md' ? 'view' : 'read'
}

export const revisionNotFound = (revision: string) => new HubError(404, `Invalid rev id: ${revision}`, 'RevisionNotFound')
/** With the commit that was looked in, when there is one: huggingface_hub then remembers the file
 * as missing at that commit (.no_exist) instead of asking again on every load. */
export const entryNotFound = (path: string, commitId?: string) =>
  new HubError(404, `Entry not found: ${path}`, 'EntryNotFound', undefined, commitId ? { 'X-Repo-Commit': commitId } : undefined)

/**
 * The commit a revision names, as git reads one: a branch (or `refs/heads/{branch}`), HEAD, a commit
 * id of this repo or the first 7 or more hex digits of one that no other commit of it shares. A repo
 * without any commit has an empty `main` (null); any other unknown revision is 404 RevisionNotFound.
 */
export async function resolveRevision(repoId: string, requested: string): Promise<CommitRow | null> {
  // HEAD is the default branch (modelInfo and friends ask for revision/HEAD); writes read names the same way.
  const revision = branchNamed(requested)
  // One hand-written statement: every read of a branch asks it (Prisma's findUnique costs about
  // twice the CPU; tests/integration/hot-paths/repo-lookup.test.ts holds both to the same answer).
  const [ref] = await rows<{ commitId: string }>(sql`SELECT "commitId" FROM "RepoRef" WHERE "repoId" = ${repoId} AND "name" = ${revision}`)
  if (ref) return commitById(ref.commitId)
  if (COMMIT_ID.test(revision)) {
    const commit = await commitById(revision)
    if (commit && commit.repoId === repoId) return commit
  }
  if (SHORT_COMMIT_ID.test(revision)) {
    const found = await db.repoCommit.findMany({ where: { repoId, id: { startsWith: revision } }, select: { id: true }, take: 2 })
    if (found.length === 1) return commitById(found[0]!.id)
  }
  if (revision === DEFAULT_BRANCH && (await db.repoRef.count({ where: { repoId } })) === 0) return null
  throw revisionNotFound(revision)
}

/** An abbreviated commit id, as git prints them (7 hex digits at least). */
export const SHORT_COMMIT_ID = /^[0-9a-f]{7,39}$/

/**
 * `{revision}/{path}` from the segments of a URL whose revision was not encoded: @huggingface/hub's
 * listFiles sends `tree/feat/x/folder` for the branch feat/x (and `tree/refs/heads/feat/x/folder`
 * for refs/heads/feat/x). The longest leading segments that name a branch are the revision; when
 * none does, the first segment is (a commit id, HEAD, a one-segment branch, or unknown: 404).
 * A branch cannot also be a folder of branches (lockBranchName), so at most one can match, except
 * in a database written before that rule, where the longest still wins.
 */
export async function revisionAndPath(repoId: string, segments: string[]): Promise<{ revision: string; path: string }> {
  const full = segments[0] === 'refs' && segments[1] === 'heads' && segments.length > 2
  const rest = full ? segments.slice(2) : segments
  if (rest.length > 1) {
    const candidates = rest.slice(0, -1).map((_, i) => rest.slice(0, i + 2).join('/'))
    const branches = await db.repoRef.findMany({ where: { repoId, name: { in: candidates } }, select: { name: true } })
    const longest = branches.map((b) => b.name).sort((a, b) => b.length - a.length)[0]
    // As a full ref name: resolveRevision reads exactly this branch (one named HEAD too).
    if (longest) return { revision: `refs/heads/${longest}`, path: rest.slice(longest.split('/').length).join('/') }
  }
  if (full) return { revision: `refs/heads/${rest[0]}`, path: rest.slice(1).join('/') }
  return { revision: segments[0] ?? DEFAULT_BRANCH, path: segments.slice(1).join('/') }
}

/**
 * Before `name` becomes a branch of the repo, inside the transaction that creates it: locks the
 * repo's row (so two creations of `a` and `a/b` cannot both pass) and refuses (400) a name that
 * is a folder of an existing branch or has one as its folder. git keeps refs/heads/{name} as a
 * file, so `a` and `a/b` cannot both be branches, and a URL `tree/a/b` would be ambiguous.
 */
export async function lockBranchName(tx: Tx, repoId: string, name: string): Promise<void> {
  await lockRow(statementsIn(tx), 'Repo', repoId)
  // Compared here, not with LIKE: SQLite's ignores case, and '_' would match any character.
  // The default branch counts before its first commit too: reads treat it as there (empty).
  const refs = [...(await tx.repoRef.findMany({ where: { repoId }, select: { name: true } })), { name: DEFAULT_BRANCH }]
  const inTheWay = refs.find((r) => name.startsWith(`${r.name}/`) || r.name.startsWith(`${name}/`))
  if (inTheWay) {
    throw new HubError(400, `Invalid reference for a branch: "${name}" conflicts with the existing branch "${inTheWay.name}" (as in git, a branch cannot also be a folder of branches)`)
  }
}

// A commit and its tree never change once written (nothing updates them; deleting a repo deletes
// them, and a later commit has a new id), so a process keeps the ones it read last and a bearer-
// token read of a branch costs one statement for the branch instead of three. Bounded: COMMITS
// rows, and trees of at most TREE_ENTRIES entries in all (a larger tree is read each time). What is
// handed out is frozen: callers share it.
const COMMITS = 2000
const TREE_ENTRIES = 50_000
const immutable = processState('commitCache', () => ({
  commits: new Map<string, Readonly<CommitRow>>(),
  trees: new Map<string, readonly Readonly<EntryRow>[]>(),
  treeEntries: 0,
}))

/** A Map as a small LRU: a hit moves to the end, the oldest go first. */
export function touch<V>(map: Map<string, V>, key: string): V | undefined {
  const value = map.get(key)
  if (value !== undefined) {
    map.delete(key)
    map.set(key, value)
  }
  return value
}

/** Adds `value` as the newest entry of a small LRU, dropping the oldest beyond `max` entries. */
export function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.set(key, value)
  for (const oldest of map.keys()) {
    if (map.size <= max) break
    map.delete(oldest)
  }
}

async function commitById(id: string): Promise<CommitRow | null> {
  const cached = touch(immutable.commits, id)
  if (cached) return cached as CommitRow
  const row = await db.repoCommit.findUnique({ where: { id } })
  if (!row) return null
  remember(immutable.commits, id, Object.freeze(row), COMMITS)
  return row
}

export async function treeOf(commitId: string | null | undefined): Promise<EntryRow[]> {
  if (!commitId) return []
  const cached = touch(immutable.trees, commitId)
  if (cached) return cached as EntryRow[]
  const entries = await db.treeEntry.findMany({ where: { commitId }, orderBy: { path: 'asc' } })
  if (entries.length > TREE_ENTRIES / 10) return entries
  for (const entry of entries) Object.freeze(entry)
  if (immutable.trees.has(commitId)) return entries // read at the same time by another request
  immutable.trees.set(commitId, Object.freeze(entries))
  immutable.treeEntries += entries.length
  for (const [oldest, tree] of immutable.trees) {
    if (immutable.treeEntries <= TREE_ENTRIES) break
    immutable.trees.delete(oldest)
    immutable.treeEntries -= tree.length
  }
  return entries
}

type RawEntry = Omit<EntryRow, 'size'> & { size: number }

/**
 * One file of a commit's tree: from the tree when this process holds it, else one hand-written
 * statement (every download asks; Prisma's findUnique cost about a tenth of a 1 MB download's
 * CPU). tests/integration/hot-paths/repo-lookup.test.ts holds it to what findUnique answers.
 */
export async function entryAt(commitId: string | null | undefined, path: string): Promise<EntryRow | null> {
  if (!commitId) return null
  const tree = immutable.trees.get(commitId)
  if (tree) return (tree.find((e) => e.path === path) as EntryRow | undefined) ?? null
  const [row] = await rows<RawEntry>(sql`
    SELECT "commitId", "path", "blobSha256", "size", "gitOid", "lfs", "lastCommitId"
    FROM "TreeEntry" WHERE "commitId" = ${commitId} AND "path" = ${path}`)
  // Prisma reads BigInt columns as bigint; hand-written statements answer numbers.
  return row ? { ...row, size: BigInt(row.size) } : null
}
