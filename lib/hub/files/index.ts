// Repository files: what routes and pages call. See each module for its part of the protocol.
import { db } from '@/lib/db'
import { authorizedRepo, deleteRepo } from '@/lib/hub/repos'
import type { RepoType } from '@/lib/hub/names'
import type { Caller } from '@/lib/policy'
import { removeUnreferencedBlobs } from './blobs'

export { createCommit, inlineFileValue, readCommitBody, storedLfsFile, type CommitOperation, type CommitHeader } from './commit'
export { createRepoWithFiles, initialOperations, SPACE_SDKS } from './initial-commit'
export { firstCommitGitAttributes } from './gitattributes'
export { lfsBatch, uploadObject, uploadPart, completeUpload, verifyObject } from './lfs'
export { fileResponse, parseRange } from './resolve'
export { fileView, MAX_VIEW_BYTES, type FileView } from './view'
export { listTree, pathsInfo, listCommits, MAX_COMMITS_PAGE, revisionSummary, type TreeItem, type CommitView } from './tree'
export { createBranch, deleteBranch, listRefs } from './branches'
export { preupload } from './preupload'
export { repoAccess, resolveRevision, treeOf, DEFAULT_BRANCH, type RepoRef } from './revisions'
export { removeUnreferencedBlobs } from './blobs'
export { fileLimits } from './limits'

/** Deletes a repo with its commits, and the blobs that no other repo refers to. */
export async function deleteRepoWithFiles(caller: Caller, type: RepoType, namespace: string, name: string) {
  const { repo } = await authorizedRepo(caller, type, namespace, name, 'manage')
  const blobs = await db.treeEntry.findMany({ where: { commit: { repoId: repo.id } }, select: { blobSha256: true }, distinct: ['blobSha256'] })
  await deleteRepo(caller, type, namespace, name)
  await removeUnreferencedBlobs({ candidates: blobs.map((b) => b.blobSha256) })
}
export { readModelCard, parseFrontMatter, splitFrontMatter, cardMetadataAt, defaultBranchCards, type ModelCard, type CardMetadata } from './model-card'
export { storeBlob } from './blobs'
