// Finding a repo's files: access through lib/policy (via authorizedRepo), revisions (a branch name
// or a commit id) and the tree of a commit.
import { db } from '@/lib/db'
import { authorizedRepo, type RepoRow } from '@/lib/hub/repos'
import type { RepoType } from '@/lib/hub/names'
import type { Caller, RepoAction } from '@/lib/policy'
import { HubError } from '@/lib/http/errors'
import { COMMIT_ID } from './git'

export type RepoRef = { type: RepoType; namespace: string; name: string }
export type CommitRow = NonNullable<Awaited<ReturnType<typeof db.repoCommit.findUnique>>>
export type EntryRow = Awaited<ReturnType<typeof db.treeEntry.findMany>>[number]

export const DEFAULT_BRANCH = 'main'

export function repoAccess(caller: Caller, ref: RepoRef, action: RepoAction): Promise<{ repo: RepoRow }> {
  return authorizedRepo(caller, ref.type, ref.namespace, ref.name, action)
}

/** A model card stays readable in gated repos, as on the Hub; every other file needs read access. */
export function actionToRead(path: string): RepoAction {
  return path.toLowerCase() === 'readme.md' ? 'view' : 'read'
}

export const revisionNotFound = (revision: string) => new HubError(404, `Invalid rev id: ${revision}`, 'RevisionNotFound')
export const entryNotFound = (path: string) => new HubError(404, `Entry not found: ${path}`, 'EntryNotFound')

/**
 * The commit a revision names: a branch, HEAD, or a commit id of this repo. A repo without any commit
 * has an empty `main` (null); any other unknown revision is 404 RevisionNotFound.
 */
export async function resolveRevision(repoId: string, requested: string): Promise<CommitRow | null> {
  // HEAD is the default branch (modelInfo and friends ask for revision/HEAD).
  const revision = requested === 'HEAD' ? DEFAULT_BRANCH : requested
  const ref = await db.repoRef.findUnique({ where: { repoId_name: { repoId, name: revision } } })
  if (ref) return db.repoCommit.findUnique({ where: { id: ref.commitId } })
  if (COMMIT_ID.test(revision)) {
    const commit = await db.repoCommit.findUnique({ where: { id: revision } })
    if (commit && commit.repoId === repoId) return commit
  }
  if (revision === DEFAULT_BRANCH && (await db.repoRef.count({ where: { repoId } })) === 0) return null
  throw revisionNotFound(revision)
}

export function treeOf(commitId: string | null | undefined): Promise<EntryRow[]> {
  if (!commitId) return Promise.resolve([])
  return db.treeEntry.findMany({ where: { commitId }, orderBy: { path: 'asc' } })
}

export async function entryAt(commitId: string | null | undefined, path: string): Promise<EntryRow | null> {
  if (!commitId) return null
  return db.treeEntry.findUnique({ where: { commitId_path: { commitId, path } } })
}
