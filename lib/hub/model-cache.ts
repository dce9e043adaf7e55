/**
 * A local copy of one revision of a model repo on this hub, in the Hugging Face cache layout
 * (`<MODELS_CACHE_DIR>/models--<ns>--<name>/{blobs/<sha256>, snapshots/<commit>/<path>, refs/<revision>}`),
 * so the server's engines load a repo's files from a folder, as transformers.js and
 * onnxruntime-node expect.
 *
 * The files are read in-process (the hub *is* the server): the same access decision (lib/policy)
 * and revision resolution as /resolve, without an HTTP round trip to itself or a URL it must know;
 * who reads is a ModelReader: the hub itself for configured models, the caller for a model they picked.
 *
 * Every blob is written to a temporary name while its sha256 is computed, and renamed into
 * place only when the digest matches the tree's: a failed or corrupted download never leaves
 * a half-written cache entry. A cached blob is re-hashed when its stamp (size, inode, mtime, ctime
 * recorded after its digest was checked) no longer matches, so a file changed on disk between runs
 * is detected and fetched again without hashing every file on every start.
 */
import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Transform } from 'node:stream'
import { setting } from '@/lib/config'
import { rows, sql } from '@/lib/db'
import { HubError } from '@/lib/http/errors'
import { resolveRevision, treeOf } from '@/lib/hub/files/revisions'
import { branchNamed } from '@/lib/hub/files/paths'
import { findRepoIgnoringCase, repoContext } from '@/lib/hub/repos'
import { repoDecision, type Caller } from '@/lib/policy'
import { readBlob } from '@/lib/storage'

/** Why a repo revision cannot be used as a model; the message names the repo and what is missing. */
export class ModelRepoError extends Error {
  override name = 'ModelRepoError'
}

/**
 * A model repo that does not exist or that the reader may not read: one error for both, as the hub
 * answers for private repos (a gated repo, whose page anyone may see, says it is gated and where to
 * ask for access).
 */
export class ModelNotReadableError extends ModelRepoError {
  override name = 'ModelNotReadableError'
}

/** A revision the repo does not have: the caller's mistake when the caller named it (404, as the hub's RevisionNotFound). */
export class ModelRevisionNotFoundError extends ModelRepoError {
  override name = 'ModelRevisionNotFoundError'
}

/** `files`: the commit's files (path, sha256, size), as its tree lists them. */
export type ModelSnapshot = { repo: string; revision: string; commitId: string; dir: string; files: ManifestEntry[] }

/**
 * Who reads a model repo. `hub`: the hub itself, for a model an operator configured (settings
 * MODERATION_MODEL_<CHECK>, OFFLINE_MODELS_REPO): every repo on the hub, private and gated ones
 * included, as an operator can read the database anyway. `caller`: a model the caller picked
 * for one request, read with that caller's own access (null: an anonymous caller, public repos only).
 */
export type ModelReader = { hub: true } | { caller: Caller }
export const HUB_READER: ModelReader = { hub: true }

const REPO_ID = /^([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*)$/

export function modelsCacheDir(): string {
  return path.resolve(setting('MODELS_CACHE_DIR'))
}

/** The repo's folder in the cache (huggingface_hub's `repo_folder_name`). */
export function repoCacheFolder(repo: string): string {
  return path.join(modelsCacheDir(), `models--${repo.replace('/', '--')}`)
}

/**
 * Cached blobs are checked by a stamp: after a blob's sha256 was computed (on download, or the first
 * time a blob already on disk is used), `.modhub/verified/<sha256>` records its size, inode, mtime
 * and ctime. A later load only stats the blob and re-hashes it when any of the four changed. Any
 * write to the file through the filesystem changes its ctime (which, unlike mtime, cannot be set
 * back), so a cached file that was overwritten, truncated or replaced is re-hashed and fetched
 * again; what the stamp cannot see is damage below the filesystem (bit rot on the disk).
 */
function stampOf(stat: fs.BigIntStats): string {
  return `${stat.size}:${stat.ino}:${stat.mtimeNs}:${stat.ctimeNs}`
}

function stampFile(folder: string, sha256: string): string {
  return path.join(folder, '.modhub', 'verified', sha256)
}

/** True when the blob is on disk with the stamp recorded when its digest was last checked. */
function stampMatches(folder: string, sha256: string): boolean {
  try {
    const stat = fs.statSync(path.join(folder, 'blobs', sha256), { bigint: true })
    return fs.readFileSync(stampFile(folder, sha256), 'utf8') === stampOf(stat)
  } catch {
    return false
  }
}

async function writeStamp(folder: string, sha256: string) {
  const stat = await fs.promises.stat(path.join(folder, 'blobs', sha256), { bigint: true })
  await writeAtomically(stampFile(folder, sha256), stampOf(stat))
}

async function writeAtomically(file: string, content: string) {
  await fs.promises.mkdir(path.dirname(file), { recursive: true })
  const temporary = `${file}.${randomUUID()}.incomplete`
  await fs.promises.writeFile(temporary, content)
  await fs.promises.rename(temporary, file)
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(fs.createReadStream(file), hash)
  return hash.digest('hex')
}

/** A blob without a matching stamp is hashed; when intact, it gets its stamp. */
async function cachedBlobIsIntact(folder: string, sha256: string): Promise<boolean> {
  if (stampMatches(folder, sha256)) return true
  try {
    if ((await fileSha256(path.join(folder, 'blobs', sha256))) !== sha256) return false
  } catch {
    return false
  }
  await writeStamp(folder, sha256)
  return true
}

async function downloadBlob(repo: string, filePath: string, sha256: string, size: number, target: string) {
  const partial = `${target}.${randomUUID()}.incomplete`
  const hash = createHash('sha256')
  let received = 0
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      received += chunk.length
      done(null, chunk)
    },
  })
  try {
    await pipeline(await readBlob(sha256), counting, fs.createWriteStream(partial))
    const digest = hash.digest('hex')
    if (digest !== sha256 || received !== size) {
      throw new ModelRepoError(`${repo}: checksum mismatch for ${filePath} (expected sha256 ${sha256}, ${size} bytes; got ${digest}, ${received} bytes)`)
    }
    await fs.promises.rename(partial, target)
    await writeStamp(path.dirname(path.dirname(target)), sha256)
  } catch (error) {
    await fs.promises.rm(partial, { force: true })
    if (error instanceof ModelRepoError) throw error
    throw new ModelRepoError(`${repo}: could not download ${filePath}: ${(error as Error).message}`)
  }
}

/** Points `link` at `target` (relative, as huggingface_hub does), replacing whatever was there. */
async function linkInto(link: string, target: string) {
  await fs.promises.mkdir(path.dirname(link), { recursive: true })
  const relative = path.relative(path.dirname(link), target)
  const current = await fs.promises.readlink(link).catch(() => null)
  if (current === relative) return
  const temporary = `${link}.${randomUUID()}.incomplete`
  await fs.promises.symlink(relative, temporary)
  await fs.promises.rename(temporary, link)
}

type ManifestEntry = { path: string; sha256: string; size: number }

/** `.modhub/snapshots/<commit>.json`: the commit's tree, written once its snapshot is complete (a commit's tree never changes). */
function manifestFile(folder: string, commitId: string): string {
  return path.join(folder, '.modhub', 'snapshots', `${commitId}.json`)
}

function readManifest(folder: string, commitId: string): ManifestEntry[] | null {
  try {
    return JSON.parse(fs.readFileSync(manifestFile(folder, commitId), 'utf8')) as ManifestEntry[]
  } catch {
    return null
  }
}

/** True when every file of a completed snapshot still links to a blob whose stamp matches (no hashing, no database). */
function snapshotIsIntact(folder: string, snapshot: string, entries: ManifestEntry[]): boolean {
  for (const entry of entries) {
    const link = path.join(snapshot, ...entry.path.split('/'))
    const target = path.join(folder, 'blobs', entry.sha256)
    try {
      if (fs.readlinkSync(link) !== path.relative(path.dirname(link), target)) return false
    } catch {
      return false
    }
    if (!stampMatches(folder, entry.sha256)) return false
  }
  return true
}

type ModelRepoRow = { id: string; private: boolean; gated: boolean; ownerUserId: string | null; ownerOrgId: string | null; createdById: string | null; createdByApp: string | null; commitId: string | null; pinned: string | null }

/**
 * The commit `revision` names in the repo, null for a repo without commits. The repo, the facts the
 * access decision reads and the branch head come in one raw statement: Prisma's first use of a
 * query shape in a process costs ~100 ms (it plans it), which was most of a warm start's overhead.
 */
async function resolveModelRevision(asked: string, namespace: string, name: string, revision: string, reader: ModelReader, respelt = false): Promise<{ repo: string; commitId: string | null }> {
  // Named as every read of the hub names revisions (HEAD, refs/heads/X; an abbreviated commit id below).
  const branch = branchNamed(revision)
  const [facts] = await rows<ModelRepoRow>(sql`
    SELECT r."id", r."private", r."gated", r."ownerUserId", r."ownerOrgId", r."createdById", r."createdByApp", f."commitId", c."id" AS "pinned"
    FROM "Repo" r
    LEFT JOIN "RepoRef" f ON f."repoId" = r."id" AND f."name" = ${branch}
    LEFT JOIN "RepoCommit" c ON c."repoId" = r."id" AND c."id" = ${branch}
    WHERE r."type" = 'model' AND r."namespace" = ${namespace} AND r."name" = ${name}`)
  if (!facts && !respelt) {
    // A repo id in another case is the same repo, as on the Hub: read again under its own spelling (one cache folder).
    // The exact spelling has just missed, so only the other cases are looked up.
    const spelt = await findRepoIgnoringCase('model', namespace, name)
    if (spelt) return resolveModelRevision(asked, spelt.namespace, spelt.name, revision, reader, true)
  }
  // Refusals name the repo as it was asked: its own spelling would tell a caller who may not read it that it exists.
  const repo = `${namespace}/${name}`
  if ('hub' in reader) {
    if (!facts) throw new ModelRepoError(`${asked}: no such model repo`)
  } else {
    const { caller } = reader
    const context = facts ? await repoContext(caller, facts) : null
    if (!facts || repoDecision(caller, 'read', facts, context!) !== 'allow') {
      // A gated repo the caller may view (its page is public) but not read: saying so reveals nothing, and tells them where to ask.
      if (facts?.gated && repoDecision(caller, 'view', facts, context!) === 'allow') {
        const ask = caller ? 'request access on its page' : 'sign in and request access on its page'
        throw new ModelNotReadableError(`${asked}: a gated model repo whose files you have not been granted access to (${ask}, /${repo})`)
      }
      // Not found or private: answered alike, so a caller learns nothing of repos they cannot read.
      throw new ModelNotReadableError(`${asked}: no such model repo, or you have no read access to it`)
    }
  }
  if (facts.commitId) return { repo, commitId: facts.commitId }
  if (facts.pinned) return { repo, commitId: facts.pinned }
  // Anything else (an abbreviated commit id, main before the first commit) as every read of the hub resolves it.
  try {
    return { repo, commitId: (await resolveRevision(facts.id, revision))?.id ?? null }
  } catch (error) {
    if (error instanceof HubError && error.code === 'RevisionNotFound') throw new ModelRevisionNotFoundError(`${repo}: revision ${revision} does not exist`)
    throw error
  }
}

/** Snapshots this process has completed or is completing, by cache folder and commit: a commit's files are checked once per process. */
const snapshots = new Map<string, Promise<ManifestEntry[]>>()

/** Forgets the snapshots checked so far, as a restarted process would (tests). */
export function forgetModelSnapshots() {
  snapshots.clear()
}

/** Copies the commit's files into the cache (each blob hashed unless its stamp matches) and records the manifest last. */
async function fillSnapshot(repo: string, folder: string, commitId: string): Promise<ManifestEntry[]> {
  const snapshot = path.join(folder, 'snapshots', commitId)
  const known = readManifest(folder, commitId)
  if (known && snapshotIsIntact(folder, snapshot, known)) return known
  const entries: ManifestEntry[] = known ?? (await treeOf(commitId)).map((e) => ({ path: e.path, sha256: e.blobSha256, size: Number(e.size) }))
  await fs.promises.mkdir(path.join(folder, 'blobs'), { recursive: true })
  for (const entry of entries) {
    const blob = path.join(folder, 'blobs', entry.sha256)
    if (!(await cachedBlobIsIntact(folder, entry.sha256))) await downloadBlob(repo, entry.path, entry.sha256, entry.size, blob)
    await linkInto(path.join(snapshot, ...entry.path.split('/')), blob)
  }
  if (!known) await writeAtomically(manifestFile(folder, commitId), JSON.stringify(entries))
  return entries
}

/**
 * Makes `revision` of model repo `repo` ("namespace/name") available in the cache and answers its
 * folder. `required` files must be in the revision. Throws ModelRepoError naming the repo and the
 * problem: not a repo id, unknown or not readable, unknown revision, files missing, checksum mismatch.
 *
 * Every call asks the database once (the repo, the access decision and the branch head together);
 * a commit's files are checked once per process, and on a warm cache that check is a stat per file
 * against its stamp and the commit's tree is read from the cache's manifest, not the database.
 */
export async function modelSnapshot(asked: string, revision: string, required: readonly string[] = [], reader: ModelReader = HUB_READER): Promise<ModelSnapshot> {
  const id = REPO_ID.exec(asked)
  if (!id) throw new ModelRepoError(`${asked}: not a model repo id (namespace/name)`)
  // `repo` is the repo's own spelling from here on (the id may be asked in another case).
  const { repo, commitId } = await resolveModelRevision(asked, id[1]!, id[2]!, revision, reader)
  if (!commitId) throw new ModelRepoError(`${repo}: revision ${revision} holds no files`)

  const folder = repoCacheFolder(repo)
  const key = `${folder}@${commitId}`
  let filling = snapshots.get(key)
  if (!filling) {
    filling = fillSnapshot(repo, folder, commitId)
    filling.catch(() => snapshots.delete(key))
    snapshots.set(key, filling)
  }
  const entries = await filling
  const missing = required.filter((file) => !entries.some((e) => e.path === file))
  if (missing.length > 0) throw new ModelRepoError(`${repo}@${revision}: missing ${missing.join(', ')}`)

  if (revision !== commitId) {
    const ref = path.join(folder, 'refs', ...revision.split('/'))
    // Read synchronously: a first fs.promises call in a process measured 30-130 ms (the thread pool starting) for 40 bytes.
    let current: string | null = null
    try {
      current = fs.readFileSync(ref, 'utf8')
    } catch {
      // No ref yet.
    }
    if (current !== commitId) await writeAtomically(ref, commitId)
  }
  return { repo, revision, commitId, dir: path.join(folder, 'snapshots', commitId), files: entries }
}
