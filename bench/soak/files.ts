// File traffic of the soak: commits of regular and LFS files and downloads with the unmodified
// @huggingface/hub, through the load balancer, into repos of the soak's own; and the invariants of
// the blob store checked afterwards from the database and the store.
import { createHash } from 'node:crypto'
import { commit, createRepo, downloadFile } from '@huggingface/hub'
import { db } from '@/lib/db'
import { blobStore, cleanupStaging } from '@/lib/storage'
import { removeUnreferencedBlobs } from '@/lib/hub/files/blobs'
import type { Invariant } from './invariants'
import fs from 'node:fs'
import path from 'node:path'

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

/** How long after its abort an aborted commit may take to settle before the client gives it up. */
const ABORTED_COMMIT_GRACE_MS = 5000

function givenUpAfter(ms: number): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`the aborted commit had not settled ${ms} ms after it began`)), ms).unref())
}

export type CommittedFile = { path: string; sha256: string; size: number; lfs: boolean }
export type SeenCommit = { repo: string; oid: string; files: CommittedFile[] }

export class FileLoad {
  readonly commits: SeenCommit[] = []
  /** Commits the client saw fail (no answer, a 5xx, or aborted on purpose). */
  readonly failedCommits: { repo: string; title: string }[] = []
  readonly downloads: { ok: boolean; path: string; expected: string; got: string | null }[] = []
  private n = 0

  constructor(
    readonly hubUrl: string,
    readonly accessToken: string,
    readonly repos: string[],
  ) {}

  static async create(hubUrl: string, accessToken: string, owner: string, count: number) {
    const repos = []
    for (let i = 0; i < count; i++) {
      const name = `${owner}/soak-files-${i}`
      await createRepo({ repo: name, accessToken, hubUrl })
      repos.push(name)
    }
    return new FileLoad(hubUrl, accessToken, repos)
  }

  private content(bytes: number, seed: number) {
    const out = new Uint8Array(bytes)
    for (let i = 0; i < bytes; i++) out[i] = (seed * 31 + i * 7) & 0xff
    out[0] = 0 // binary: goes through LFS
    return out
  }

  /** One commit of a text file (regular) and a binary file (LFS), each with new content. */
  async commitFiles(abortAfterMs?: number) {
    const i = this.n++
    const repo = this.repos[i % this.repos.length]!
    const text = new TextEncoder().encode(`soak ${i} ${Date.now()}\n`)
    const binary = this.content(abortAfterMs ? 3_000_000 : 20_000 + (i % 7) * 10_000, i)
    const files: CommittedFile[] = [
      { path: `text/${i % 5}.txt`, sha256: sha256(text), size: text.length, lfs: false },
      { path: `weights/${i % 5}.bin`, sha256: sha256(binary), size: binary.length, lfs: true },
    ]
    const title = `soak commit ${i}`
    try {
      const committing = commit({
        repo, accessToken: this.accessToken, hubUrl: this.hubUrl, title,
        operations: [
          { operation: 'addOrUpdate', path: files[0]!.path, content: new Blob([text]) },
          { operation: 'addOrUpdate', path: files[1]!.path, content: new Blob([binary]) },
        ],
        ...(abortAfterMs ? { abortSignal: AbortSignal.timeout(abortAfterMs) } : {}),
      })
      // An aborted commit can stay pending for ever: @huggingface/hub's eventToGenerator (which
      // commit() runs its hashing and upload phases through) hands a rejection to its oldest
      // promise, and when that one was already resolved with an event not yet consumed (a hashing
      // progress, say) the rejection is lost and the generator waits for ever. Whether an abort
      // lands at that moment depends on timing (about one short soak in five on a loaded machine).
      // So the client gives the commit up a few seconds after its abort, as a person would.
      const out = abortAfterMs ? await Promise.race([committing, givenUpAfter(abortAfterMs + ABORTED_COMMIT_GRACE_MS)]) : await committing
      if (!out?.commit.oid) throw new Error('commit without an id')
      this.commits.push({ repo, oid: out.commit.oid, files })
    } catch (error) {
      this.failedCommits.push({ repo, title })
      if (!abortAfterMs) throw error
    }
  }

  async download() {
    const seen = this.commits.at(-1 - Math.floor(Math.random() * Math.min(5, this.commits.length)))
    if (!seen) return this.commitFiles()
    const file = seen.files[Math.floor(Math.random() * seen.files.length)]!
    // The newest commit's content for this path is what main serves; read it at the commit itself.
    const blob = await downloadFile({ repo: seen.repo, path: file.path, revision: seen.oid, hubUrl: this.hubUrl, accessToken: this.accessToken })
    const got = blob ? sha256(new Uint8Array(await blob.arrayBuffer())) : null
    this.downloads.push({ ok: got === file.sha256, path: file.path, expected: file.sha256, got })
    if (got !== file.sha256) throw new Error(`download of ${file.path} at ${seen.oid.slice(0, 8)}: sha256 ${got}`)
  }

  /** A download read halfway, then the connection dropped. */
  async abandonDownload() {
    const seen = this.commits.at(-1)
    if (!seen) return
    const file = seen.files.find((f) => f.lfs)!
    const controller = new AbortController()
    const res = await fetch(`${this.hubUrl}/${seen.repo}/resolve/${seen.oid}/${file.path}`, { signal: controller.signal, headers: { authorization: `Bearer ${this.accessToken}` } })
    const reader = res.body!.getReader()
    await reader.read()
    controller.abort()
  }
}

/** Invariants of the files: read from the database and the store, files downloaded again to check their bytes. */
export async function checkFileInvariants(load: FileLoad, storeDir: string): Promise<Invariant[]> {
  const results: Invariant[] = []
  const onBranch: Invariant = { name: 'every commit a client saw succeed is on its branch, its files readable with the right sha256', checked: 0, violations: [] }
  for (const seen of load.commits) {
    onBranch.checked++
    const [namespace, name] = seen.repo.split('/')
    const repo = await db.repo.findFirst({ where: { type: 'model', namespace, name } })
    const head = repo && (await db.repoRef.findUnique({ where: { repoId_name: { repoId: repo.id, name: 'main' } } }))
    let at = head?.commitId ?? null
    let found = false
    for (let steps = 0; at && steps < 10_000; steps++) {
      if (at === seen.oid) {
        found = true
        break
      }
      at = (await db.repoCommit.findUnique({ where: { id: at }, select: { parentId: true } }))?.parentId ?? null
    }
    if (!found) onBranch.violations.push(`${seen.repo}@${seen.oid.slice(0, 8)} is not on main`)
    for (const file of seen.files) {
      const entry = await db.treeEntry.findUnique({ where: { commitId_path: { commitId: seen.oid, path: file.path } } })
      if (!entry || entry.blobSha256 !== file.sha256) onBranch.violations.push(`${seen.repo}@${seen.oid.slice(0, 8)}:${file.path} records ${entry?.blobSha256 ?? 'nothing'}`)
      const blob = await downloadFile({ repo: seen.repo, path: file.path, revision: seen.oid, hubUrl: load.hubUrl, accessToken: load.accessToken }).catch(() => null)
      const got = blob ? sha256(new Uint8Array(await blob.arrayBuffer())) : null
      if (got !== file.sha256) onBranch.violations.push(`${seen.repo}@${seen.oid.slice(0, 8)}:${file.path} reads back as ${got}`)
    }
  }
  results.push(onBranch)

  const referenced: Invariant = { name: 'no blob referenced by a commit is missing (database row and stored bytes)', checked: 0, violations: [] }
  const shas = (await db.treeEntry.findMany({ distinct: ['blobSha256'], select: { blobSha256: true } })).map((e) => e.blobSha256)
  const rows = new Set((await db.storedBlob.findMany({ select: { sha256: true } })).map((b) => b.sha256))
  for (const sha of shas) {
    referenced.checked++
    if (!rows.has(sha)) referenced.violations.push(`blob ${sha.slice(0, 12)} has no row`)
    if (!(await blobStore().has(sha))) referenced.violations.push(`blob ${sha.slice(0, 12)} is not in the store`)
  }
  results.push(referenced)

  const orphans: Invariant = { name: 'no orphan blob or staged upload survives the cleanup', checked: 0, violations: [] }
  await removeUnreferencedBlobs({ graceMs: 0 })
  await cleanupStaging(0)
  const referencedSet = new Set(shas)
  for (const row of await db.storedBlob.findMany({ select: { sha256: true } })) {
    orphans.checked++
    if (!referencedSet.has(row.sha256)) orphans.violations.push(`blob ${row.sha256.slice(0, 12)} is referenced by no commit`)
  }
  for await (const staged of blobStore().listStaged()) orphans.violations.push(`staged ${staged.key} left`)
  // Bytes in the disk store that no row names (a write whose row never came): invisible, but kept.
  const rowsAfter = new Set((await db.storedBlob.findMany({ select: { sha256: true } })).map((b) => b.sha256))
  for (const file of walk(path.join(storeDir, 'sha256'))) {
    orphans.checked++
    if (!rowsAfter.has(path.basename(file))) orphans.violations.push(`stored bytes ${path.basename(file).slice(0, 12)} have no row`)
  }
  results.push(orphans)
  return results
}

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
}
