// Content-addressed blob storage: the bytes of every file of every repo, named by their sha256 and
// shared across repos and revisions. Local disk by default (a folder beside the SQLite file);
// any S3-compatible store with STORAGE=s3.
//
// Every write is hashed while it streams to a staging key and becomes a blob only if its size and
// sha256 are what the uploader declared; otherwise the staged bytes are removed and nothing is kept.
// An upload cut off half-way leaves only a staging key, which cleanupStaging() removes.
import { processState } from '@/lib/config/process-state'
import path from 'node:path'
import { createHash, randomUUID } from 'node:crypto'
import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream'
import { databaseUrl } from '@/lib/db'
import { setting, type Environment } from '@/lib/config/settings'
import { DiskBackend } from './disk'
import { S3Backend } from './s3'
import type { BlobBackend, ByteRange } from './types'

export type { ByteRange } from './types'

export class BlobMismatch extends Error {
  constructor(
    readonly reason: 'size' | 'sha256',
    message: string,
  ) {
    super(message)
  }
}

/** The store the settings name (STORAGE, STORAGE_DIR, S3_*; README: Configuration). */
export function backendFromEnv(env?: Environment): BlobBackend {
  if (setting('STORAGE', env) === 's3') {
    const bucket = setting('S3_BUCKET', env)
    if (!bucket) throw new Error('STORAGE=s3 needs S3_BUCKET')
    const endpoint = setting('S3_ENDPOINT', env)
    const accessKeyId = setting('S3_ACCESS_KEY_ID', env)
    const secretAccessKey = setting('S3_SECRET_ACCESS_KEY', env)
    return new S3Backend({
      bucket,
      prefix: setting('S3_PREFIX', env),
      client: {
        region: setting('S3_REGION', env),
        endpoint: endpoint || undefined,
        forcePathStyle: setting('S3_FORCE_PATH_STYLE', env) && !!endpoint,
        credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      },
    })
  }
  const dir = setting('STORAGE_DIR', env)
  return new DiskBackend(dir ? path.resolve(dir) : defaultDiskRoot())
}

/** Beside the SQLite file (data/blobs for data/modhub.db); data/blobs for PostgreSQL. */
function defaultDiskRoot(): string {
  const url = databaseUrl()
  if (url.startsWith('file:')) return path.join(path.dirname(path.resolve(url.slice('file:'.length))), 'blobs')
  return path.resolve('data', 'blobs')
}

const holder = processState('blobStore', () => ({ backend: null as BlobBackend | null }))

/** The process's store (one per process: lib/config/process-state). */
export function blobStore(): BlobBackend {
  return (holder.backend ??= backendFromEnv())
}

/** For tests and tools that switch stores within one process. */
export function setBlobStore(backend: BlobBackend) {
  holder.backend = backend
}

/** What the verifier gathers before passing bytes on: a socket delivers 64 KiB at a time. */
const WRITE_CHUNK_BYTES = 1024 * 1024

/**
 * Counts and hashes bytes as they pass; fails (so the write fails) on any difference from what was
 * declared. It passes them on in pieces of up to 1 MiB: the store then writes a megabyte in one
 * call instead of sixteen (each a trip through libuv's thread pool).
 */
class Verifier extends Transform {
  private readonly hash = createHash('sha256')
  private count = 0
  private gathered: Buffer[] = []
  private gatheredBytes = 0
  sha256 = ''
  /** The mismatch it reported, so the caller can tell it from a storage failure. */
  failure: BlobMismatch | null = null

  constructor(private readonly expected: { size: number; sha256?: string }) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.count += chunk.length
    if (this.count > this.expected.size) return callback(this.fail('size', `More bytes arrived than the declared size of ${this.expected.size}`))
    this.hash.update(chunk)
    this.gathered.push(chunk)
    this.gatheredBytes += chunk.length
    callback(null, this.gatheredBytes >= WRITE_CHUNK_BYTES ? this.takeGathered() : undefined)
  }

  private takeGathered(): Buffer {
    const bytes = this.gathered.length === 1 ? this.gathered[0]! : Buffer.concat(this.gathered, this.gatheredBytes)
    this.gathered = []
    this.gatheredBytes = 0
    return bytes
  }

  override _flush(callback: TransformCallback) {
    if (this.count !== this.expected.size) return callback(this.fail('size', `${this.count} bytes arrived, ${this.expected.size} were declared`))
    if (this.gatheredBytes > 0) this.push(this.takeGathered())
    this.sha256 = this.hash.digest('hex')
    if (this.expected.sha256 && this.sha256 !== this.expected.sha256) {
      return callback(this.fail('sha256', `The content's sha256 is ${this.sha256}, not the declared ${this.expected.sha256}`))
    }
    callback()
  }

  private fail(reason: BlobMismatch['reason'], message: string) {
    return (this.failure = new BlobMismatch(reason, message))
  }
}

/**
 * What the caller of putBlob does at two moments of it (lib/hub/files/blobs.ts records the blob in
 * the database there). Both are optional; without them putBlob only stores the bytes.
 */
export type PutHooks = {
  /**
   * Called once the bytes are verified and staged, before the store is asked whether it already
   * holds them: an uploader claims the bytes here (its database rows), so that a cleanup removing
   * the same blob either sees the claim and keeps the bytes, or has removed them before this upload
   * looks, which then promotes its own copy. Asked after the claim, `has` cannot answer from bytes
   * that are about to go. If it throws, the staged copy is removed and putBlob throws that error.
   */
  onVerified?: (sha256: string) => Promise<void>
  /** Called after this upload's own copy became the blob (not when the store already held it). */
  onPromoted?: (sha256: string) => Promise<void>
}

/**
 * Stores a stream as a blob if it has exactly the declared size (and sha256, when given).
 * Returns its sha256. Throws BlobMismatch (nothing kept) otherwise.
 */
export async function putBlob(body: Readable, expected: { size: number; sha256?: string }, store = blobStore(), hooks: PutHooks = {}): Promise<string> {
  const key = `put-${randomUUID()}`
  const verifier = new Verifier(expected)
  // pipeline() passes a source error (a client that hung up) on to the verifier, which the backend reads.
  const verified = pipeline(body, verifier, () => undefined)
  try {
    await store.writeStaged(key, verified, expected.size)
  } catch (error) {
    throw verifier.failure ?? error
  }
  if (!verifier.sha256 || verifier.failure) {
    // The backend finished without the verifier flushing: treat as a failed write.
    await store.deleteStaged(key).catch(() => undefined)
    throw new BlobMismatch('size', 'The upload ended early')
  }
  const sha256 = verifier.sha256
  try {
    await hooks.onVerified?.(sha256)
    if (await store.has(sha256)) await store.deleteStaged(key)
    else {
      await store.promote(key, sha256)
      await hooks.onPromoted?.(sha256)
    }
  } catch (error) {
    // Nothing staged is left behind by a failed claim or promote (removing a promoted key is a no-op).
    await store.deleteStaged(key).catch(() => undefined)
    throw error
  }
  return sha256
}

// ---------------------------------------------------------------- multipart uploads

function partKey(uploadId: string, partNumber: number) {
  return `multipart/${uploadId}/${String(partNumber).padStart(5, '0')}`
}

/** Stages one part of a multipart upload; it must have exactly `length` bytes. */
export async function putPart(uploadId: string, partNumber: number, body: Readable, length: number, store = blobStore()): Promise<string> {
  const hash = createHash('md5') // the part's ETag, as S3 gives it
  let count = 0
  const counter = new Transform({
    transform(chunk: Buffer, _e, callback) {
      count += chunk.length
      if (count > length) return callback(new BlobMismatch('size', `Part ${partNumber} is larger than ${length} bytes`))
      hash.update(chunk)
      callback(null, chunk)
    },
    flush(callback) {
      callback(count === length ? null : new BlobMismatch('size', `Part ${partNumber} has ${count} bytes, ${length} were declared`))
    },
  })
  await store.writeStaged(partKey(uploadId, partNumber), pipeline(body, counter, () => undefined), length)
  if (count !== length) {
    await store.deleteStaged(partKey(uploadId, partNumber)).catch(() => undefined)
    throw new BlobMismatch('size', `Part ${partNumber} ended early`)
  }
  return `"${hash.digest('hex')}"`
}

/**
 * Joins the staged parts 1..partCount in order into a blob, checked against size and sha256; removes
 * the parts. `hooks` as putBlob's.
 */
export async function completeMultipart(uploadId: string, partCount: number, expected: { size: number; sha256: string }, store = blobStore(), hooks: PutHooks = {}) {
  async function* parts() {
    for (let n = 1; n <= partCount; n++) yield* await store.readStaged(partKey(uploadId, n))
  }
  try {
    return await putBlob(Readable.from(parts()), expected, store, hooks)
  } finally {
    await discardMultipart(uploadId, partCount, store)
  }
}

export async function discardMultipart(uploadId: string, partCount: number, store = blobStore()) {
  for (let n = 1; n <= partCount; n++) await store.deleteStaged(partKey(uploadId, n)).catch(() => undefined)
}

// ---------------------------------------------------------------- reading and cleanup

export function readBlob(sha256: string, range?: ByteRange, store = blobStore()): Promise<Readable> {
  return store.read(sha256, range)
}

export function removeBlob(sha256: string, store = blobStore()): Promise<void> {
  return store.remove(sha256)
}

/** The blobs the store holds (sha256 and last modification), whatever the database says. */
export function listBlobs(store = blobStore()): AsyncIterable<{ sha256: string; modified: Date }> {
  return store.listBlobs()
}

/** Removes staged bytes older than `olderThanMs` (uploads that were abandoned or cut off). */
export async function cleanupStaging(olderThanMs: number, store = blobStore()): Promise<number> {
  const cutoff = Date.now() - olderThanMs
  let removed = 0
  for await (const { key, modified } of store.listStaged()) {
    if (modified.getTime() <= cutoff) {
      await store.deleteStaged(key)
      removed++
    }
  }
  return removed
}
