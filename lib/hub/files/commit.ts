// Commits: the NDJSON body the Hub's clients send (a header line, then file, lfsFile, deletedFile
// and deletedFolder lines), applied to a branch's head as one new immutable snapshot.
//
// Concurrent commits to one branch: each builds its snapshot from the head it read and moves the
// branch only if the head is still that commit (a compare-and-set in the transaction). The loser
// re-reads the head and applies its operations again, so neither loses the other's files. A
// commit that names parentCommit is instead refused (412) when the head has moved.
import { Readable } from 'node:stream'
import { z } from 'zod'
import { db, joinSql, sql, statementsIn, type Tx } from '@/lib/db'
import { recordAudit } from '@/lib/hub/audit'
import { usernameOf } from '@/lib/hub/users'
import type { RepoRow } from '@/lib/hub/repos'
import type { Caller } from '@/lib/policy'
import { HubError, badRequest } from '@/lib/http/errors'
import { requestBodyStream } from '@/lib/http/body'
import { isUniqueViolation } from '@/lib/hub/namespaces'
import { fileLimits } from './limits'
import { branchNamed, checkedFolder, checkedPath, describeValue } from './paths'
import { COMMIT_ID, SHA256, gitBlobOid, lfsPointer, newCommitId } from './git'
import { lockStoredBlobs, recordRepoBlobs, storeBlob, storedSizes } from './blobs'
import { DEFAULT_BRANCH, lockBranchName, revisionNotFound, entryNotFound } from './revisions'

export type CommitHeader = { summary: string; description: string; parentCommit: string | null }

export type CommitOperation =
  | { kind: 'file'; path: string; content: Buffer }
  /** An inline file whose bytes are already in the blob store (readCommitBody stores each as it arrives). */
  | { kind: 'storedFile'; file: StagedFile }
  | { kind: 'lfsFile'; path: string; sha256: string; size: number }
  | { kind: 'deletedFile'; path: string }
  | { kind: 'deletedFolder'; path: string }

/** A file ready to enter a tree: its blob is stored and recorded. */
type StagedFile = { path: string; blobSha256: string; size: number; gitOid: string; lfs: boolean }
type StagedOperation = { kind: 'put'; file: StagedFile } | { kind: 'deletedFile' | 'deletedFolder'; path: string }

const headerValue = z.object({
  summary: z.string().trim().min(1, 'summary must not be empty').max(2000),
  description: z.string().max(65_536).optional().default(''),
  // huggingface_hub: "shorthands (7 first characters) are also supported".
  parentCommit: z.string().regex(/^[0-9a-f]{7,40}$/, 'parentCommit must be a commit id (7 to 40 hex digits)').nullish(),
})
/** An inline file as the commit API takes it (and createRepo's `files`): its path, and its content in base64 or UTF-8. */
export const inlineFileValue = z.object({ path: z.string(), content: z.string(), encoding: z.enum(['base64', 'utf-8']).optional().default('base64') })
/** Standard base64 as clients write it (no line breaks; padding optional). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const lfsValue = z.object({ path: z.string(), oid: z.string().regex(SHA256, 'oid must be a sha256'), size: z.number().int().nonnegative(), algo: z.literal('sha256').optional() })
const pathValue = z.object({ path: z.string() })

function invalid(message: string) {
  return new HubError(422, message)
}

/**
 * The body's non-blank lines as they arrive: at most one line is held at a time, so a commit's
 * inline files never sit in memory together. 413 past the per-commit limit; 422 for a line longer
 * than the largest inline file can make it.
 */
async function* ndjsonLines(body: AsyncIterable<Uint8Array>, maxBodyBytes: number, maxLineBytes: number, maxInlineFileBytes: number): AsyncGenerator<string> {
  let pending: Buffer[] = []
  let pendingBytes = 0
  let total = 0
  const line = () => {
    const text = Buffer.concat(pending).toString('utf8')
    pending = []
    pendingBytes = 0
    return text
  }
  for await (const chunk of body) {
    total += chunk.length
    if (total > maxBodyBytes) throw commitTooLarge(maxBodyBytes)
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    let start = 0
    for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
      pending.push(bytes.subarray(start, end))
      start = end + 1
      const text = line()
      if (text.trim() !== '') yield text
    }
    if (start < bytes.length) {
      // Copied: the chunk's memory may be reused by the stream once this loop asks for the next one.
      pending.push(Buffer.from(bytes.subarray(start)))
      pendingBytes += bytes.length - start
      if (pendingBytes > maxLineBytes) throw invalid(`A line of the commit is longer than ${maxLineBytes} bytes: files over ${maxInlineFileBytes} bytes must be uploaded through LFS (preupload says which)`)
    }
  }
  const last = line()
  if (last.trim() !== '') yield last
}

/**
 * Reads the NDJSON body line by line within the per-commit size limit (413 past it, 400/422 for
 * malformed lines). Inline files go to the blob store as their line arrives; a commit refused
 * later leaves them unreferenced, and the blob cleanup removes them after its grace period.
 * `repoId`: the repo the commit is for, which claims each inline file as it is stored
 * (stageInlineFile), so that a cleanup of the same bytes at that moment does not remove them.
 */
export async function readCommitBody(request: Request, repoId: string): Promise<{ header: CommitHeader; operations: CommitOperation[] }> {
  const limits = fileLimits()
  if (Number(request.headers.get('content-length') ?? 0) > limits.maxCommitBodyBytes) throw commitTooLarge(limits.maxCommitBodyBytes)
  // base64 of the largest inline file, plus the JSON around it and a header's description.
  const maxLineBytes = Math.ceil(limits.maxInlineFileBytes / 3) * 4 + 128 * 1024
  const body = requestBodyStream(request) as AsyncIterable<Uint8Array>
  let header: CommitHeader | null = null
  const operations: CommitOperation[] = []
  let index = -1
  for await (const line of ndjsonLines(body, limits.maxCommitBodyBytes, maxLineBytes, limits.maxInlineFileBytes)) {
    index++
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch {
      throw badRequest(`Line ${index + 1} of the commit is not JSON`)
    }
    const { key, value } = (parsed ?? {}) as { key?: unknown; value?: unknown }
    const at = `line ${index + 1} (${typeof key === 'string' ? key.slice(0, 100) : describeValue(key)})`
    const parse = <T>(schema: z.ZodType<T>): T => {
      const result = schema.safeParse(value)
      if (!result.success) throw invalid(`Invalid ${at}: ${result.error.issues.map((i) => i.message).join('; ')}`)
      return result.data
    }
    if (key === 'header') {
      if (index !== 0) throw invalid('The header must be the first line of the commit')
      const h = parse(headerValue)
      header = { summary: h.summary, description: h.description, parentCommit: h.parentCommit ?? null }
      continue
    }
    if (!header) throw invalid('The commit must start with a header line')
    if (operations.length >= limits.maxCommitOperations) throw invalid(`A commit may hold at most ${limits.maxCommitOperations} operations`)
    switch (key) {
      case 'file': {
        const v = parse(inlineFileValue)
        const content = inlineFileContent(v.path, v.content, v.encoding)
        operations.push({ kind: 'storedFile', file: await stageInlineFile(checkedPath(v.path), content, repoId) })
        break
      }
      case 'lfsFile': {
        const v = parse(lfsValue)
        if (v.size > limits.maxFileBytes) throw fileTooLarge(v.path, limits.maxFileBytes)
        operations.push({ kind: 'lfsFile', path: checkedPath(v.path), sha256: v.oid, size: v.size })
        break
      }
      case 'deletedFile':
        operations.push({ kind: 'deletedFile', path: checkedPath(parse(pathValue).path) })
        break
      case 'deletedFolder':
        operations.push({ kind: 'deletedFolder', path: checkedFolder(parse(pathValue).path) })
        break
      default:
        throw invalid(`Unknown operation ${at}`)
    }
  }
  if (!header) throw invalid('The commit has no header line')
  return { header, operations }
}

/**
 * An inline file's bytes: base64 (what the clients send) or UTF-8 text (the commit API's other
 * encoding); 422 for content that is not base64, or a file over the inline limit.
 */
export function inlineFileContent(path: string, content: string, encoding: 'base64' | 'utf-8'): Buffer {
  if (encoding === 'base64' && !BASE64.test(content)) throw invalid(`${path}: the content is not base64`)
  const bytes = Buffer.from(content, encoding === 'base64' ? 'base64' : 'utf8')
  const { maxInlineFileBytes } = fileLimits()
  if (bytes.length > maxInlineFileBytes) throw invalid(`${path}: files over ${maxInlineFileBytes} bytes must be uploaded through LFS (preupload says which)`)
  return bytes
}

/**
 * An LFS file whose bytes the caller has just put in the store for this commit (storeBlob: seeding,
 * tools); the commit makes them the repo's, as an upload signed for the repo would.
 */
export function storedLfsFile(path: string, sha256: string, size: number): CommitOperation {
  return { kind: 'storedFile', file: { path: checkedPath(path), blobSha256: sha256, size, gitOid: gitBlobOid(lfsPointer(sha256, size)), lfs: true } }
}

export const commitTooLarge = (max: number) => new HubError(413, `The commit is larger than ${max} bytes; upload large files through LFS`)
export const fileTooLarge = (path: string, max: number) => new HubError(413, `${path} is larger than the ${max}-byte limit for one file`)

/**
 * Stores an inline file's bytes, claimed for `repoId` (RepoBlob) before the store is asked whether it
 * holds them already: a repo deleted at this moment with the same bytes must not take them away
 * before this commit refers to them (lib/hub/files/blobs.ts). The commit records RepoBlob again.
 */
async function stageInlineFile(path: string, content: Buffer, repoId: string): Promise<StagedFile> {
  const blobSha256 = await storeBlob(Readable.from([content]), { size: content.length }, repoId)
  return { path, blobSha256, size: content.length, gitOid: gitBlobOid(content), lfs: false }
}

/** Stores inline files and checks that LFS objects were uploaded for this repo, before any branch moves. */
async function stage(repoId: string, operations: CommitOperation[]): Promise<StagedOperation[]> {
  // One query for every LFS object the commit names (a query each was a third of a 100-file commit).
  const sizes = await storedSizes(repoId, operations.flatMap((op) => (op.kind === 'lfsFile' ? [op.sha256] : [])))
  const staged: StagedOperation[] = []
  for (const op of operations) {
    if (op.kind === 'file') {
      staged.push({ kind: 'put', file: await stageInlineFile(op.path, op.content, repoId) })
    } else if (op.kind === 'storedFile') {
      staged.push({ kind: 'put', file: op.file })
    } else if (op.kind === 'lfsFile') {
      const size = sizes.get(op.sha256)
      if (size === undefined) throw invalid(`${op.path}: LFS object ${op.sha256} was not uploaded`)
      if (size !== op.size) throw invalid(`${op.path}: LFS object ${op.sha256} has ${size} bytes, not ${op.size}`)
      staged.push({ kind: 'put', file: { path: op.path, blobSha256: op.sha256, size, gitOid: gitBlobOid(lfsPointer(op.sha256, size)), lfs: true } })
    } else {
      staged.push(op)
    }
  }
  return staged
}

type Change = { path: string; change: 'add' | 'update' | 'delete' }

/** The folders a path sits in, outermost first ("a/b/c" -> "a", "a/b"). */
function foldersOf(path: string): string[] {
  const folders: string[] = []
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) folders.push(path.slice(0, at))
  return folders
}

type TreeFile = StagedFile & { lastCommitId: string }

/**
 * A revision's files while a commit is applied, with every folder's files indexed, so that each
 * operation costs the depth of its path (or the files it deletes), not the size of the repo: the
 * commit runs in a transaction that holds SQLite's write lock, and a scan of 100,000 paths per
 * operation made a commit of 10,000 operations hold it for seconds.
 */
class WorkingTree {
  readonly files: Map<string, TreeFile>
  private readonly inFolder = new Map<string, Set<string>>()

  constructor(head: Map<string, TreeFile>) {
    this.files = new Map(head)
    for (const path of head.keys()) this.index(path)
  }

  private index(path: string) {
    for (const folder of foldersOf(path)) {
      let paths = this.inFolder.get(folder)
      if (!paths) this.inFolder.set(folder, (paths = new Set()))
      paths.add(path)
    }
  }

  private unindex(path: string) {
    for (const folder of foldersOf(path)) {
      const paths = this.inFolder.get(folder)!
      paths.delete(path)
      if (paths.size === 0) this.inFolder.delete(folder)
    }
  }

  put(file: TreeFile) {
    // A file may not sit where a folder is, nor under a path that is a file.
    if (this.inFolder.has(file.path)) throw invalid(`${file.path} is a folder`)
    for (const folder of foldersOf(file.path)) if (this.files.has(folder)) throw invalid(`${folder} is a file`)
    if (!this.files.has(file.path)) this.index(file.path)
    this.files.set(file.path, file)
  }

  deleteFile(path: string): boolean {
    if (!this.files.delete(path)) return false
    this.unindex(path)
    return true
  }

  /** The paths removed (none when the folder holds no file). */
  deleteFolder(folder: string): string[] {
    const inside = [...(this.inFolder.get(folder) ?? [])]
    for (const path of inside) this.deleteFile(path)
    return inside
  }
}

/** The new tree from the head's tree and the operations, in order; the paths that changed. */
function apply(head: Map<string, TreeFile>, ops: StagedOperation[], commitId: string) {
  const working = new WorkingTree(head)
  const touched = new Set<string>()
  for (const op of ops) {
    if (op.kind === 'put') {
      working.put({ ...op.file, lastCommitId: commitId })
      touched.add(op.file.path)
    } else if (op.kind === 'deletedFile') {
      if (!working.deleteFile(op.path)) throw entryNotFound(op.path)
      touched.add(op.path)
    } else {
      const removed = working.deleteFolder(op.path)
      if (removed.length === 0) throw entryNotFound(op.path)
      for (const p of removed) touched.add(p)
    }
  }
  const tree = working.files
  const changes: Change[] = []
  for (const path of [...touched].sort()) {
    const before = head.get(path)
    const after = tree.get(path)
    if (!after) {
      if (before) changes.push({ path, change: 'delete' })
    } else if (!before) changes.push({ path, change: 'add' })
    else if (before.gitOid !== after.gitOid) changes.push({ path, change: 'update' })
    else tree.set(path, before) // same content: keep the commit that last changed it
  }
  return { tree, changes }
}

/** "session" or "<token kind>:<token id>": which credential made a commit. */
function credentialOf(caller: NonNullable<Caller>): string {
  return caller.principal ? `${caller.principal.tokenKind}:${caller.principal.tokenId}` : 'session'
}

class HeadMoved extends Error {}

export type CommitResult = { commitId: string; changes: Change[] }

/**
 * Applies operations to `branch` as a new commit by `caller` (whose write access the caller of this
 * function has checked). The branch is read as reads read it (branchNamed: `refs/heads/X` is X, HEAD
 * the default branch); it must exist, except the default branch of a repo without commits and the
 * new branch of createBranch (emptyTree, its name checked there). Org repos get an audit entry in
 * the same transaction.
 */
export async function createCommit(
  caller: NonNullable<Caller>,
  repo: RepoRow,
  requestedBranch: string,
  header: CommitHeader,
  operations: CommitOperation[],
  meta: { ip?: string | null; emptyTree?: boolean } = {},
): Promise<CommitResult> {
  const branch = branchNamed(requestedBranch)
  const staged = await stage(repo.id, operations)
  const authorName = caller.principal?.username ?? (await usernameOf(caller.userId))
  const limits = fileLimits()
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
        const ref = await tx.repoRef.findUnique({ where: { repoId_name: { repoId: repo.id, name: branch } } })
        if (!ref && branch !== DEFAULT_BRANCH && !meta.emptyTree) throw revisionNotFound(requestedBranch)
        if (!ref) await lockBranchName(tx, repo.id, branch)
        const headId = ref?.commitId ?? null
        if (header.parentCommit && !headId?.startsWith(header.parentCommit)) {
          throw new HubError(412, `A commit has happened since ${header.parentCommit}: the head of ${branch} is ${headId ?? 'empty'}. Refresh and try again.`)
        }
        const headEntries = headId && !meta.emptyTree ? await tx.treeEntry.findMany({ where: { commitId: headId } }) : []
        const head = new Map(headEntries.map((e) => [e.path, { path: e.path, blobSha256: e.blobSha256, size: Number(e.size), gitOid: e.gitOid, lfs: e.lfs, lastCommitId: e.lastCommitId }]))
        const commitId = newCommitId(headId, JSON.stringify(staged))
        const { tree, changes } = apply(head, staged, commitId)
        if (tree.size > limits.maxRepoFiles) throw invalid(`A revision may hold at most ${limits.maxRepoFiles} files`)
        // One moment for the commit and the repo's lastModified: listings read the repo's, repo info the commit's.
        const committedAt = new Date()
        await tx.repoCommit.create({
          data: {
            createdAt: committedAt,
            id: commitId,
            repoId: repo.id,
            parentId: meta.emptyTree ? null : headId,
            title: header.summary,
            message: header.description,
            authorId: caller.userId,
            authorName,
            credential: credentialOf(caller),
            changes: JSON.stringify(changes),
          },
        })
        const lfsObjects = operations.flatMap((op) => (op.kind === 'lfsFile' ? [op] : []))
        const removed = new Set(await lockStoredBlobs(statementsIn(tx), lfsObjects.map((op) => op.sha256)))
        const gone = lfsObjects.find((op) => removed.has(op.sha256))
        if (gone) throw invalid(`${gone.path}: LFS object ${gone.sha256} is no longer stored (it was cleaned up after its upload grew old); upload it again`)
        await insertTree(tx, commitId, [...tree.values()])
        // The files this commit brought (inline bytes it carried, LFS objects already the repo's).
        await recordRepoBlobs(repo.id, staged.flatMap((op) => (op.kind === 'put' ? [op.file.blobSha256] : [])), statementsIn(tx))
        await moveBranch(tx, repo.id, branch, headId, commitId)
        await tx.repo.update({ where: { id: repo.id }, data: { updatedAt: committedAt } })
        if (repo.ownerOrgId) {
          await recordAudit(
            {
              orgId: repo.ownerOrgId,
              action: 'repo.commit',
              actorUserId: caller.userId,
              appId: caller.principal?.appId ?? null,
              ip: meta.ip ?? null,
              data: { repo: `${repo.type}:${repo.namespace}/${repo.name}`, branch, commit: commitId, title: header.summary, credential: credentialOf(caller), changes: changes.length },
            },
            tx,
          )
        }
        return { commitId, changes }
      })
    } catch (error) {
      if ((error instanceof HeadMoved || isUniqueViolation(error)) && attempt < 20) continue
      throw error
    }
  }
}

const TREE_ROWS_PER_INSERT = 100 // 7 values a row: within SQLite's oldest limit of 999 parameters

/**
 * The new revision's tree, every file a row (a commit is a full snapshot). Multi-row INSERTs: the
 * same rows through createMany took 15 times as long (about 1 ms a row on SQLite, most of a
 * 100-file commit: bench/files/RESULTS.md).
 */
async function insertTree(tx: Tx, commitId: string, files: (StagedFile & { lastCommitId: string })[]) {
  for (let i = 0; i < files.length; i += TREE_ROWS_PER_INSERT) {
    const rows = files
      .slice(i, i + TREE_ROWS_PER_INSERT)
      .map((f) => sql`(${commitId}, ${f.path}, ${f.blobSha256}, ${f.size}, ${f.gitOid}, ${f.lfs}, ${f.lastCommitId})`)
    await statementsIn(tx).run(sql`INSERT INTO "TreeEntry" ("commitId", "path", "blobSha256", "size", "gitOid", "lfs", "lastCommitId") VALUES ${joinSql(rows, ', ')}`)
  }
}

/** Compare-and-set of the branch: fails (HeadMoved) if another commit moved it since it was read. */
async function moveBranch(tx: Tx, repoId: string, name: string, from: string | null, to: string) {
  if (from === null) {
    await tx.repoRef.create({ data: { repoId, name, commitId: to } })
    return
  }
  const { count } = await tx.repoRef.updateMany({ where: { repoId, name, commitId: from }, data: { commitId: to } })
  if (count !== 1) throw new HeadMoved()
}
