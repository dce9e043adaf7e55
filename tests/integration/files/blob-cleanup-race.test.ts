// The blob cleanup racing an upload of the same bytes (lib/hub/files/blobs.ts). A repo is deleted
// while another repo uploads content the deleted repo held: the cleanup must either keep the bytes
// or remove them before the upload looks, which then stores its own copy. Before uploads claimed
// their bytes first and the cleanup removed a blob in one transaction, the upload found the bytes
// still there, discarded its copy and re-inserted the row the cleanup had just deleted; the cleanup
// then removed the bytes, and every download of the file failed (500 ENOENT).
//
// The store here pauses the cleanup's removal of the blob, so that the upload runs exactly inside
// its window: after the cleanup decided to remove the blob, before the bytes are gone. Once guarded,
// the upload waits for the cleanup's transaction instead (SQLite: its write lock; PostgreSQL: the
// deleted key), so the pause ends after a second when the upload has not finished by then.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import S3rver from 's3rver'
import { db } from '@/lib/db'
import { backendFromEnv, blobStore, putBlob, setBlobStore } from '@/lib/storage'
import { DiskBackend } from '@/lib/storage/disk'
import type { BlobBackend, ByteRange } from '@/lib/storage/types'
import { createUser } from '@/lib/hub/users'
import { createRepo } from '@/lib/hub/repos'
import { completeUpload, createCommit, deleteRepoWithFiles, fileResponse, lfsBatch, readCommitBody, removeUnreferencedBlobs, uploadObject, uploadPart, type CommitOperation } from '@/lib/hub/files'

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A store that can hold the next removal of one blob until the test lets it go on. */
class GatedStore implements BlobBackend {
  private readonly gates = new Map<string, { entered: () => void; released: Promise<void> }>()
  constructor(readonly inner: BlobBackend) {}
  get kind() {
    return this.inner.kind
  }

  /** The next remove(sha256) waits for `release`; `entered` resolves when it has started waiting. */
  gate(sha256: string) {
    let entered!: () => void
    let release!: () => void
    const reached = new Promise<void>((r) => (entered = r))
    const released = new Promise<void>((r) => (release = r))
    this.gates.set(sha256, { entered, released })
    return { entered: reached, release }
  }

  async remove(sha256: string) {
    const gate = this.gates.get(sha256)
    if (gate) {
      this.gates.delete(sha256)
      gate.entered()
      await gate.released
    }
    return this.inner.remove(sha256)
  }

  writeStaged(key: string, body: Readable, length: number) {
    return this.inner.writeStaged(key, body, length)
  }

  ready() {
    return this.inner.ready()
  }
  readStaged(key: string) {
    return this.inner.readStaged(key)
  }
  deleteStaged(key: string) {
    return this.inner.deleteStaged(key)
  }
  listStaged() {
    return this.inner.listStaged()
  }
  promote(key: string, sha256: string) {
    return this.inner.promote(key, sha256)
  }
  has(sha256: string) {
    return this.inner.has(sha256)
  }
  listBlobs() {
    return this.inner.listBlobs()
  }
  read(sha256: string, range?: ByteRange) {
    return this.inner.read(sha256, range)
  }
}

const S3_PORT = Number(process.env.TEST_S3_RACE_PORT || 3634)
const CHUNK = 5 * 1024 * 1024 // the smallest multipart part size the settings allow

const diskRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-race-blobs-'))
const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-race-s3rver-'))
const s3 = new S3rver({ port: S3_PORT, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'modhub-race', configs: [] }] })

beforeAll(async () => {
  process.env.FILES_MULTIPART_CHUNK_BYTES = String(CHUNK)
  await s3.run()
})
afterAll(async () => {
  delete process.env.FILES_MULTIPART_CHUNK_BYTES
  await s3.close()
  fs.rmSync(diskRoot, { recursive: true, force: true })
  fs.rmSync(s3Dir, { recursive: true, force: true })
})

const STORES: [string, () => BlobBackend][] = [
  ['disk', () => new DiskBackend(diskRoot)],
  [
    's3',
    () =>
      backendFromEnv({
        STORAGE: 's3',
        S3_BUCKET: 'modhub-race',
        S3_ENDPOINT: `http://127.0.0.1:${S3_PORT}`,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      }),
  ],
]

describe.each(STORES)('blob cleanup racing an upload of the same bytes (%s store)', (kind, makeStore) => {
  let store: GatedStore
  let caller: { userId: string; principal: null }
  let owner: string
  let keeper: Awaited<ReturnType<typeof createRepo>>
  let doomedCount = 0

  beforeAll(async () => {
    store = new GatedStore(makeStore())
    setBlobStore(store)
    const user = await createUser({ username: `race${kind}owner`, email: `race${kind}owner@test.dev`, password: 'password-owner' })
    caller = { userId: user.id, principal: null }
    owner = user.username
    keeper = await createRepo(caller, { namespace: owner, name: 'keeper' })
  })

  /** A new repo whose only commit holds `content` at `file`. */
  async function doomedRepoWith(file: string, content: Buffer) {
    const repo = await createRepo(caller, { namespace: owner, name: `doomed-${++doomedCount}` })
    await createCommit(caller, repo, 'main', { summary: 'add', description: '', parentCommit: null }, [{ kind: 'file', path: file, content }])
    expect(await blobStore().has(sha256(content))).toBe(true)
    return repo
  }

  function commitToKeeper(operations: CommitOperation[]) {
    return createCommit(caller, keeper, 'main', { summary: 'add', description: '', parentCommit: null }, operations)
  }

  /**
   * Runs `cleanup` until it is about to remove the bytes of `sha`, then `upload` inside that window;
   * lets the removal go on once the upload has finished, or after a second when it waits for the
   * cleanup. The upload's result.
   */
  async function uploadInsideCleanup<T>(sha: string, cleanup: () => Promise<unknown>, upload: () => Promise<T>): Promise<T> {
    const gate = store.gate(sha)
    const cleaning = cleanup()
    await Promise.race([gate.entered, cleaning.then(() => Promise.reject(new Error('the cleanup ended without removing the bytes')))])
    const uploading = upload()
    await Promise.race([uploading.catch(() => undefined), sleep(1000)])
    gate.release()
    await cleaning
    return uploading
  }

  /** The row of the blob, if there is one, names bytes the store holds. */
  async function expectRowNamesStoredBytes(sha: string) {
    const row = await db.storedBlob.findUnique({ where: { sha256: sha } })
    if (row) expect(await store.has(sha), `StoredBlob ${sha} names bytes the store does not hold`).toBe(true)
  }

  async function download(file: string): Promise<Buffer> {
    const response = await fileResponse(caller, { type: 'model', namespace: owner, name: 'keeper' }, {
      revision: 'main', path: file, raw: false, method: 'GET', range: null, ifRange: null, ifNoneMatch: null, noContentDisposition: true, download: false,
    })
    expect(response.status).toBe(200)
    return Buffer.from(await response.arrayBuffer())
  }

  const deleteRepo = (name: string) => () => deleteRepoWithFiles(caller, 'model', owner, name)

  it('an inline file committed while a deleted repo with the same bytes is cleaned up', async () => {
    const content = Buffer.from(`inline content shared with a deleted repo (${kind})`)
    const doomed = await doomedRepoWith('same.txt', content)
    await uploadInsideCleanup(sha256(content), deleteRepo(doomed.name), () => commitToKeeper([{ kind: 'file', path: 'inline.txt', content }]))
    await expectRowNamesStoredBytes(sha256(content))
    expect(await db.storedBlob.findUnique({ where: { sha256: sha256(content) } })).not.toBeNull()
    expect(await download('inline.txt')).toEqual(content)
  })

  it('an inline file of a commit body (readCommitBody) during the cleanup', async () => {
    const content = Buffer.from(`commit body content shared with a deleted repo (${kind})`)
    const doomed = await doomedRepoWith('same.txt', content)
    const body = [
      { key: 'header', value: { summary: 'from the body' } },
      { key: 'file', value: { path: 'body.txt', content: content.toString('base64'), encoding: 'base64' } },
    ].map((line) => JSON.stringify(line)).join('\n')
    const request = new Request('http://hub.test/api/models/x/y/commit/main', { method: 'POST', body, headers: { 'Content-Type': 'application/x-ndjson' } })
    const { header, operations } = await uploadInsideCleanup(sha256(content), deleteRepo(doomed.name), () => readCommitBody(request, keeper.id))
    await createCommit(caller, keeper, 'main', header, operations)
    await expectRowNamesStoredBytes(sha256(content))
    expect(await download('body.txt')).toEqual(content)
  })

  it('an LFS upload (one PUT) during the cleanup, committed after it', async () => {
    const content = Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(`lfs content shared with a deleted repo (${kind})`)])
    const sha = sha256(content)
    const doomed = await doomedRepoWith('same.bin', content)
    // The batch comes first: the cleanup's transaction holds SQLite's lock while it is paused.
    const batch = await lfsBatch(caller, { type: 'model', namespace: owner, name: 'keeper' }, { operation: 'upload', objects: [{ oid: sha, size: content.length }] }, 'http://hub.test', null)
    const href = (batch.objects[0] as { actions?: { upload: { href: string } } }).actions!.upload.href
    const token = href.split('/api/lfs/uploads/')[1]!
    await uploadInsideCleanup(sha, deleteRepo(doomed.name), () =>
      uploadObject(token, new Request(href, { method: 'PUT', body: content, headers: { 'Content-Length': String(content.length) } })),
    )
    await expectRowNamesStoredBytes(sha)
    // The upload is the keeper's: its commit finds it, and the file downloads.
    await commitToKeeper([{ kind: 'lfsFile', path: 'put.bin', sha256: sha, size: content.length }])
    expect(await download('put.bin')).toEqual(content)
  })

  it('a multipart LFS upload completed during the cleanup, committed after it', async () => {
    const content = Buffer.concat([Buffer.alloc(CHUNK, 9), Buffer.from(`multipart tail (${kind})`)])
    const sha = sha256(content)
    const doomed = await doomedRepoWith('same.bin', content)
    const batch = await lfsBatch(
      caller, { type: 'model', namespace: owner, name: 'keeper' },
      { operation: 'upload', transfers: ['basic', 'multipart'], objects: [{ oid: sha, size: content.length }] }, 'http://hub.test', null,
    )
    const upload = (batch.objects[0] as { actions?: { upload: { href: string; header: Record<string, string> } } }).actions!.upload
    const token = upload.href.split('/api/lfs/uploads/')[1]!.split('/')[0]!
    const parts = [content.subarray(0, CHUNK), content.subarray(CHUNK)]
    const etags: string[] = []
    for (const [i, part] of parts.entries()) {
      etags.push(await uploadPart(token, i + 1, new Request(upload.header[String(i + 1).padStart(5, '0')]!, { method: 'PUT', body: part })))
    }
    await uploadInsideCleanup(sha, deleteRepo(doomed.name), () => completeUpload(token, { oid: sha, parts: etags.map((etag, i) => ({ partNumber: i + 1, etag })) }))
    await expectRowNamesStoredBytes(sha)
    await commitToKeeper([{ kind: 'lfsFile', path: 'parts.bin', sha256: sha, size: content.length }])
    expect((await download('parts.bin')).equals(content)).toBe(true)
  })

  it('an LFS object uploaded longer ago than the grace period, committed while the cleanup removes it', async () => {
    // The keeper's claim is two days old and nothing refers to the bytes yet: the sweep may take
    // them. The commit must then fail (422: upload again), never refer to bytes that are gone. Before
    // the commit locked the rows of its LFS objects, it checked them before its transaction and
    // committed while the cleanup (PostgreSQL) removed the bytes: a file that could not download.
    const content = Buffer.concat([Buffer.from([7, 7]), Buffer.from(`lfs content uploaded long ago (${kind})`)])
    const sha = sha256(content)
    const batch = await lfsBatch(caller, { type: 'model', namespace: owner, name: 'keeper' }, { operation: 'upload', objects: [{ oid: sha, size: content.length }] }, 'http://hub.test', null)
    const href = (batch.objects[0] as { actions?: { upload: { href: string } } }).actions!.upload.href
    await uploadObject(href.split('/api/lfs/uploads/')[1]!, new Request(href, { method: 'PUT', body: content, headers: { 'Content-Length': String(content.length) } }))
    const longAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000)
    await db.repoBlob.updateMany({ where: { sha256: sha }, data: { createdAt: longAgo } })
    await db.storedBlob.update({ where: { sha256: sha }, data: { createdAt: longAgo } })
    const committing = uploadInsideCleanup(sha, () => removeUnreferencedBlobs(), () => commitToKeeper([{ kind: 'lfsFile', path: 'old.bin', sha256: sha, size: content.length }]))
    await expect(committing).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/old\.bin: LFS object .* (was not uploaded|is no longer stored)/) })
    const head = await db.repoRef.findUniqueOrThrow({ where: { repoId_name: { repoId: keeper.id, name: 'main' } } })
    expect(await db.treeEntry.count({ where: { commitId: head.commitId, path: 'old.bin' } })).toBe(0)
    expect(await store.has(sha)).toBe(false)
    expect(await db.storedBlob.findUnique({ where: { sha256: sha } })).toBeNull()
  })

  it('the sweep of stored bytes without a row, while an upload of the same bytes records its row', async () => {
    const content = Buffer.from(`bytes whose row never came, uploaded again (${kind})`)
    const sha = await putBlob(Readable.from([content]), { size: content.length })
    expect(await db.storedBlob.findUnique({ where: { sha256: sha } })).toBeNull()
    await uploadInsideCleanup(sha, () => removeUnreferencedBlobs({ graceMs: -60_000 }), () => commitToKeeper([{ kind: 'file', path: 'orphan.txt', content }]))
    await expectRowNamesStoredBytes(sha)
    expect(await download('orphan.txt')).toEqual(content)
  })

  it('deleting a repo still removes at once the bytes nothing else refers to, and keeps those the keeper committed', async () => {
    const only = Buffer.from(`only in the deleted repo (${kind})`)
    const shared = Buffer.from(`in both repos (${kind})`)
    const doomed = await doomedRepoWith('only.txt', only)
    await createCommit(caller, doomed, 'main', { summary: 'more', description: '', parentCommit: null }, [{ kind: 'file', path: 'shared.txt', content: shared }])
    await commitToKeeper([{ kind: 'file', path: 'shared.txt', content: shared }])
    await deleteRepoWithFiles(caller, 'model', owner, doomed.name)
    expect(await db.storedBlob.findUnique({ where: { sha256: sha256(only) } })).toBeNull()
    expect(await store.has(sha256(only))).toBe(false)
    expect(await db.repoBlob.count({ where: { sha256: sha256(only) } })).toBe(0)
    await expectRowNamesStoredBytes(sha256(shared))
    expect(await download('shared.txt')).toEqual(shared)
  })
})
