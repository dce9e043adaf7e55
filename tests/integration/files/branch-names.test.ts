// Branch names with the unmodified @huggingface/hub client: the names git refuses are refused, a
// branch cannot also be a folder of branches, and `refs/heads/X` and HEAD mean the same branch to
// reads (listFiles, fileExists, downloadFile) and to writes (uploadFile, createBranch, deleteBranch).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBranch, deleteBranch, downloadFile, fileExists, listFiles, modelInfo, uploadFile } from '@huggingface/hub'
import { db } from '@/lib/db'
import { setBlobStore } from '@/lib/storage'
import { DiskBackend } from '@/lib/storage/disk'
import { startHubServer } from './hub-server'
import { fileFixtures } from './setup'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-branches-'))
const blob = (content: string) => new Blob([content])
async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

let hubUrl: string
let close: () => Promise<void>
let f: Awaited<ReturnType<typeof fileFixtures>>
let repo: string

beforeAll(async () => {
  setBlobStore(new DiskBackend(root))
  ;({ url: hubUrl, close } = await startHubServer({ STORAGE: 'disk', STORAGE_DIR: root }))
  f = await fileFixtures('bn')
  repo = `${f.owner}/files`
  await uploadFile({ repo, accessToken: f.write, hubUrl, file: { path: 'README.md', content: blob('# branches\n') } })
})
afterAll(async () => {
  await close()
  fs.rmSync(root, { recursive: true, force: true })
})

/** The repo's branch names, as GET /api/models/{repo}/refs lists them. */
async function branches(name = repo): Promise<string[]> {
  const res = await fetch(`${hubUrl}/api/models/${name}/refs`, { headers: { Authorization: `Bearer ${f.read}` } })
  return ((await res.json()) as { branches: { name: string }[] }).branches.map((b) => b.name).sort()
}

const paths = async (revision: string, folder?: string) => (await collect(listFiles({ repo, hubUrl, revision, path: folder, recursive: !folder }))).map((e) => e.path)

describe('branch names', () => {
  it('main counts before its first commit: main/x cannot be made in an empty repo (every commit to main would then be refused)', async () => {
    const empty = `${f.owner}/other` // made by the fixtures, never committed to
    expect(await branches(empty)).toEqual([])
    await expect(createBranch({ repo: empty, accessToken: f.write, hubUrl, branch: 'main/x', empty: true })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('conflicts with the existing branch "main"'),
    })
    await uploadFile({ repo: empty, accessToken: f.write, hubUrl, file: { path: 'first.txt', content: blob('first') } })
    expect(await branches(empty)).toEqual(['main'])
  })

  it('a branch cannot also be a folder of branches (a and a/b), so listFiles of tree/a/b reads branch a', async () => {
    await createBranch({ repo, accessToken: f.write, hubUrl, branch: 'a' })
    await uploadFile({ repo, accessToken: f.write, hubUrl, branch: 'a', file: { path: 'b/c.txt', content: blob('on a') } })
    for (const empty of [true, false]) {
      for (const branch of ['a/b', 'a/b/c']) {
        await expect(createBranch({ repo, accessToken: f.write, hubUrl, branch, empty })).rejects.toMatchObject({
          statusCode: 400,
          message: expect.stringContaining('conflicts with the existing branch "a"'),
        })
      }
    }
    // The other way round: a folder of branches cannot become a branch.
    await createBranch({ repo, accessToken: f.write, hubUrl, branch: 'x/y', empty: true })
    for (const branch of ['x', 'refs/heads/x']) {
      await expect(createBranch({ repo, accessToken: f.write, hubUrl, branch })).rejects.toMatchObject({
        statusCode: 400,
        message: expect.stringContaining('conflicts with the existing branch "x/y"'),
      })
      await expect(createBranch({ repo, accessToken: f.write, hubUrl, branch, empty: true })).rejects.toMatchObject({ statusCode: 400 })
    }
    // Names that only share a beginning are no folders of each other.
    await createBranch({ repo, accessToken: f.write, hubUrl, branch: 'ab' })
    await createBranch({ repo, accessToken: f.write, hubUrl, branch: 'x-y', empty: true })

    expect(await paths('a', 'b')).toEqual(['b/c.txt'])
    expect(await paths('x/y')).toEqual([])
    expect(await branches()).toEqual(['a', 'ab', 'main', 'x-y', 'x/y'])
  })

  it('names git refuses, HEAD, refs/..., and commit ids are refused (400), and nothing is created', async () => {
    const head = (await modelInfo({ name: repo, hubUrl, additionalFields: ['sha'] })).sha
    const before = await branches()
    const refused = [
      'HEAD', 'refs/heads/HEAD', 'refs/pr/1', 'refs/tags/v1', 'refs/heads/refs/heads/x', 'refs/heads/', head, 'ABCDEF0123456789ABCDEF0123456789ABCDEF01',
      '@', 'a@{1}', 'a..b', 'a b', 'a\tb', 'a~1', 'a^', 'a:b', 'a?', 'a*', 'a[b', 'a\\b', '/lead', 'trail/', 'two//slashes',
      '.hidden', 'dir/.hidden', 'dot.', 'x.lock', 'x.lock/y', '-dash', 'a#b', 'a%b', 'x'.repeat(201),
    ]
    for (const branch of refused) {
      await expect(createBranch({ repo, accessToken: f.write, hubUrl, branch }), branch).rejects.toMatchObject({
        statusCode: 400,
        message: expect.stringContaining('Invalid reference for a branch'),
      })
    }
    expect(await branches()).toEqual(before)
    // What git allows is allowed.
    for (const branch of ['release/v1.0', 'user@host', 'naïve', 'feat_2+x', 'deadbeef']) await createBranch({ repo, accessToken: f.write, hubUrl, branch })
    expect(await fileExists({ repo, path: 'README.md', revision: 'naïve', hubUrl })).toBe(true)
  })

  it('HEAD is the default branch for writes as for reads: uploadFile to HEAD lands on main', async () => {
    await uploadFile({ repo, accessToken: f.write, hubUrl, branch: 'HEAD', file: { path: 'via-head.txt', content: blob('head') } })
    expect(await fileExists({ repo, path: 'via-head.txt', revision: 'HEAD', hubUrl })).toBe(true)
    expect(await fileExists({ repo, path: 'via-head.txt', revision: 'main', hubUrl })).toBe(true)
    expect(await branches()).not.toContain('HEAD')
    await expect(deleteBranch({ repo, accessToken: f.write, hubUrl, branch: 'HEAD' })).rejects.toMatchObject({ statusCode: 403 })
  })

  it('refs/heads/main and refs/heads/{branch}: uploadFile writes there and deleteBranch deletes it, as reads read them', async () => {
    await uploadFile({ repo, accessToken: f.write, hubUrl, branch: 'refs/heads/main', file: { path: 'full-ref.txt', content: blob('full') } })
    expect(await fileExists({ repo, path: 'full-ref.txt', revision: 'main', hubUrl })).toBe(true)
    expect(await fileExists({ repo, path: 'full-ref.txt', revision: 'refs/heads/main', hubUrl })).toBe(true)

    await createBranch({ repo, accessToken: f.write, hubUrl, branch: 'copy' })
    await uploadFile({ repo, accessToken: f.write, hubUrl, branch: 'refs/heads/copy', file: { path: 'sub/on-copy.txt', content: blob('copy') } })
    expect(await fileExists({ repo, path: 'sub/on-copy.txt', revision: 'copy', hubUrl })).toBe(true)
    expect(await fileExists({ repo, path: 'sub/on-copy.txt', revision: 'main', hubUrl })).toBe(false)
    await deleteBranch({ repo, accessToken: f.write, hubUrl, branch: 'refs/heads/copy' })
    await expect(downloadFile({ repo, path: 'README.md', revision: 'copy', hubUrl })).rejects.toMatchObject({ statusCode: 404 })
    await expect(deleteBranch({ repo, accessToken: f.write, hubUrl, branch: 'refs/heads/copy' })).rejects.toMatchObject({ statusCode: 404 })
    await expect(deleteBranch({ repo, accessToken: f.write, hubUrl, branch: 'refs/heads/main' })).rejects.toMatchObject({ statusCode: 403 })
    expect(await fileExists({ repo, path: 'README.md', revision: 'main', hubUrl })).toBe(true)
  })

  it('createBranch(refs/heads/X) creates the branch X: every read finds it, commits go there', async () => {
    await createBranch({ repo, accessToken: f.write, hubUrl, branch: 'refs/heads/foo' })
    expect(await branches()).toContain('foo')
    expect(await branches()).not.toContain('refs/heads/foo')
    await expect(createBranch({ repo, accessToken: f.write, hubUrl, branch: 'foo' })).rejects.toMatchObject({ statusCode: 409 })
    await uploadFile({ repo, accessToken: f.write, hubUrl, branch: 'refs/heads/foo', file: { path: 'dir/on-foo.txt', content: blob('foo') } })
    for (const revision of ['foo', 'refs/heads/foo']) {
      expect(await fileExists({ repo, path: 'dir/on-foo.txt', revision, hubUrl })).toBe(true)
      expect(await (await downloadFile({ repo, path: 'dir/on-foo.txt', revision, hubUrl }))!.text()).toBe('foo')
      // listFiles sends the revision unencoded: tree/refs/heads/foo/dir.
      expect(await paths(revision, 'dir')).toEqual(['dir/on-foo.txt'])
      expect(await paths(revision)).toContain('dir/on-foo.txt')
    }
    await deleteBranch({ repo, accessToken: f.write, hubUrl, branch: 'foo' })
    expect(await branches()).not.toContain('foo')
  })

  it('branches a database already holds under names the rules now refuse stay readable and writable', async () => {
    const main = (await modelInfo({ name: repo, hubUrl, additionalFields: ['sha'] })).sha
    for (const name of ['.old', 'HEAD', 'refs/heads/legacy', 'p', 'p/q']) await db.repoRef.create({ data: { repoId: f.repoId, name, commitId: main } })
    await uploadFile({ repo, accessToken: f.write, hubUrl, branch: '.old', file: { path: 'old.txt', content: blob('old') } })
    expect(await fileExists({ repo, path: 'old.txt', revision: '.old', hubUrl })).toBe(true)
    // The branch named HEAD and the one named refs/heads/legacy, by their full names.
    await uploadFile({ repo, accessToken: f.write, hubUrl, branch: 'refs/heads/HEAD', file: { path: 'in-head-branch.txt', content: blob('h') } })
    expect(await fileExists({ repo, path: 'in-head-branch.txt', revision: 'refs/heads/HEAD', hubUrl })).toBe(true)
    expect(await fileExists({ repo, path: 'in-head-branch.txt', revision: 'HEAD', hubUrl })).toBe(false)
    expect(await fileExists({ repo, path: 'README.md', revision: 'refs/heads/refs/heads/legacy', hubUrl })).toBe(true)
    await uploadFile({ repo, accessToken: f.write, hubUrl, branch: 'p/q', file: { path: 'r/s.txt', content: blob('pq') } })
    expect(await paths('p/q', 'r')).toEqual(['r/s.txt'])
    await deleteBranch({ repo, accessToken: f.write, hubUrl, branch: 'refs/heads/refs/heads/legacy' })
    expect(await branches()).not.toContain('refs/heads/legacy')
  })
})
