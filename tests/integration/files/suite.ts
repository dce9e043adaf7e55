// Every file function of the unmodified @huggingface/hub against the hub over HTTP, and the
// refusals the issue lists. Run once per blob store (files-disk / files-s3 test files).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  checkRepoAccess, commit, countCommits, createBranch, createRepo, spaceInfo, deleteBranch, deleteFile, deleteFiles, downloadFile, downloadFileToCacheDir,
  fileDownloadInfo, fileExists, modelInfo, listCommits, listFiles, listModels, pathsInfo, repoExists, snapshotDownload, uploadFile, uploadFiles,
  uploadFilesWithProgress,
} from '@huggingface/hub'
import { db } from '@/lib/db'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { issueToken, revokeToken } from '@/lib/auth/tokens'
import { Readable } from 'node:stream'
import { blobStore, cleanupStaging, putBlob, putPart } from '@/lib/storage'
import { removeUnreferencedBlobs } from '@/lib/hub/files'
import { addMember, changeMember } from '@/lib/hub/orgs'
import { createHash } from 'node:crypto'
import { startHubServer } from './hub-server'
import { fileFixtures } from './setup'

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')
const gitOid = (b: Buffer) => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex')
const blob = (content: string | Buffer) => new Blob([typeof content === "string" ? content : new Uint8Array(content)])
async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

/** Limits the suite runs under (the server's environment too), small enough to test cheaply. */
const LIMITS = { FILES_MAX_FILE_BYTES: String(1_000_000), FILES_MAX_COMMIT_BYTES: String(2_000_000) }

export function fileSuite(prefix: string, storeEnv: Record<string, string>, listStaged: () => Promise<string[]>) {
  let hubUrl: string
  let close: () => Promise<void>
  let f: Awaited<ReturnType<typeof fileFixtures>>
  let repo: string
  const binary = Buffer.concat([Buffer.from([0, 1, 2, 3]), Buffer.alloc(70_000, 7)])

  /**
   * No staged bytes left by a refused or cut-off upload. The disk store removes them at once;
   * s3rver may still save what it received of an aborted PUT after the hub deleted the key (real
   * S3 keeps no incomplete PUT), so on S3 what remains must be gone after the cleanup.
   */
  async function expectNothingStaged() {
    if (blobStore().kind !== 'disk') {
      await new Promise((r) => setTimeout(r, 300))
      await cleanupStaging(-1)
    }
    expect(await listStaged()).toEqual([])
  }

  beforeAll(async () => {
    Object.assign(process.env, LIMITS)
    ;({ url: hubUrl, close } = await startHubServer({ ...storeEnv, ...LIMITS }))
    f = await fileFixtures(prefix)
    repo = `${f.owner}/files`
  })
  afterAll(async () => {
    await close()
    for (const k of Object.keys(LIMITS)) delete process.env[k]
  })

  describe('upload and read back', () => {
    it('uploadFiles: text goes inline, binary through LFS; listFiles, pathsInfo, downloadFile, raw and HEAD agree', async () => {
      const readme = '---\nlicense: mit\n---\n# Files\n'
      const out = await uploadFiles({
        repo, accessToken: f.write, hubUrl,
        files: [
          { path: 'README.md', content: blob(readme) },
          { path: 'config/model.json', content: blob('{"a":1}') },
          { path: 'weights/model.bin', content: blob(binary) },
        ],
      })
      expect(out?.commit.oid).toMatch(/^[0-9a-f]{40}$/)

      const top = await collect(listFiles({ repo, accessToken: f.write, hubUrl }))
      expect(top.map((e) => [e.type, e.path])).toEqual([['directory', 'config'], ['directory', 'weights'], ['file', 'README.md']])
      const all = await collect(listFiles({ repo, hubUrl, recursive: true, expand: true }))
      const weights = all.find((e) => e.path === 'weights/model.bin')!
      expect(weights).toMatchObject({ type: 'file', size: binary.length, lfs: { oid: sha256(binary), size: binary.length } })
      expect(weights.lastCommit?.id).toBe(out!.commit.oid)
      expect(all.find((e) => e.path === 'README.md')).toMatchObject({ oid: gitOid(Buffer.from(readme)), size: readme.length })
      expect(all.find((e) => e.path === 'README.md')?.lfs).toBeUndefined()

      const infos = await pathsInfo({ repo, hubUrl, paths: ['README.md', 'weights', 'missing.txt'], expand: true })
      expect(infos.map((i) => [i.path, i.type])).toEqual([['README.md', 'file'], ['weights', 'directory']])
      expect(infos[0]!.lastCommit.id).toBe(out!.commit.oid)

      expect(await (await downloadFile({ repo, path: 'README.md', hubUrl }))!.text()).toBe(readme)
      const bin = await downloadFile({ repo, path: 'weights/model.bin', hubUrl })
      expect(Buffer.from(await bin!.arrayBuffer()).equals(binary)).toBe(true)
      expect(await blobStore().has(sha256(binary))).toBe(true)
      // A range through the client's lazy blob, then by hand: 206 with Content-Range.
      expect(Buffer.from(await bin!.slice(2, 6).arrayBuffer())).toEqual(binary.subarray(2, 6))
      const ranged = await fetch(`${hubUrl}/${repo}/resolve/main/weights/model.bin`, { headers: { Range: 'bytes=-3' } })
      expect(ranged.status).toBe(206)
      expect(ranged.headers.get('content-range')).toBe(`bytes ${binary.length - 3}-${binary.length - 1}/${binary.length}`)
      expect(Buffer.from(await ranged.arrayBuffer())).toEqual(binary.subarray(-3))
      expect((await fetch(`${hubUrl}/${repo}/resolve/main/weights/model.bin`, { headers: { Range: `bytes=${binary.length}-` } })).status).toBe(416)

      const head = await fetch(`${hubUrl}/${repo}/resolve/main/weights/model.bin`, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.headers.get('etag')).toBe(`"${sha256(binary)}"`)
      expect(head.headers.get('x-linked-etag')).toBe(`"${sha256(binary)}"`)
      expect(head.headers.get('x-linked-size')).toBe(String(binary.length))
      // Next 16 drops Content-Length from every route handler's response (send-response.js
      // FORBIDDEN_HEADERS); the in-process server and npm start's fast path keep the handler's.
      if (process.env.FILES_TEST_SERVER !== 'next') expect(head.headers.get('content-length')).toBe(String(binary.length))
      expect(head.headers.get('accept-ranges')).toBe('bytes')
      expect(head.headers.get('x-repo-commit')).toBe(out!.commit.oid)
      const raw = await (await fetch(`${hubUrl}/${repo}/raw/main/weights/model.bin`)).text()
      expect(raw).toBe(`version https://git-lfs.github.com/spec/v1\noid sha256:${sha256(binary)}\nsize ${binary.length}\n`)

      // Repo info (revision HEAD by default) names the head commit and the files.
      const repoInfo = await modelInfo({ name: repo, hubUrl, additionalFields: ['sha'] })
      expect(repoInfo.sha).toBe(out!.commit.oid)

      const info = await fileDownloadInfo({ repo, path: 'weights/model.bin', hubUrl })
      expect(info).toMatchObject({ size: binary.length, etag: `"${sha256(binary)}"` })
      expect(await fileDownloadInfo({ repo, path: 'nope.bin', hubUrl })).toBeNull()
      expect(await fileExists({ repo, path: 'config/model.json', hubUrl })).toBe(true)
      expect(await fileExists({ repo, path: 'config/other.json', hubUrl })).toBe(false)
    })

    it('createRepo with files and a license: they are the first commit on main; a refused file or license creates nothing', async () => {
      const name = `${f.owner}/created-with-files`
      const weights = binary.subarray(0, 100)
      await createRepo({
        repo: name, accessToken: f.write, hubUrl, license: 'apache-2.0',
        files: [{ path: 'config.json', content: blob('{"a":1}') }, { path: 'weights/w.bin', content: blob(weights) }],
      })
      const files = await collect(listFiles({ repo: name, hubUrl, recursive: true }))
      expect(files.filter((e) => e.type === 'file').map((e) => e.path).sort()).toEqual(['.gitattributes', 'README.md', 'config.json', 'weights/w.bin'])
      expect(await (await downloadFile({ repo: name, path: 'README.md', hubUrl }))!.text()).toBe('---\nlicense: apache-2.0\n---\n')
      expect(Buffer.from(await (await downloadFile({ repo: name, path: 'weights/w.bin', hubUrl }))!.arrayBuffer())).toEqual(weights)
      expect((await collect(listCommits({ repo: name, hubUrl }))).map((c) => [c.title, c.authors[0]?.username])).toEqual([['initial commit', f.owner]])

      // A README of the caller's own keeps its words; the commit API's utf-8 encoding is read as text.
      const own = `${f.owner}/created-with-readme`
      const created = await fetch(`${hubUrl}/api/repos/create`, {
        method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'created-with-readme', type: 'model', license: 'mit', files: [{ path: 'README.md', content: '# Mine\n', encoding: 'utf-8' }] }),
      })
      expect(created.status).toBe(200)
      expect(await (await downloadFile({ repo: own, path: 'README.md', hubUrl }))!.text()).toBe('# Mine\n')

      // A Space's SDK is its card's, as spaceInfo reads it.
      await createRepo({ repo: { type: 'space', name: `${f.owner}/a-space` }, accessToken: f.write, hubUrl, sdk: 'gradio' })
      expect(await spaceInfo({ name: `${f.owner}/a-space`, hubUrl })).toMatchObject({ sdk: 'gradio' })
      expect(await (await downloadFile({ repo: { type: 'space', name: `${f.owner}/a-space` }, path: 'README.md', hubUrl }))!.text()).toBe('---\ntitle: a-space\nsdk: gradio\n---\n')

      // Refused before anything exists: no repo is left behind.
      const refused: [string, Record<string, unknown>, number][] = [
        ['bad-path', { files: [{ path: '../escape.txt', content: 'eA==' }] }, 400],
        ['bad-base64', { files: [{ path: 'a.txt', content: 'not base64!' }] }, 422],
        ['twice', { files: [{ path: 'a.txt', content: 'eA==' }, { path: 'a.txt', content: 'eQ==' }] }, 400],
        ['bad-license', { license: 'MIT License; rm -rf' }, 400],
        ['bad-files', { files: 'a.txt' }, 400],
        ['bad-encoding', { files: [{ path: 'a.txt', content: 'x', encoding: 'hex' }] }, 400],
        ['bad-sdk', { type: 'space', sdk: 'flask' }, 400],
      ]
      for (const [suffix, extra, status] of refused) {
        const res = await fetch(`${hubUrl}/api/repos/create`, {
          method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `refused-${suffix}`, type: 'model', ...extra }),
        })
        expect(res.status, suffix).toBe(status)
        expect((await res.json()) as { error?: string }, suffix).toHaveProperty('error')
        const type = extra.type === 'space' ? 'space' : 'model'
        expect(await repoExists({ repo: { type, name: `${f.owner}/refused-${suffix}` }, hubUrl, accessToken: f.write }), suffix).toBe(false)
      }
      // A token that may not create repos creates nothing, files or not.
      await expect(createRepo({ repo: `${f.owner}/refused-read`, accessToken: f.read, hubUrl, files: [{ path: 'a.txt', content: blob('a') }] })).rejects.toMatchObject({ statusCode: 403 })
      expect(await repoExists({ repo: `${f.owner}/refused-read`, hubUrl, accessToken: f.write })).toBe(false)
    })

    it('a repo created without files has the Hub\'s first commit (.gitattributes): snapshotDownload works, and its patterns route uploads to LFS', async () => {
      const name = `${f.owner}/created-empty`
      await createRepo({ repo: name, accessToken: f.write, hubUrl })
      expect((await collect(listCommits({ repo: name, hubUrl }))).map((c) => c.title)).toEqual(['initial commit'])
      const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-cache-'))
      try {
        const snapshot = await snapshotDownload({ repo: name, hubUrl, cacheDir })
        expect(fs.readdirSync(snapshot)).toEqual(['.gitattributes'])
        expect(fs.readFileSync(path.join(snapshot, '.gitattributes'), 'utf8')).toContain('*.safetensors filter=lfs diff=lfs merge=lfs -text\n')
      } finally {
        fs.rmSync(cacheDir, { recursive: true, force: true })
      }
      // A small text file under a pattern goes to LFS, as the Hub advises; one under none stays regular.
      const sample = Buffer.from('{"not": "really weights"}').toString('base64')
      const preupload = async (repoPath: string, paths: string[]) => {
        const res = await fetch(`${hubUrl}/api/${repoPath}/preupload/main`, {
          method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ files: paths.map((p) => ({ path: p, size: 25, sample })) }),
        })
        expect(res.status).toBe(200)
        return ((await res.json()) as { files: { path: string; uploadMode: string }[] }).files.map((file) => [file.path, file.uploadMode])
      }
      expect(await preupload(`models/${name}`, ['model.safetensors', 'saved_model/variables/data', 'events.out.tfevents.1', 'config.json', 'photo.png'])).toEqual([
        ['model.safetensors', 'lfs'], ['saved_model/variables/data', 'lfs'], ['events.out.tfevents.1', 'lfs'], ['config.json', 'regular'], ['photo.png', 'regular'],
      ])
      // A dataset's also keeps media in LFS; the caller's own .gitattributes replaces the Hub's.
      const dataset = { type: 'dataset' as const, name: `${f.owner}/created-empty-data` }
      await createRepo({ repo: dataset, accessToken: f.write, hubUrl })
      expect(await preupload(`datasets/${dataset.name}`, ['photo.png', 'train.parquet', 'notes.txt'])).toEqual([['photo.png', 'lfs'], ['train.parquet', 'lfs'], ['notes.txt', 'regular']])
      const own = `${f.owner}/created-own-attributes`
      await createRepo({ repo: own, accessToken: f.write, hubUrl, files: [{ path: '.gitattributes', content: blob('*.txt filter=lfs diff=lfs merge=lfs -text\n') }] })
      expect(await preupload(`models/${own}`, ['model.safetensors', 'notes.txt'])).toEqual([['model.safetensors', 'regular'], ['notes.txt', 'lfs']])
    })

    it('the model card is the repo\'s metadata: modelInfo and listModels show its task, library, tags and cardData, and listModels filters by them', async () => {
      const name = `${f.owner}/carded`
      const card = '---\nlicense: mit\nlibrary_name: transformers\npipeline_tag: text-classification\ntags:\n  - moderation\nlanguage: [en, fr]\n---\n# Carded\n'
      await createRepo({ repo: name, accessToken: f.write, hubUrl, files: [{ path: 'README.md', content: blob(card) }] })
      const info = await modelInfo({ name, hubUrl, additionalFields: ['cardData', 'tags', 'library_name'] })
      expect(info.task).toBe('text-classification')
      expect(info.library_name).toBe('transformers')
      expect(info.tags).toEqual(['moderation', 'transformers', 'text-classification', 'license:mit', 'en', 'fr'])
      expect(info.cardData).toMatchObject({ license: 'mit', language: ['en', 'fr'], tags: ['moderation'] })

      const names = async (search: NonNullable<Parameters<typeof listModels>[0]>['search']) => (await collect(listModels({ hubUrl, search }))).map((m) => m.name)
      expect(await names({ owner: f.owner, task: 'text-classification' })).toEqual([name])
      expect(await names({ owner: f.owner, task: 'token-classification' })).toEqual([])
      expect(await names({ owner: f.owner, tags: ['moderation', 'license:mit'] })).toEqual([name])
      expect(await names({ owner: f.owner, tags: ['moderation', 'license:apache-2.0'] })).toEqual([])
      const [listed] = await collect(listModels({ hubUrl, search: { owner: f.owner, task: 'text-classification' }, additionalFields: ['tags'] }))
      expect(listed).toMatchObject({ task: 'text-classification', tags: info.tags })

      // A commit that changes the card changes the answer; the older revision keeps its own.
      const before = (await modelInfo({ name, hubUrl, additionalFields: ['sha'] })).sha
      await uploadFile({ repo: name, accessToken: f.write, hubUrl, file: { path: 'README.md', content: blob('---\npipeline_tag: token-classification\n---\n') } })
      expect((await modelInfo({ name, hubUrl })).task).toBe('token-classification')
      expect((await modelInfo({ name, hubUrl, revision: before })).task).toBe('text-classification')
      expect(await names({ owner: f.owner, task: 'text-classification' })).toEqual([])
      // No card, no metadata: a repo without README lists plain.
      expect((await modelInfo({ name: repo, hubUrl, additionalFields: ['tags'] })).tags).toEqual(expect.any(Array))
    })

    it('uploadFilesWithProgress reports progress; datasets use their prefix', async () => {
      const events = []
      const it = uploadFilesWithProgress({ repo: { type: 'dataset', name: `${f.owner}/data` }, accessToken: f.write, hubUrl, files: [{ path: 'train.bin', content: blob(binary) }] })
      let step = await it.next()
      while (!step.done) {
        events.push(step.value)
        step = await it.next()
      }
      expect(step.value?.commit.oid).toMatch(/^[0-9a-f]{40}$/)
      const progress = events.filter((e) => e.event === 'fileProgress' && e.state === 'uploading')
      expect(progress.at(-1)).toMatchObject({ path: 'train.bin', progress: 1 })
      const got = await downloadFile({ repo: { type: 'dataset', name: `${f.owner}/data` }, path: 'train.bin', hubUrl })
      expect(got!.size).toBe(binary.length)
      expect((await fetch(`${hubUrl}/datasets/${f.owner}/data/resolve/main/train.bin`, { method: 'HEAD' })).headers.get('x-linked-size')).toBe(String(binary.length))
    })

    it('commit adds and deletes files and folders, checks parentCommit; history and count follow', async () => {
      const before = await countCommits({ repo, hubUrl })
      const first = await uploadFile({ repo, accessToken: f.write, hubUrl, file: { path: 'docs/a.txt', content: blob('a') } })
      const head = first!.commit.oid
      await commit({ repo, accessToken: f.write, hubUrl, title: 'more docs', parentCommit: head, operations: [{ operation: 'addOrUpdate', path: 'docs/b.txt', content: blob('b') }] })
      // Stale parent: the head moved since `head`.
      await expect(
        commit({ repo, accessToken: f.write, hubUrl, title: 'stale', parentCommit: head, operations: [{ operation: 'addOrUpdate', path: 'docs/c.txt', content: blob('c') }] }),
      ).rejects.toMatchObject({ statusCode: 412 })
      expect(await fileExists({ repo, path: 'docs/c.txt', hubUrl })).toBe(false)

      await deleteFile({ repo, accessToken: f.write, hubUrl, path: 'docs/a.txt' })
      expect(await fileExists({ repo, path: 'docs/a.txt', hubUrl })).toBe(false)
      await deleteFiles({ repo, accessToken: f.write, hubUrl, paths: ['docs/b.txt'] })
      // deletedFolder, as other clients send it.
      await uploadFiles({ repo, accessToken: f.write, hubUrl, files: [{ path: 'tmp/x.txt', content: blob('x') }, { path: 'tmp/y/z.txt', content: blob('z') }] })
      const res = await fetch(`${hubUrl}/api/models/${repo}/commit/main`, {
        method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/x-ndjson' },
        body: [{ key: 'header', value: { summary: 'drop tmp' } }, { key: 'deletedFolder', value: { path: 'tmp/' } }].map((l) => JSON.stringify(l)).join('\n'),
      })
      expect(res.status).toBe(200)
      expect(await fileExists({ repo, path: 'tmp/y/z.txt', hubUrl })).toBe(false)

      expect(await countCommits({ repo, hubUrl })).toBe(before + 6)
      const history = await collect(listCommits({ repo, hubUrl, batchSize: 2 }))
      expect(history).toHaveLength(before + 6)
      expect(history[0]).toMatchObject({ title: 'drop tmp', authors: [{ username: f.owner }] })
      expect(history.map((c) => c.title)).toContain('more docs')
      // The old revision still holds the deleted file.
      expect(await (await downloadFile({ repo, path: 'docs/a.txt', revision: head, hubUrl }))!.text()).toBe('a')
    })

    it('reads a commit line by line as it arrives: lines split across chunks, several in one chunk, blank ones', async () => {
      const contents = Array.from({ length: 5 }, (_, i) => `line-split file ${i} `.repeat(40 + i))
      const ndjson = [
        JSON.stringify({ key: 'header', value: { summary: 'streamed' } }),
        '',
        ...contents.map((text, i) => JSON.stringify({ key: 'file', value: { path: `streamed/${i}.txt`, content: Buffer.from(text).toString('base64'), encoding: 'base64' } })),
      ].join('\n')
      const bytes = new TextEncoder().encode(ndjson)
      // 7-byte chunks: every line boundary lands inside a chunk, and most lines span many chunks.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 7) controller.enqueue(bytes.slice(at, at + 7))
          controller.close()
        },
      })
      const res = await fetch(`${hubUrl}/api/models/${repo}/commit/main`, {
        method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/x-ndjson' }, body, duplex: 'half',
      } as RequestInit)
      expect(res.status).toBe(200)
      for (const [i, text] of contents.entries()) {
        expect(await (await downloadFile({ repo, path: `streamed/${i}.txt`, hubUrl }))!.text()).toBe(text)
      }
    })

    it('concurrent commits to one branch keep both files', async () => {
      await Promise.all(
        Array.from({ length: 4 }, (_, i) => uploadFile({ repo, accessToken: f.write, hubUrl, file: { path: `race/${i}.txt`, content: blob(String(i)) } })),
      )
      const files = await collect(listFiles({ repo, hubUrl, path: 'race' }))
      expect(files.map((e) => e.path).sort()).toEqual(['race/0.txt', 'race/1.txt', 'race/2.txt', 'race/3.txt'])
    })

    it('branches: create from main, commit there, read by revision, delete', async () => {
      await createBranch({ repo, accessToken: f.write, hubUrl, branch: 'dev' })
      await uploadFile({ repo, accessToken: f.write, hubUrl, branch: 'dev', file: { path: 'dev-only.txt', content: blob('dev') } })
      expect(await fileExists({ repo, path: 'dev-only.txt', revision: 'dev', hubUrl })).toBe(true)
      expect(await fileExists({ repo, path: 'dev-only.txt', hubUrl })).toBe(false)
      await expect(createBranch({ repo, accessToken: f.write, hubUrl, branch: 'dev' })).rejects.toMatchObject({ statusCode: 409 })
      await createBranch({ repo, accessToken: f.write, hubUrl, branch: 'empty', empty: true })
      expect(await collect(listFiles({ repo, hubUrl, revision: 'empty' }))).toEqual([])
      await deleteBranch({ repo, accessToken: f.write, hubUrl, branch: 'dev' })
      await expect(downloadFile({ repo, path: 'dev-only.txt', revision: 'dev', hubUrl })).rejects.toMatchObject({ statusCode: 404 })
      await expect(deleteBranch({ repo, accessToken: f.write, hubUrl, branch: 'main' })).rejects.toMatchObject({ statusCode: 403 })
    })

    it('downloadFileToCacheDir and snapshotDownload write the Hugging Face cache layout', async () => {
      const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-cache-'))
      try {
        const file = await downloadFileToCacheDir({ repo, path: 'weights/model.bin', hubUrl, cacheDir })
        expect(fs.lstatSync(file).isSymbolicLink()).toBe(true)
        expect(fs.readFileSync(file).equals(binary)).toBe(true)
        expect(fs.existsSync(path.join(cacheDir, `models--${f.owner}--files`, 'blobs', sha256(binary)))).toBe(true)
        const snapshot = await snapshotDownload({ repo, hubUrl, cacheDir })
        const sha = fs.readFileSync(path.join(cacheDir, `models--${f.owner}--files`, 'refs', 'main'), 'utf8')
        expect(snapshot).toBe(path.join(cacheDir, `models--${f.owner}--files`, 'snapshots', sha))
        expect(fs.readFileSync(path.join(snapshot, 'config/model.json'), 'utf8')).toBe('{"a":1}')
        expect(fs.readFileSync(path.join(snapshot, 'race/2.txt'), 'utf8')).toBe('2')
      } finally {
        fs.rmSync(cacheDir, { recursive: true, force: true })
      }
    })

    it('repoExists and checkRepoAccess: private repos are invisible to outsiders', async () => {
      const secret = `${f.owner}/secret`
      expect(await repoExists({ repo, hubUrl })).toBe(true)
      expect(await repoExists({ repo: secret, hubUrl, accessToken: f.write })).toBe(true)
      expect(await repoExists({ repo: secret, hubUrl, accessToken: f.outsiderWrite })).toBe(false)
      await checkRepoAccess({ repo: secret, hubUrl, accessToken: f.read })
      await expect(checkRepoAccess({ repo: secret, hubUrl, accessToken: f.outsiderWrite })).rejects.toMatchObject({ statusCode: 404 })
    })

    it('commits to an organization repo are in its audit log with the credential', async () => {
      const out = await uploadFile({ repo: `${f.org}/shared`, accessToken: f.write, hubUrl, file: { path: 'a.txt', content: blob('org') } })
      const entries = await db.auditLogEntry.findMany({ where: { action: 'repo.commit' } })
      const entry = entries.find((e) => JSON.parse(e.data).commit === out!.commit.oid)
      expect(entry).toBeDefined()
      expect(JSON.parse(entry!.data)).toMatchObject({ repo: `model:${f.org}/shared`, credential: expect.stringMatching(/^personal:/) })
      const row = await db.repoCommit.findUnique({ where: { id: out!.commit.oid } })
      expect(row).toMatchObject({ authorName: f.owner, credential: expect.stringMatching(/^personal:/) })
    })
  })

  describe('what huggingface_hub and browser clients send', () => {
    it('a pull request (create_pr) is refused before any upload, and the branch does not move', async () => {
      const head = (await modelInfo({ name: repo, hubUrl, accessToken: f.write, additionalFields: ['sha'] })).sha
      await expect(
        commit({ repo, hubUrl, accessToken: f.write, title: 'proposal', isPullRequest: true, operations: [{ operation: 'addOrUpdate', path: 'pr.txt', content: blob('proposed') }] }),
      ).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('no pull requests') })
      const ndjson = [{ key: 'header', value: { summary: 'PR' } }, { key: 'file', value: { path: 'pr.txt', content: 'cHIK', encoding: 'base64' } }].map((l) => JSON.stringify(l)).join('\n')
      const direct = await fetch(`${hubUrl}/api/models/${repo}/commit/main?create_pr=True`, { method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/x-ndjson' }, body: ndjson })
      expect(direct.status).toBe(400)
      expect(await fileExists({ repo, path: 'pr.txt', hubUrl, accessToken: f.write })).toBe(false)
      expect((await modelInfo({ name: repo, hubUrl, accessToken: f.write, additionalFields: ['sha'] })).sha).toBe(head)
    })

    it('flags spelled True (requests) work as true: a recursive tree lists files in folders', async () => {
      await uploadFile({ repo, accessToken: f.write, hubUrl, file: { path: 'py/deep/file.txt', content: blob('deep') } })
      const tree = async (query: string) => ((await (await fetch(`${hubUrl}/api/models/${repo}/tree/main?${query}`, { headers: { Authorization: `Bearer ${f.read}` } })).json()) as { path: string }[]).map((e) => e.path)
      expect(await tree('recursive=True&expand=False')).toContain('py/deep/file.txt')
      expect(await tree('recursive=False')).not.toContain('py/deep/file.txt')
      const expanded = (await (await fetch(`${hubUrl}/api/models/${repo}/tree/main/py/deep?expand=True`, { headers: { Authorization: `Bearer ${f.read}` } })).json()) as { lastCommit?: unknown }[]
      expect(expanded[0]!.lastCommit).toBeDefined()
      // No securityFileStatus: nothing scans files here, and huggingface_hub's RepoFile reads one
      // only in the Hub's full shape (avScan, pickleImportScan): { status } alone was a KeyError.
      expect(expanded[0]).not.toHaveProperty('securityFileStatus')
    })

    it('paths-info takes a form body (paths repeated, expand=True), as huggingface_hub posts it', async () => {
      await uploadFile({ repo, accessToken: f.write, hubUrl, file: { path: 'py/form.txt', content: blob('form') } })
      const body = new URLSearchParams([['paths', 'py/form.txt'], ['paths', 'py'], ['paths', 'missing.txt'], ['expand', 'True']])
      const res = await fetch(`${hubUrl}/api/models/${repo}/paths-info/main`, { method: 'POST', headers: { Authorization: `Bearer ${f.read}` }, body })
      expect(res.status).toBe(200)
      const entries = (await res.json()) as { path: string; type: string; lastCommit?: unknown }[]
      expect(entries.map((e) => [e.path, e.type]).sort()).toEqual([['py', 'directory'], ['py/form.txt', 'file']])
      expect(entries.every((e) => e.lastCommit)).toBe(true)
    })

    it('a browser page on another origin may download and call the API with a token (CORS, no cookies)', async () => {
      await uploadFile({ repo, accessToken: f.write, hubUrl, file: { path: 'cors.txt', content: blob('cors') } })
      const preflight = await fetch(`${hubUrl}/${repo}/resolve/main/cors.txt`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization,range' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i)
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/range/i)
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull()
      const got = await fetch(`${hubUrl}/${repo}/resolve/main/cors.txt`, { headers: { Origin: 'https://app.example' } })
      expect(got.headers.get('access-control-allow-origin')).toBe('*')
      expect(got.headers.get('access-control-expose-headers')).toMatch(/X-Repo-Commit/)
      const api = await fetch(`${hubUrl}/api/models/${repo}/tree/main`, { headers: { Origin: 'https://app.example' } })
      expect(api.headers.get('access-control-allow-origin')).toBe('*')
      expect((await fetch(`${hubUrl}/api/models/${repo}/commit/main`, { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' } })).status).toBe(204)
    })

    it('refusals carry the X-Error-Code huggingface_hub branches on (a HEAD has no body)', async () => {
      const head = async (url: string, token?: string) => {
        const res = await fetch(url, { method: 'HEAD', headers: token ? { Authorization: `Bearer ${token}` } : {} })
        return [res.status, res.headers.get('x-error-code')]
      }
      expect(await head(`${hubUrl}/${f.owner}/no-such-repo/resolve/main/x.txt`)).toEqual([404, 'RepoNotFound'])
      expect(await head(`${hubUrl}/${f.owner}/secret/resolve/main/notes.txt`, f.outsiderWrite)).toEqual([404, 'RepoNotFound'])
      await uploadFiles({ repo: `${f.owner}/gated`, accessToken: f.write, hubUrl, files: [{ path: 'data.txt', content: blob('secret data') }] })
      expect(await head(`${hubUrl}/${f.owner}/gated/resolve/main/data.txt`)).toEqual([401, 'GatedRepo'])
      expect(await head(`${hubUrl}/${f.owner}/gated/resolve/main/data.txt`, f.outsiderWrite)).toEqual([403, 'GatedRepo'])
      const missing = await fetch(`${hubUrl}/${repo}/resolve/main/not-there.json`, { method: 'HEAD' })
      expect([missing.status, missing.headers.get('x-error-code')]).toEqual([404, 'EntryNotFound'])
      // The commit looked in, so that the client remembers the file as missing there.
      expect(missing.headers.get('x-repo-commit')).toBe((await modelInfo({ name: repo, hubUrl, additionalFields: ['sha'] })).sha)
    })

    // The in-process server shares this process's environment; a spawned one is started without HUB_URL.
    it.skipIf(Boolean(process.env.FILES_TEST_SERVER))('paging links are on the hub\'s public origin (HUB_URL), not the address the request reached', async () => {
      process.env.HUB_URL = 'https://hub.example.test'
      try {
        const res = await fetch(`${hubUrl}/api/models/${repo}/commits/main?limit=1`, { headers: { Authorization: `Bearer ${f.read}` } })
        expect(res.headers.get('link')).toMatch(new RegExp(`^<https://hub\\.example\\.test/api/models/${repo}/commits/main\\?limit=1&p=1>; rel="next"$`))
        // Avatars are absolute, as whoami gives them.
        const [latest] = (await res.json()) as { authors: { avatar: string }[] }[]
        expect(latest!.authors[0]!.avatar).toBe(`https://hub.example.test/avatars/${f.owner}.svg`)
      } finally {
        delete process.env.HUB_URL
      }
    })

    it('repo info: the commit for anyone who may see the repo (a gated one too), files for readers, their blobs with blobs=True', async () => {
      const gated = `${f.owner}/gated`
      await uploadFiles({ repo: gated, accessToken: f.write, hubUrl, files: [{ path: 'data.txt', content: blob('secret data') }] })
      const info = async (name: string, token?: string, query = '') =>
        (await (await fetch(`${hubUrl}/api/models/${name}${query}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })).json()) as { sha?: string; siblings?: { rfilename: string; blobId?: string; size?: number; lfs?: { sha256: string; size: number } }[] }
      const outsider = await info(gated, f.outsiderWrite)
      expect(outsider.sha).toMatch(/^[0-9a-f]{40}$/)
      expect(outsider.siblings).toBeUndefined()
      expect((await info(gated, f.write)).siblings?.map((s) => s.rfilename)).toContain('data.txt')
      const withBlobs = await info(repo, f.read, '?blobs=True')
      const bin = withBlobs.siblings!.find((s) => s.rfilename === 'weights/model.bin')!
      expect(bin).toMatchObject({ size: binary.length, lfs: { sha256: sha256(binary), size: binary.length } })
      expect(bin.blobId).toMatch(/^[0-9a-f]{40}$/)
      expect((await info(repo, f.read)).siblings!.every((s) => Object.keys(s).join() === 'rfilename')).toBe(true)
    })

    it('revisions as git reads them: a branch with a slash in listFiles, refs/heads/…, a short commit id; a short parentCommit', async () => {
      await createBranch({ repo, accessToken: f.write, hubUrl, branch: 'feat/x' })
      await uploadFile({ repo, accessToken: f.write, hubUrl, branch: 'feat/x', file: { path: 'nested/on-feat.txt', content: blob('feat') } })
      expect((await collect(listFiles({ repo, hubUrl, revision: 'feat/x', recursive: true }))).map((e) => e.path)).toContain('nested/on-feat.txt')
      expect((await collect(listFiles({ repo, hubUrl, revision: 'feat/x', path: 'nested' }))).map((e) => e.path)).toEqual(['nested/on-feat.txt'])
      const head = (await modelInfo({ name: repo, hubUrl, additionalFields: ['sha'] })).sha
      for (const revision of [head.slice(0, 7), head.slice(0, 12), 'refs/heads/main']) {
        expect((await modelInfo({ name: repo, hubUrl, revision, additionalFields: ['sha'] })).sha).toBe(head)
        expect(await fileExists({ repo, path: 'README.md', revision, hubUrl })).toBe(true)
      }
      await expect(modelInfo({ name: repo, hubUrl, revision: '0000000' })).rejects.toMatchObject({ statusCode: 404 })
      await commit({ repo, hubUrl, accessToken: f.write, title: 'short parent', parentCommit: head.slice(0, 7), operations: [{ operation: 'addOrUpdate', path: 'short-parent.txt', content: blob('x') }] })
      await expect(
        commit({ repo, hubUrl, accessToken: f.write, title: 'stale', parentCommit: head.slice(0, 7), operations: [{ operation: 'addOrUpdate', path: 'stale.txt', content: blob('x') }] }),
      ).rejects.toMatchObject({ statusCode: 412 })
    })

    it('a repo id in another case is the same repo, as on the Hub: info, downloads and listings answer with its own spelling', async () => {
      const shouting = `${f.owner.toUpperCase()}/FILES`
      expect((await modelInfo({ name: shouting, hubUrl })).name).toBe(repo)
      expect(await (await downloadFile({ repo: shouting, path: 'README.md', hubUrl }))!.text()).toBe(await (await downloadFile({ repo, path: 'README.md', hubUrl }))!.text())
      await expect(createRepo({ repo: `${f.owner}/Files`, accessToken: f.write, hubUrl })).rejects.toMatchObject({ statusCode: 409 })
    })

    it('an empty file downloads (fileDownloadInfo asks every file for bytes=0-0); ranges follow RFC 9110', async () => {
      await uploadFile({ repo, accessToken: f.write, hubUrl, file: { path: 'pkg/__init__.py', content: blob('') } })
      expect(await fileDownloadInfo({ repo, path: 'pkg/__init__.py', hubUrl })).toMatchObject({ size: 0 })
      expect(await (await downloadFile({ repo, path: 'pkg/__init__.py', hubUrl }))!.text()).toBe('')
      const url = `${hubUrl}/${repo}/resolve/main/weights/model.bin`
      const etag = (await fetch(url, { method: 'HEAD' })).headers.get('etag')!
      const status = async (headers: Record<string, string>) => (await fetch(url, { headers })).status
      expect(await status({ Range: 'bytes=0-3', 'If-Range': etag })).toBe(206)
      // The file changed since the client's copy: the whole file, not a splice of two versions.
      expect(await status({ Range: 'bytes=0-3', 'If-Range': '"stale"' })).toBe(200)
      expect(await status({ 'If-None-Match': '*' })).toBe(304)
      // Last before first is not a valid range: ignored.
      expect(await status({ Range: 'bytes=10-5' })).toBe(200)
    })
  })

  describe('refusals (nothing stored)', () => {
    async function batch(token: string, oid: string, size: number, repoName = repo) {
      return fetch(`${hubUrl}/${repoName}.git/info/lfs/objects/batch`, {
        method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.git-lfs+json' },
        body: JSON.stringify({ operation: 'upload', transfers: ['basic', 'multipart', 'xet'], objects: [{ oid, size }] }),
      })
    }

    it('answers the xet offer with basic, and refuses a body whose sha256 or size differs', async () => {
      const content = Buffer.from('the real content of an lfs object')
      const wrongSha = sha256('something else')
      const res = await batch(f.write, wrongSha, content.length)
      const json = await res.json()
      expect(json.transfer).toBe('basic')
      const href = json.objects[0].actions.upload.href
      const put = await fetch(href, { method: 'PUT', body: content })
      expect(put.status).toBe(400)
      expect(await db.storedBlob.findUnique({ where: { sha256: wrongSha } })).toBeNull()
      expect(await db.storedBlob.findUnique({ where: { sha256: sha256(content) } })).toBeNull()
      // Declared size bigger than what arrives.
      const res2 = await (await batch(f.write, sha256(content), content.length + 5)).json()
      expect((await fetch(res2.objects[0].actions.upload.href, { method: 'PUT', body: content })).status).toBe(400)
      expect(await db.storedBlob.findUnique({ where: { sha256: sha256(content) } })).toBeNull()
      expect(await blobStore().has(sha256(content))).toBe(false)
      expect(await blobStore().has(wrongSha)).toBe(false)
      await expectNothingStaged()
      // A commit naming an object that was never uploaded.
      await expect(
        fetch(`${hubUrl}/api/models/${repo}/commit/main`, {
          method: 'POST', headers: { Authorization: `Bearer ${f.write}` },
          body: [{ key: 'header', value: { summary: 'x' } }, { key: 'lfsFile', value: { path: 'ghost.bin', oid: wrongSha, size: 3, algo: 'sha256' } }].map((l) => JSON.stringify(l)).join('\n'),
        }).then((r) => r.status),
      ).resolves.toBe(422)
    })

    it('refuses writes with a read token, an OAuth token without write-repos, another repo\'s publisher token', async () => {
      const up = (accessToken: string) => uploadFile({ repo, accessToken, hubUrl, file: { path: 'denied.txt', content: blob('no') } })
      await expect(up(f.read)).rejects.toMatchObject({ statusCode: 403 })
      await expect(up(f.oauthReadOnly)).rejects.toMatchObject({ statusCode: 403 })
      await expect(up(f.publisherOther)).rejects.toMatchObject({ statusCode: 403 })
      await expect(up(f.outsiderWrite)).rejects.toMatchObject({ statusCode: 403 })
      expect(await fileExists({ repo, path: 'denied.txt', hubUrl })).toBe(false)
      expect((await batch(f.read, sha256('x'), 1)).status).toBe(403)
      // The credentials that may write do.
      await up(f.oauthWrite)
      await uploadFile({ repo, accessToken: f.publisherThis, hubUrl, file: { path: 'by-ci.txt', content: blob('ci') } })
      expect(await fileExists({ repo, path: 'by-ci.txt', hubUrl })).toBe(true)
    })

    it('gated files need approval (the model card stays readable); private files are 404 to outsiders', async () => {
      const gated = `${f.owner}/gated`
      await uploadFiles({ repo: gated, accessToken: f.write, hubUrl, files: [{ path: 'README.md', content: blob('# gated') }, { path: 'data.txt', content: blob('secret data') }] })
      expect(await (await downloadFile({ repo: gated, path: 'README.md', hubUrl, accessToken: f.outsiderWrite }))!.text()).toBe('# gated')
      await expect(downloadFile({ repo: gated, path: 'data.txt', hubUrl, accessToken: f.outsiderWrite })).rejects.toMatchObject({ statusCode: 403 })
      await expect(downloadFile({ repo: gated, path: 'data.txt', hubUrl })).rejects.toMatchObject({ statusCode: 401 })
      await expect(collect(listFiles({ repo: gated, hubUrl, accessToken: f.outsiderWrite }))).rejects.toMatchObject({ statusCode: 403 })

      const secret = `${f.owner}/secret`
      await uploadFile({ repo: secret, accessToken: f.write, hubUrl, file: { path: 'notes.txt', content: blob('private') } })
      await expect(downloadFile({ repo: secret, path: 'notes.txt', hubUrl, accessToken: f.outsiderWrite })).rejects.toMatchObject({ statusCode: 404 })
      expect((await fetch(`${hubUrl}/${secret}/resolve/main/notes.txt`)).status).toBe(404)
      expect(await (await downloadFile({ repo: secret, path: 'notes.txt', hubUrl, accessToken: f.read }))!.text()).toBe('private')
    })

    it('.gitattributes patterns cannot hold the server: matching is bounded, a request past the bound is 422 (sent or stored patterns)', async () => {
      // As regular expressions these patterns backtracked for minutes on such paths (one request held every other).
      const hostile = `*a*${'a'.repeat(100)}b filter=lfs\n`.repeat(20)
      const files = Array.from({ length: 200 }, (_, i) => ({ path: `${'a'.repeat(240)}${i}`, size: 1, sample: '' }))
      const preupload = (body: unknown) => fetch(`${hubUrl}/api/models/${f.owner}/other/preupload/main`, {
        method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
      })
      const sent = await preupload({ gitAttributes: hostile, files })
      expect(sent.status).toBe(422)
      expect(((await sent.json()) as { error: string }).error).toMatch(/\.gitattributes patterns take too long/)
      // Folder patterns too: a long run of `**` segments against deep paths is work charged like any other (it had
      // held the server uncharged, and a longer run overflowed the stack: a 500).
      const folders = `${Array.from({ length: 120 }, () => 'a').join('/')}/x`
      const deepFiles = Array.from({ length: 50 }, (_, i) => ({ path: `${folders}${i}`, size: 1, sample: '' }))
      expect((await preupload({ gitAttributes: `${'**/a/'.repeat(3000)}x filter=lfs\n`.repeat(6), files: deepFiles })).status).toBe(422)
      // A run of `**` alone is one `**`: answered.
      const collapsed = await preupload({ gitAttributes: `${'**/'.repeat(30_000)}x0 filter=lfs\n`, files: deepFiles })
      expect(((await collapsed.json()) as { files: { uploadMode: string }[] }).files.map((file) => file.uploadMode).slice(0, 2)).toEqual(['lfs', 'regular'])
      // The same patterns on a few paths are answered (the bound is on the work, not on the patterns).
      const few = await preupload({ gitAttributes: hostile, files: [{ path: 'a'.repeat(50), size: 1, sample: '' }, { path: `${'a'.repeat(102)}b`, size: 1, sample: '' }] })
      expect(((await few.json()) as { files: { uploadMode: string }[] }).files.map((file) => file.uploadMode)).toEqual(['regular', 'lfs'])
      // Stored in the repo, they are read the same way.
      await uploadFile({ repo: `${f.owner}/other`, accessToken: f.write, hubUrl, file: { path: '.gitattributes', content: blob(hostile) } })
      expect((await preupload({ files })).status).toBe(422)
      await deleteFile({ repo: `${f.owner}/other`, accessToken: f.write, hubUrl, path: '.gitattributes' })
      expect((await preupload({ files })).status).toBe(200)
    })

    it('refuses path traversal, .git, control characters, and malformed commits with 400/422, never 500', async () => {
      for (const bad of ['../etc/passwd', '/abs.txt', 'a/../../b', '.git/config', 'a\u0000b', 'x/./y', 'a//b', 'x'.repeat(300)]) {
        const res = await fetch(`${hubUrl}/api/models/${repo}/commit/main`, {
          method: 'POST', headers: { Authorization: `Bearer ${f.write}` },
          body: [{ key: 'header', value: { summary: 'bad' } }, { key: 'file', value: { path: bad, content: 'eA==', encoding: 'base64' } }].map((l) => JSON.stringify(l)).join('\n'),
        })
        expect(res.status, bad).toBe(400)
      }
      await expect(uploadFile({ repo, accessToken: f.write, hubUrl, file: { path: '../escape.txt', content: blob('x') } })).rejects.toMatchObject({ statusCode: 400 })
      for (const body of ['not json', '{"key":"file","value":{}}', JSON.stringify({ key: 'header', value: { summary: '' } }), JSON.stringify({ key: 'header', value: { summary: 's' } }) + '\n{"key":"zap","value":{}}']) {
        const res = await fetch(`${hubUrl}/api/models/${repo}/commit/main`, { method: 'POST', headers: { Authorization: `Bearer ${f.write}` }, body })
        expect([400, 422], body).toContain(res.status)
      }
      expect((await fetch(`${hubUrl}/${repo}/resolve/main/..%2F..%2Fetc%2Fpasswd`)).status).toBe(400)
      expect((await fetch(`${hubUrl}/${repo}/resolve/no-such-branch/README.md`)).headers.get('x-error-code')).toBe('RevisionNotFound')
      expect((await fetch(`${hubUrl}/api/lfs/uploads/forged.token`, { method: 'PUT', body: 'x' })).status).toBe(401)
    })

    it('a sha256 is not access: another repo\'s blob is neither committed, verified nor said to be stored without its bytes', async () => {
      const secretRepo = `${f.owner}/secret`
      const mine = `${f.outsider}/mine`
      const secretBytes = Buffer.concat([Buffer.from([0, 0]), Buffer.from(`private weights ${prefix}`)])
      await uploadFile({ repo: secretRepo, accessToken: f.write, hubUrl, file: { path: 'weights.bin', content: blob(secretBytes) } })
      const inline = `API_KEY=sk-${prefix}`
      await uploadFile({ repo: secretRepo, accessToken: f.write, hubUrl, file: { path: '.env', content: blob(inline) } })
      const steal = (oid: string, size: number) =>
        fetch(`${hubUrl}/api/models/${mine}/commit/main`, {
          method: 'POST', headers: { Authorization: `Bearer ${f.outsiderWrite}` },
          body: [{ key: 'header', value: { summary: 'take it' } }, { key: 'lfsFile', value: { path: 'stolen', oid, size, algo: 'sha256' } }].map((l) => JSON.stringify(l)).join('\n'),
        })
      // Refused as an object never uploaded, for an LFS blob and for an inline file's blob alike.
      for (const [oid, size] of [[sha256(secretBytes), secretBytes.length], [sha256(inline), inline.length]] as const) {
        const res = await steal(oid, size)
        expect(res.status).toBe(422)
        expect(((await res.json()) as { error: string }).error).toContain('was not uploaded')
      }
      expect((await fetch(`${hubUrl}/${mine}/resolve/main/stolen`)).status).toBe(404)
      // The batch API asks for the bytes (it does not say they are stored), and verify does not find them.
      const asked = await (await batch(f.outsiderWrite, sha256(secretBytes), secretBytes.length, mine)).json()
      expect(asked.objects[0].actions?.upload?.href).toEqual(expect.any(String))
      const verify = await fetch(`${hubUrl}/${mine}.git/info/lfs/objects/verify`, {
        method: 'POST', headers: { Authorization: `Bearer ${f.outsiderWrite}`, 'Content-Type': 'application/vnd.git-lfs+json' },
        body: JSON.stringify({ oid: sha256(secretBytes), size: secretBytes.length }),
      })
      expect(verify.status).toBe(404)
      // Whoever has the bytes may commit them after uploading them: the Hub's own behaviour.
      await uploadFile({ repo: mine, accessToken: f.outsiderWrite, hubUrl, file: { path: 'same.bin', content: blob(secretBytes) } })
      expect(Buffer.from(await (await downloadFile({ repo: mine, path: 'same.bin', hubUrl }))!.arrayBuffer())).toEqual(secretBytes)
      expect((await steal(sha256(secretBytes), secretBytes.length)).status).toBe(200)
      // The owner's repo, which uploaded them, still answers "stored" for them.
      const own = await (await batch(f.write, sha256(secretBytes), secretBytes.length, secretRepo)).json()
      expect(own.objects[0].actions).toBeUndefined()
    })

    it('an upload URL dies with the token that asked for it', async () => {
      const owner = await db.user.findUniqueOrThrow({ where: { username: f.owner } })
      const { token, id } = await createPersonalToken(owner.id, { name: `short-lived-${prefix}`, role: 'write' })
      const content = Buffer.concat([Buffer.from([0]), Buffer.from(`revoked upload ${prefix}`)])
      const asked = await (await batch(token, sha256(content), content.length)).json()
      const href = asked.objects[0].actions.upload.href
      expect(await revokeToken(owner.id, id)).toBe(true)
      const put = await fetch(href, { method: 'PUT', body: content })
      expect(put.status).toBe(401)
      expect(await blobStore().has(sha256(content))).toBe(false)
      // A token that expires within the hour: the URLs say its expiry, not the hour.
      const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 10 * 60_000)
      const soon = await issueToken({ kind: 'personal', userId: owner.id, displayName: `soon-${prefix}`, role: 'write', expiresAt })
      const soonAsked = await (await batch(soon.token, sha256(content), content.length)).json()
      expect(soonAsked.objects[0].actions.upload.expires_at).toBe(expiresAt.toISOString())
      // A URL a live token asked for still works.
      const live = await (await batch(f.write, sha256(content), content.length)).json()
      expect((await fetch(live.objects[0].actions.upload.href, { method: 'PUT', body: content })).status).toBe(200)
      expect(await blobStore().has(sha256(content))).toBe(true)
    })

    it('a batch that answers "stored" claims the bytes again, so a cleanup before the commit keeps them', async () => {
      const content = Buffer.concat([Buffer.from([0]), Buffer.from(`stored long ago ${prefix}`)])
      const first = await (await batch(f.write, sha256(content), content.length)).json()
      expect((await fetch(first.objects[0].actions.upload.href, { method: 'PUT', body: content })).status).toBe(200)
      // Uploaded two days ago and never committed: outside the cleanup's grace period.
      await db.repoBlob.updateMany({ where: { sha256: sha256(content) }, data: { createdAt: new Date(Date.now() - 2 * 86_400_000) } })
      const again = await (await batch(f.write, sha256(content), content.length)).json()
      expect(again.objects[0].actions).toBeUndefined() // stored: the client commits without uploading
      await removeUnreferencedBlobs({ candidates: [sha256(content)] }) // another repo with these bytes deleted meanwhile
      expect(await blobStore().has(sha256(content))).toBe(true)
    })

    it('an upload URL stops when its user may no longer write to the repo (an ex-member of its organization)', async () => {
      const org = await db.org.findUniqueOrThrow({ where: { name: f.org } })
      const member = await db.user.findUniqueOrThrow({ where: { username: f.outsider } })
      await addMember(org.id, member.username, 'write')
      const { token } = await createPersonalToken(member.id, { name: `member-${prefix}`, role: 'write' })
      const content = Buffer.concat([Buffer.from([0]), Buffer.from(`ex-member upload ${prefix}`)])
      const asked = await (await batch(token, sha256(content), content.length, `${f.org}/shared`)).json()
      const href = asked.objects[0].actions.upload.href
      await changeMember(org.id, member.id, null)
      const put = await fetch(href, { method: 'PUT', body: content })
      expect(put.status).toBe(403)
      expect(await blobStore().has(sha256(content))).toBe(false)
    })

    it('answers malformed values with 400/422, not 500: objects where strings go, unpaired surrogates in paths, oversized LFS batches', async () => {
      const paths = await fetch(`${hubUrl}/api/models/${repo}/paths-info/main`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ paths: [{ toString: 1 }] }),
      })
      expect(paths.status).toBe(400)
      // Paging values that are not whole numbers in range are refused, not bent into some page; a limit over the page size asks for a full page.
      for (const query of ['limit=-1', 'p=-5', 'limit=abc', 'p=1.5', 'limit=0', 'limit=1e2', 'limit=0x10']) {
        const res = await fetch(`${hubUrl}/api/models/${repo}/commits/main?${query}`)
        expect(res.status, query).toBe(400)
        expect(((await res.json()) as { error: string }).error, query).toMatch(/^Invalid (limit|p) /)
      }
      expect((await fetch(`${hubUrl}/api/models/${repo}/commits/main?limit=1000000000&p=0`)).status).toBe(200)
      expect((await fetch(`${hubUrl}/api/models?limit=-5`)).status).toBe(400)
      expect((await fetch(`${hubUrl}/api/models?limit=99999999999999999999`)).status).toBe(200)
      const key = await fetch(`${hubUrl}/api/models/${repo}/commit/main`, {
        method: 'POST', headers: { Authorization: `Bearer ${f.write}` }, body: JSON.stringify({ key: { toString: 1 }, value: {} }),
      })
      expect([400, 422]).toContain(key.status)
      // A lone surrogate would be stored as U+FFFD, another path than the one named.
      for (const bad of ['a\ud800', 'b\udc00/c.txt']) {
        const res = await fetch(`${hubUrl}/api/models/${repo}/commit/main`, {
          method: 'POST', headers: { Authorization: `Bearer ${f.write}` },
          body: [{ key: 'header', value: { summary: 'surrogate' } }, { key: 'file', value: { path: bad, content: 'eA==' } }].map((l) => JSON.stringify(l)).join('\n'),
        })
        expect(res.status, JSON.stringify(bad)).toBe(400)
      }
      expect(await fileExists({ repo, path: 'a\ufffd', hubUrl })).toBe(false)
      // 256 objects a batch, as huggingface_hub sends them.
      const objects = Array.from({ length: 257 }, (_, i) => ({ oid: sha256(`batch ${i}`), size: 1_000_000 }))
      const tooMany = await fetch(`${hubUrl}/${repo}.git/info/lfs/objects/batch`, {
        method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/vnd.git-lfs+json' },
        body: JSON.stringify({ operation: 'upload', transfers: ['multipart'], objects }),
      })
      expect(tooMany.status).toBe(422)
      const enough = await fetch(`${hubUrl}/${repo}.git/info/lfs/objects/batch`, {
        method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/vnd.git-lfs+json' },
        body: JSON.stringify({ operation: 'upload', transfers: ['multipart'], objects: objects.slice(0, 256) }),
      })
      expect(enough.status).toBe(200)
      // At most 20,000 part URLs in one answer: 250 objects of 100 parts each are refused whole.
      process.env.FILES_MAX_FILE_BYTES = String(1e12)
      try {
        const large = (parts: number) => objects.slice(0, 250).map((o) => ({ ...o, size: parts * 64 * 1024 ** 2 }))
        const ask = (body: unknown) => fetch(`${hubUrl}/${repo}.git/info/lfs/objects/batch`, {
          method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/vnd.git-lfs+json' }, body: JSON.stringify(body),
        })
        const refused = await ask({ operation: 'upload', transfers: ['multipart'], objects: large(100) })
        expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([422, expect.stringContaining('25000 upload parts')])
        const listed = await (await ask({ operation: 'upload', transfers: ['multipart'], objects: large(80) })).json()
        expect(Object.keys(listed.objects[0].actions.upload.header).filter((k) => k !== 'chunk_size')).toHaveLength(80)
      } finally {
        process.env.FILES_MAX_FILE_BYTES = LIMITS.FILES_MAX_FILE_BYTES
      }
    })

    it('keeps files and folders apart within one commit, and a gated repo\'s card is README.md exactly', async () => {
      const ops = (...lines: object[]) =>
        fetch(`${hubUrl}/api/models/${repo}/commit/main`, {
          method: 'POST', headers: { Authorization: `Bearer ${f.write}` },
          body: [{ key: 'header', value: { summary: 'shapes' } }, ...lines].map((l) => JSON.stringify(l)).join('\n'),
        })
      const file = (path: string) => ({ key: 'file', value: { path, content: 'eA==' } })
      expect((await ops(file('shape/a/b.txt'))).status).toBe(200)
      const folder = await ops(file('shape/a'))
      expect([folder.status, ((await folder.json()) as { error: string }).error]).toEqual([422, 'shape/a is a folder'])
      const under = await ops(file('shape/a/b.txt/c'))
      expect([under.status, ((await under.json()) as { error: string }).error]).toEqual([422, 'shape/a/b.txt is a file'])
      // A folder deleted earlier in the same commit may become a file; a file deleted, a folder.
      expect((await ops({ key: 'deletedFolder', value: { path: 'shape/a' } }, file('shape/a'), { key: 'deletedFile', value: { path: 'shape/a' } }, file('shape/a/new.txt'))).status).toBe(200)
      const listed = (await collect(listFiles({ repo, hubUrl, path: 'shape', recursive: true }))).filter((e) => e.type === 'file').map((e) => e.path)
      expect(listed).toEqual(['shape/a/new.txt'])
      expect((await ops({ key: 'deletedFolder', value: { path: 'shape/none' } })).status).toBe(404)

      const gated = `${f.owner}/gated`
      await uploadFiles({ repo: gated, accessToken: f.write, hubUrl, files: [{ path: 'readme.md', content: blob('not the card') }, { path: 'README.md', content: blob('# the card') }] })
      expect(await (await downloadFile({ repo: gated, path: 'README.md', hubUrl, accessToken: f.outsiderWrite }))!.text()).toBe('# the card')
      await expect(downloadFile({ repo: gated, path: 'readme.md', hubUrl, accessToken: f.outsiderWrite })).rejects.toMatchObject({ statusCode: 403 })
    })

    it('refuses files over the configured limit with 413', async () => {
      const big = Buffer.alloc(1_500_000, 1)
      await expect(uploadFile({ repo, accessToken: f.write, hubUrl, file: { path: 'big.bin', content: blob(big) } })).rejects.toMatchObject({ statusCode: 413 })
      const res = await (await batch(f.write, sha256(big), big.length)).json()
      expect(res.objects[0].error.code).toBe(413)
      const inline = await fetch(`${hubUrl}/api/models/${repo}/commit/main`, {
        method: 'POST', headers: { Authorization: `Bearer ${f.write}` },
        body: [{ key: 'header', value: { summary: 'big' } }, { key: 'file', value: { path: 'big.txt', content: Buffer.alloc(2_000_000, 97).toString('base64') } }].map((l) => JSON.stringify(l)).join('\n'),
      })
      expect(inline.status).toBe(413)
      expect(await fileExists({ repo, path: 'big.bin', hubUrl })).toBe(false)
      expect(await fileExists({ repo, path: 'big.txt', hubUrl })).toBe(false)
    })

    it('an upload cut off half-way keeps nothing; an abandoned multipart upload is removed by the cleanup', async () => {
      const cutOff = new Readable({ read() {} })
      cutOff.push(Buffer.alloc(1000, 1))
      setTimeout(() => cutOff.destroy(new Error('client went away')), 20)
      await expect(putPart(`cut-${prefix}`, 1, cutOff, 5000)).rejects.toThrow()
      await expectNothingStaged()
      await putPart(`abandoned-${prefix}`, 1, Readable.from([Buffer.alloc(10, 2)]), 10)
      expect(await listStaged()).toEqual([`multipart/abandoned-${prefix}/00001`])
      expect(await cleanupStaging(60_000)).toBe(0) // still fresh
      expect(await cleanupStaging(-1)).toBe(1)
      expect(await listStaged()).toEqual([])
    })

    it('deleting a repo removes its rows and the blobs nothing else refers to', async () => {
      const unique = Buffer.concat([Buffer.from([0]), Buffer.from(`only in data-${prefix}`)])
      await uploadFile({ repo: { type: 'dataset', name: `${f.owner}/data` }, accessToken: f.write, hubUrl, file: { path: 'unique.bin', content: blob(unique) } })
      expect(await db.storedBlob.findUnique({ where: { sha256: sha256(unique) } })).not.toBeNull()
      const res = await fetch(`${hubUrl}/api/repos/delete`, { method: 'DELETE', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'dataset', name: 'data', organization: f.owner }) })
      expect(res.status).toBe(200)
      expect(await db.storedBlob.findUnique({ where: { sha256: sha256(unique) } })).toBeNull()
      // train.bin's content is also in the model repo (weights/model.bin): still there.
      expect(await db.storedBlob.findUnique({ where: { sha256: sha256(binary) } })).not.toBeNull()
      expect(await fileExists({ repo, path: 'weights/model.bin', hubUrl })).toBe(true)
    })

    it('deleting a repo keeps bytes another repo has just uploaded and not yet committed (its commit still finds them)', async () => {
      const shared = Buffer.concat([Buffer.from([0]), Buffer.from(`uploaded twice-${prefix}`)])
      await createRepo({ repo: `${f.owner}/doomed`, accessToken: f.write, hubUrl, files: [] })
      await uploadFile({ repo: `${f.owner}/doomed`, accessToken: f.write, hubUrl, file: { path: 'w.bin', content: blob(shared) } })
      // What the LFS batch and upload do for the other repo before its commit: the bytes are there, the repo may commit them.
      const other = await db.repo.findFirstOrThrow({ where: { namespace: f.owner, name: 'other' } })
      await db.repoBlob.create({ data: { repoId: other.id, sha256: sha256(shared) } })
      const res = await fetch(`${hubUrl}/api/repos/delete`, { method: 'DELETE', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'model', name: 'doomed', organization: f.owner }) })
      expect(res.status).toBe(200)
      expect(await db.storedBlob.findUnique({ where: { sha256: sha256(shared) } })).not.toBeNull()
      const lfsCommit = [
        { key: 'header', value: { summary: 'commit the upload' } },
        { key: 'lfsFile', value: { path: 'w.bin', algo: 'sha256', oid: sha256(shared), size: shared.length } },
      ].map((l) => JSON.stringify(l)).join('\n')
      const committed = await fetch(`${hubUrl}/api/models/${f.owner}/other/commit/main`, { method: 'POST', headers: { Authorization: `Bearer ${f.write}`, 'Content-Type': 'application/x-ndjson' }, body: lfsCommit })
      expect(committed.status, await committed.clone().text()).toBe(200)
      expect(Buffer.from(await (await downloadFile({ repo: `${f.owner}/other`, path: 'w.bin', hubUrl }))!.arrayBuffer())).toEqual(shared)
    })

    it('bytes whose row never came (the database refused it after the store took them) are removed by the cleanup', async () => {
      // What storeBlob does before it records the row; the soak's database outages stopped it here.
      const orphan = Buffer.from(`bytes without a row ${prefix} ${Date.now()}`)
      const sha = await putBlob(Readable.from([orphan]), { size: orphan.length })
      expect(await db.storedBlob.findUnique({ where: { sha256: sha } })).toBeNull()
      await removeUnreferencedBlobs() // younger than the grace period: kept (its row may be on its way)
      expect(await blobStore().has(sha)).toBe(true)
      await removeUnreferencedBlobs({ graceMs: -60_000 })
      expect(await blobStore().has(sha)).toBe(false)
      // Recorded and referenced bytes stay.
      expect(await blobStore().has(sha256(binary))).toBe(true)
      expect(await fileExists({ repo, path: 'weights/model.bin', hubUrl })).toBe(true)
    })
  })
}
