// The database's record of stored blobs: a row is written once the store holds the checked bytes,
// and blobs no revision refers to any more are removed (rows first, then bytes).
import type { Readable } from 'node:stream'
import { db, joinSql, rows, run, sql, statements, type Statements } from '@/lib/db'
import { BlobMismatch, listBlobs, putBlob, removeBlob } from '@/lib/storage'
import { HubError } from '@/lib/http/errors'

/**
 * One statement, kept by the first writer (an upload of bytes already recorded changes nothing):
 * Prisma's upsert took four times as long, a large share of a small LFS upload's time
 * (bench/files/RESULTS.md). createdAt goes in as Prisma writes it (the blob cleanup's grace period reads it).
 */
export async function recordBlob(sha256: string, size: number) {
  await run(sql`INSERT INTO "StoredBlob" ("sha256", "size", "createdAt") VALUES (${sha256}, ${size}, ${new Date()}) ON CONFLICT ("sha256") DO NOTHING`)
}

/**
 * The blobs `repoId` may put in its trees (RepoBlob in prisma/schema.prisma): written when an
 * upload signed for the repo completes and for every file its commits store. One statement per
 * batch of rows; a row already there is kept.
 */
export async function recordRepoBlobs(repoId: string, sha256s: string[], store: Statements = statements) {
  // In one order for every writer: two commits inserting the same new rows in opposite orders
  // would each wait for the other's row (a deadlock on PostgreSQL).
  const unique = [...new Set(sha256s)].sort()
  const now = new Date()
  // 3 values a row: within SQLite's oldest limit of 999 parameters.
  for (let i = 0; i < unique.length; i += 300) {
    const rows = unique.slice(i, i + 300).map((sha256) => sql`(${repoId}, ${sha256}, ${now})`)
    await store.run(sql`INSERT INTO "RepoBlob" ("repoId", "sha256", "createdAt") VALUES ${joinSql(rows, ', ')} ON CONFLICT ("repoId", "sha256") DO NOTHING`)
  }
}

/**
 * Size of a blob the store holds and `repoId` may use, or null: a blob only another repo uploaded
 * is "not found" here exactly as one nobody stored.
 */
export async function storedSize(repoId: string, sha256: string): Promise<number | null> {
  return (await storedSizes(repoId, [sha256])).get(sha256) ?? null
}

/** Sizes of the blobs among `sha256s` that the store holds and `repoId` may use (one query a 500). */
export async function storedSizes(repoId: string, sha256s: string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>()
  const unique = [...new Set(sha256s)]
  // Chunks within SQLite's oldest limit of 999 parameters.
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500)
    const found = await rows<{ sha256: string; size: number | bigint }>(sql`
      SELECT b."sha256", b."size" FROM "StoredBlob" b JOIN "RepoBlob" r ON r."sha256" = b."sha256" AND r."repoId" = ${repoId}
      WHERE b."sha256" IN (${joinSql(chunk.map((sha256) => sql`${sha256}`), ', ')})`)
    for (const row of found) sizes.set(row.sha256, Number(row.size))
  }
  return sizes
}

/** Stores and records a blob; a size or sha256 that does not match what arrived is a 400 and nothing is kept. */
export async function storeBlob(body: Readable, expected: { size: number; sha256?: string }): Promise<string> {
  try {
    const sha256 = await putBlob(body, expected)
    await recordBlob(sha256, expected.size)
    return sha256
  } catch (error) {
    if (error instanceof BlobMismatch) throw new HubError(400, error.message)
    throw error
  }
}

/**
 * Removes blobs that no revision of any repo refers to and no repo uploaded within `graceMs` (a
 * blob just uploaded through LFS is unreferenced until its commit arrives). `candidates` limits the
 * sweep (the blobs of a deleted repo); without it every such blob older than `graceMs` goes, and so do stored bytes older than
 * `graceMs` that have no row at all: storeBlob promotes the checked bytes before it records their
 * row, so a database that refused that write (down, locked) left bytes no row named, which a sweep
 * over rows never saw (the soak's "stored bytes … have no row").
 */
export async function removeUnreferencedBlobs(options: { candidates?: string[]; graceMs?: number } = {}): Promise<number> {
  const cutoff = new Date(Date.now() - (options.graceMs ?? 24 * 3600 * 1000))
  const rows = await db.storedBlob.findMany({
    where: options.candidates ? { sha256: { in: options.candidates } } : { createdAt: { lt: cutoff } },
    select: { sha256: true },
  })
  let removed = 0
  for (const { sha256 } of rows) {
    if (await db.treeEntry.findFirst({ where: { blobSha256: sha256 }, select: { commitId: true } })) continue
    // Another repo uploaded these bytes within the grace period and may still commit them (an LFS
    // upload comes before its commit): deleting a repo that held the same bytes must not take them.
    if (await db.repoBlob.findFirst({ where: { sha256, createdAt: { gte: cutoff } }, select: { repoId: true } })) continue
    // Row first: a blob without a row is invisible (uploads re-send it); a row without a blob would be broken.
    // The repos that uploaded it lose it too: their next commit of it has to upload it again.
    const { count } = await db.storedBlob.deleteMany({ where: { sha256 } })
    await db.repoBlob.deleteMany({ where: { sha256 } })
    if (count) {
      await removeBlob(sha256)
      removed++
    }
  }
  if (!options.candidates) removed += await removeBytesWithoutRow(cutoff)
  return removed
}

async function removeBytesWithoutRow(cutoff: Date): Promise<number> {
  let removed = 0
  for await (const { sha256, modified } of listBlobs()) {
    if (modified >= cutoff) continue
    // Looked up one by one, just before removing: an upload of the same bytes records its row
    // without rewriting them, and its row must win.
    if (await db.storedBlob.findUnique({ where: { sha256 }, select: { sha256: true } })) continue
    await removeBlob(sha256)
    removed++
  }
  return removed
}
