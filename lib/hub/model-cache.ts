/**
 * A local copy of one revision of a model repo on this hub, in the Hugging Face cache layout
 * (`<MODELS_CACHE_DIR>/models--<ns>--<name>/{blobs/<sha256>, snapshots/<commit>/<path>, refs/<revision>}`),
 * so the server's engines load a repo's files from a folder, as transformers.js and
 * onnxruntime-node expect.
 *
 * The files are read in-process through lib/hub/files (the hub *is* the server): the same access
 * check (an anonymous caller: a model the server runs for everyone must be readable by everyone)
 * and revision resolution as /resolve, without an HTTP round trip to itself or a URL it must know.
 *
 * Every blob is written to a temporary name while its sha256 is computed, and renamed into
 * place only when the digest matches the tree's: a failed or corrupted download never leaves
 * a half-written cache entry. A process checks each cached blob's digest once, on first use, so a
 * file corrupted on disk between runs is detected and fetched again.
 */
import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Transform } from 'node:stream'
import { setting } from '@/lib/config'
import { HubError } from '@/lib/http/errors'
import { repoAccess, resolveRevision } from '@/lib/hub/files'
import { treeOf } from '@/lib/hub/files/revisions'
import { readBlob } from '@/lib/storage'

/** Why a repo revision cannot be used as a model; the message names the repo and what is missing. */
export class ModelRepoError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelRepoError'
  }
}

export type ModelSnapshot = { repo: string; revision: string; commitId: string; dir: string }

const REPO_ID = /^([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*)$/

export function modelsCacheDir(): string {
  return path.resolve(setting('MODELS_CACHE_DIR'))
}

/** The repo's folder in the cache (huggingface_hub's `repo_folder_name`). */
export function repoCacheFolder(repo: string): string {
  return path.join(modelsCacheDir(), `models--${repo.replace('/', '--')}`)
}

/** Blobs whose digest this process has checked (or written) already. */
const verifiedBlobs = new Set<string>()

/** Forgets which cached blobs were checked, as a restarted process would (tests). */
export function forgetVerifiedBlobs() {
  verifiedBlobs.clear()
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(fs.createReadStream(file), hash)
  return hash.digest('hex')
}

async function cachedBlobIsIntact(file: string, sha256: string): Promise<boolean> {
  if (verifiedBlobs.has(file)) return true
  try {
    if ((await fileSha256(file)) !== sha256) return false
  } catch {
    return false
  }
  verifiedBlobs.add(file)
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
    verifiedBlobs.add(target)
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

/**
 * Makes `revision` of model repo `repo` ("namespace/name") available in the cache and answers its
 * folder. `required` files must be in the revision. Throws ModelRepoError naming the repo and the
 * problem: not a repo id, unknown or not readable, unknown revision, files missing, checksum mismatch.
 */
export async function modelSnapshot(repo: string, revision: string, required: readonly string[] = []): Promise<ModelSnapshot> {
  const id = REPO_ID.exec(repo)
  if (!id) throw new ModelRepoError(`${repo}: not a model repo id (namespace/name)`)
  let commit
  try {
    const { repo: row } = await repoAccess(null, { type: 'model', namespace: id[1], name: id[2] }, 'read')
    commit = await resolveRevision(row.id, revision)
  } catch (error) {
    if (!(error instanceof HubError)) throw error
    if (error.code === 'RevisionNotFound') throw new ModelRepoError(`${repo}: revision ${revision} does not exist`)
    // Not found, private or gated: the hub answers all three alike to an anonymous caller.
    throw new ModelRepoError(`${repo}: no such model repo, or the server has no read access to it (${error.message})`)
  }
  if (!commit) throw new ModelRepoError(`${repo}: revision ${revision} holds no files`)
  const entries = await treeOf(commit.id)
  const missing = required.filter((file) => !entries.some((e) => e.path === file))
  if (missing.length > 0) throw new ModelRepoError(`${repo}@${revision}: missing ${missing.join(', ')}`)

  const folder = repoCacheFolder(repo)
  const snapshot = path.join(folder, 'snapshots', commit.id)
  await fs.promises.mkdir(path.join(folder, 'blobs'), { recursive: true })
  for (const entry of entries) {
    const blob = path.join(folder, 'blobs', entry.blobSha256)
    if (!(await cachedBlobIsIntact(blob, entry.blobSha256))) await downloadBlob(repo, entry.path, entry.blobSha256, Number(entry.size), blob)
    await linkInto(path.join(snapshot, ...entry.path.split('/')), blob)
  }
  if (revision !== commit.id) {
    const ref = path.join(folder, 'refs', ...revision.split('/'))
    await fs.promises.mkdir(path.dirname(ref), { recursive: true })
    const temporary = `${ref}.${randomUUID()}.incomplete`
    await fs.promises.writeFile(temporary, commit.id)
    await fs.promises.rename(temporary, ref)
  }
  return { repo, revision, commitId: commit.id, dir: snapshot }
}
