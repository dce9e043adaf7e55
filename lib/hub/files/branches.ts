// Branches: create (from a revision, or empty), delete, list. `main` is the default and stays.
// A branch is named as reads name it (branchNamed: `refs/heads/X` is X); a new one follows git's
// rules (checkedBranchName) and cannot be a folder of another nor sit in one (lockBranchName).
import { db } from '@/lib/db'
import type { Caller } from '@/lib/policy'
import { HubError, conflict } from '@/lib/http/errors'
import { branchNamed, checkedBranchName } from './paths'
import { createCommit } from './commit'
import { DEFAULT_BRANCH, lockBranchName, repoAccess, resolveRevision, revisionNotFound, type RepoRef } from './revisions'

export async function createBranch(caller: Caller, ref: RepoRef, requested: string, body: { startingPoint?: unknown; emptyBranch?: unknown; overwrite?: unknown }) {
  const branch = checkedBranchName(requested)
  const { repo } = await repoAccess(caller, ref, 'write')
  const existing = await db.repoRef.findUnique({ where: { repoId_name: { repoId: repo.id, name: branch } } })
  if (existing && body.overwrite !== true) throw conflict(`Branch ${branch} already exists`)
  if (body.emptyBranch === true) {
    // An empty branch starts with a commit of no files, as on the Hub (createCommit checks the name against the other branches).
    await createCommit(caller!, repo, branch, { summary: `Create empty branch ${branch}`, description: '', parentCommit: null }, [], { emptyTree: true })
    return
  }
  const from = typeof body.startingPoint === 'string' && body.startingPoint ? body.startingPoint : DEFAULT_BRANCH
  const start = await resolveRevision(repo.id, from)
  if (!start) throw new HubError(400, `${from} has no commit yet; create the branch with emptyBranch or commit first`)
  await db.$transaction(async (tx) => {
    if (!existing) await lockBranchName(tx, repo.id, branch)
    await tx.repoRef.upsert({
      where: { repoId_name: { repoId: repo.id, name: branch } },
      create: { repoId: repo.id, name: branch, commitId: start.id },
      update: { commitId: start.id },
    })
  })
}

export async function deleteBranch(caller: Caller, ref: RepoRef, requested: string) {
  const { repo } = await repoAccess(caller, ref, 'write')
  const branch = branchNamed(requested)
  if (branch === DEFAULT_BRANCH) throw new HubError(403, 'The default branch cannot be deleted')
  const { count } = await db.repoRef.deleteMany({ where: { repoId: repo.id, name: branch } })
  if (count === 0) throw revisionNotFound(requested)
}

/** GET /api/{type}s/{ns}/{name}/refs: the Hub's shape (tags and converts are not kept). */
export async function listRefs(caller: Caller, ref: RepoRef) {
  const { repo } = await repoAccess(caller, ref, 'read')
  const refs = await db.repoRef.findMany({ where: { repoId: repo.id }, orderBy: { name: 'asc' } })
  return { branches: refs.map((r) => ({ name: r.name, ref: `refs/heads/${r.name}`, targetCommit: r.commitId })), tags: [], converts: [] }
}
