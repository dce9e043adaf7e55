// The repo lookup, the branch lookup and the file lookup of every repo API call and download are
// hand-written statements (lib/hub/repos findRepo, lib/hub/files resolveRevision and entryAt); they must answer exactly what
// Prisma's findUnique answers, on SQLite and on PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { createRepo, findRepo } from '@/lib/hub/repos'
import { entryAt, resolveRevision, treeOf } from '@/lib/hub/files/revisions'

let userId: string
beforeAll(async () => {
  userId = (await createUser({ username: 'repolookup', email: 'repolookup@test.dev', password: 'repo-lookup-pass' })).id
  const caller = { userId, principal: null }
  await createRepo(caller, { namespace: 'repolookup', name: 'plain' })
  await createRepo(caller, { namespace: 'repolookup', name: 'secret', type: 'dataset', private: true, description: 'ünïcode — "quoted"' })
  await createRepo(caller, { namespace: 'repolookup', name: 'gated', type: 'space', gated: true })
})

describe('findRepo', () => {
  it('answers the row Prisma answers, field for field and type for type', async () => {
    for (const [type, name] of [['model', 'plain'], ['dataset', 'secret'], ['space', 'gated']] as const) {
      const prisma = await db.repo.findUnique({ where: { type_namespace_name: { type, namespace: 'repolookup', name } } })
      const raw = await findRepo(type, 'repolookup', name)
      expect(prisma).not.toBeNull()
      expect(raw).toEqual(prisma)
      expect(typeof raw!.private).toBe('boolean')
      expect(raw!.createdAt).toBeInstanceOf(Date)
    }
  })

  it('answers null for another type and a name that does not exist; another case finds the repo, as on the Hub', async () => {
    expect(await findRepo('dataset', 'repolookup', 'plain')).toBeNull()
    expect(await findRepo('model', 'RepoLookup', 'PLAIN')).toEqual(await db.repo.findUnique({ where: { type_namespace_name: { type: 'model', namespace: 'repolookup', name: 'plain' } } }))
    expect(await findRepo('model', 'repolookup', "plain' OR '1'='1")).toBeNull()
    expect(await findRepo('model', 'repolookup', 'pl%')).toBeNull()
  })

  it('refuses a repo whose name differs from one of the same type only in case (409), not one of another type', async () => {
    const caller = { userId, principal: null }
    await expect(createRepo(caller, { namespace: 'repolookup', name: 'Plain' })).rejects.toMatchObject({ status: 409, message: expect.stringContaining('repolookup/plain exists already') })
    await expect(createRepo(caller, { namespace: 'repolookup', name: 'Plain', type: 'dataset' })).resolves.toMatchObject({ name: 'Plain' })
  })
})

describe('resolveRevision', () => {
  it('finds a branch by its exact name and refuses others as before', async () => {
    const repo = (await findRepo('model', 'repolookup', 'plain'))!
    expect(await resolveRevision(repo.id, 'main')).toBeNull() // no commit yet: an empty main
    const commit = await db.repoCommit.create({ data: { id: 'c'.repeat(40), repoId: repo.id, title: 'first', authorId: userId, authorName: 'repolookup', credential: 'session' } })
    await db.repoRef.create({ data: { repoId: repo.id, name: 'main', commitId: commit.id } })
    expect(await resolveRevision(repo.id, 'main')).toEqual(await db.repoCommit.findUnique({ where: { id: commit.id } }))
    expect(await resolveRevision(repo.id, 'HEAD')).toEqual(commit)
    await expect(resolveRevision(repo.id, 'Main')).rejects.toMatchObject({ status: 404 })
  })
})

describe('entryAt', () => {
  it('answers the row Prisma answers for a regular and an LFS file, null for a path that is not there', async () => {
    const repo = (await findRepo('dataset', 'repolookup', 'secret'))!
    const commit = await db.repoCommit.create({ data: { id: 'e'.repeat(40), repoId: repo.id, title: 'files', authorId: userId, authorName: 'repolookup', credential: 'session' } })
    const big = 5n * 1024n ** 3n // past 32 bits
    await db.treeEntry.createMany({
      data: [
        { commitId: commit.id, path: 'README.md', blobSha256: 'a'.repeat(64), size: 12n, gitOid: 'b'.repeat(40), lfs: false, lastCommitId: commit.id },
        { commitId: commit.id, path: 'weights/model.bin', blobSha256: 'c'.repeat(64), size: big, gitOid: 'd'.repeat(40), lfs: true, lastCommitId: commit.id },
      ],
    })
    for (const path of ['README.md', 'weights/model.bin']) {
      const prisma = await db.treeEntry.findUnique({ where: { commitId_path: { commitId: commit.id, path } } })
      expect(prisma).not.toBeNull()
      expect(await entryAt(commit.id, path)).toEqual(prisma)
    }
    expect((await entryAt(commit.id, 'weights/model.bin'))!.size).toBe(big)
    expect(await entryAt(commit.id, 'readme.md')).toBeNull()
    expect(await entryAt(commit.id, "README.md' OR '1'='1")).toBeNull()
    // Once the process holds the tree, the same answers come from it.
    await treeOf(commit.id)
    expect(await entryAt(commit.id, 'weights/model.bin')).toEqual(await db.treeEntry.findUnique({ where: { commitId_path: { commitId: commit.id, path: 'weights/model.bin' } } }))
    expect(await entryAt(commit.id, 'nothing')).toBeNull()
  })
})
