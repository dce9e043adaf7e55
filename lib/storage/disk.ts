// Blobs as files on local disk: <root>/sha256/ab/cd/<sha256>, uploads in progress under <root>/staging/.
// Both live under one root, so promoting staged bytes to a blob is an atomic rename.
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Readable } from 'node:stream'
import type { BlobBackend, ByteRange } from './types'

export class DiskBackend implements BlobBackend {
  readonly kind = 'disk' as const
  constructor(readonly root: string) {}

  private blobPath(sha256: string) {
    return path.join(this.root, 'sha256', sha256.slice(0, 2), sha256.slice(2, 4), sha256)
  }

  private stagedPath(key: string) {
    return path.join(this.root, 'staging', key)
  }

  async writeStaged(key: string, body: Readable, length: number): Promise<void> {
    void length // a file needs no declared length; the caller counts the bytes
    const file = this.stagedPath(key)
    try {
      await pipeline(body, await createFile(file))
    } catch (error) {
      await fsp.rm(file, { force: true })
      throw error
    }
  }

  async readStaged(key: string): Promise<Readable> {
    return openStream(this.stagedPath(key))
  }

  async deleteStaged(key: string): Promise<void> {
    const file = this.stagedPath(key)
    await fsp.rm(file, { force: true })
    // A multipart upload's own folder goes with its last part (rmdir refuses non-empty folders;
    // createFile re-creates it if a part arrives at that moment).
    if (key.startsWith('multipart/')) await fsp.rmdir(path.dirname(file)).catch(() => undefined)
  }

  async *listStaged(): AsyncIterable<{ key: string; modified: Date }> {
    const base = path.join(this.root, 'staging')
    for await (const file of filesUnder(base)) yield { key: path.relative(base, file.path).split(path.sep).join('/'), modified: file.modified }
  }

  async *listBlobs(): AsyncIterable<{ sha256: string; modified: Date }> {
    // Blobs sit two folders down (sha256/ab/cd/<sha256>); anything else there is not a blob.
    for await (const file of filesUnder(path.join(this.root, 'sha256'), 2)) yield { sha256: path.basename(file.path), modified: file.modified }
  }

  async ready(): Promise<boolean> {
    try {
      await fsp.mkdir(this.root, { recursive: true })
      await fsp.access(this.root, fs.constants.W_OK)
      // A full file system still passes the access check; an upload would fail with ENOSPC.
      return (await fsp.statfs(this.root)).bavail > 0
    } catch {
      return false
    }
  }

  async promote(key: string, sha256: string): Promise<void> {
    const target = this.blobPath(sha256)
    // The folder usually exists: create it only when the rename says it is missing (a mkdir before
    // every staging file and promote was about 4% of the hub's CPU in small uploads).
    await withFolder(target, () => fsp.rename(this.stagedPath(key), target))
  }

  async has(sha256: string): Promise<boolean> {
    return fsp.access(this.blobPath(sha256)).then(
      () => true,
      () => false,
    )
  }

  async read(sha256: string, range?: ByteRange): Promise<Readable> {
    return openStream(this.blobPath(sha256), range)
  }

  async remove(sha256: string): Promise<void> {
    await fsp.rm(this.blobPath(sha256), { force: true })
  }
}

/**
 * Runs `action` on a path whose folder usually exists; on ENOENT creates the folder and tries again
 * (also when a cleanup removed the folder in between: twice at most).
 */
async function withFolder<T>(file: string, action: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await action()
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 1) throw error
    }
    await fsp.mkdir(path.dirname(file), { recursive: true })
  }
}

/** Creates a file (and its folder when missing). */
async function createFile(file: string): Promise<fs.WriteStream> {
  const handle = await withFolder(file, () => fsp.open(file, 'w'))
  return handle.createWriteStream()
}

/** Opens a file for reading, failing here (not on the first read) when it is missing. */
async function openStream(file: string, range?: ByteRange): Promise<Readable> {
  // A plain descriptor, not a FileHandle: the stream then reads and closes through fs's callbacks,
  // which cost less per small download than FileHandle's promises and its finalizer.
  const fd = await new Promise<number>((resolve, reject) => fs.open(file, 'r', (error, fd) => (error ? reject(error) : resolve(fd))))
  // 1 MiB reads: the 64 KiB default costs a round of stream bookkeeping per chunk on large files.
  return fs.createReadStream('', { fd, highWaterMark: 1024 * 1024, ...(range ? { start: range.start, end: range.end } : {}) })
}

/** The files under `dir` with their modification times (at exactly `depth` folders down when given); a folder that vanishes is skipped. */
async function* filesUnder(dir: string, depth?: number, level = 0): AsyncIterable<{ path: string; modified: Date }> {
  let entries: fs.Dirent[]
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory() && (depth === undefined || level < depth)) yield* filesUnder(full, depth, level + 1)
    else if (entry.isFile() && (depth === undefined || level === depth)) {
      const stat = await fsp.stat(full).catch(() => null)
      if (stat) yield { path: full, modified: stat.mtime }
    }
  }
}
