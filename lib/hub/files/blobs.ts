// The database's record of stored blobs, and the removal of blobs no revision refers to any more.
//
// Uploads and the cleanup meet on the same bytes (a repo is deleted while another uploads the same
// content), and a StoredBlob row must never name bytes the store does not hold: downloads of every
// file with that content would fail. So:
//
// - An upload claims the bytes before it decides whether to keep its own checked copy: once the
//   copy is verified and staged it records RepoBlob(repo, sha256), then the StoredBlob row, and only
//   then asks the store whether it already holds the bytes (discarding its copy) or promotes its
//   copy (PutHooks in lib/storage). The RepoBlob row goes first: it is what the cleanup checks.
// - The cleanup removes each blob in one transaction that first deletes (so locks) the StoredBlob
//   row, then checks with a fresh read that no revision refers to the blob and no repo claimed it
//   within the grace period, and removes the bytes before it commits (see removeBlobIfUnreferenced
//   for each interleaving).
import type { Readable } from 'node:stream'
import { db, joinSql, rows, run, sql, statements, transaction, type Statements } from '@/lib/db'
import { BlobMismatch, blobStore, completeMultipart, listBlobs, putBlob, removeBlob, type PutHooks } from '@/lib/storage'
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
 * batch of rows. A row already there is kept as it is, or, with `renew`, dated now: an upload's or
 * an LFS batch's claim must be as recent as the moment it relies on the bytes (claimRepoBlobs).
 */
export async function recordRepoBlobs(repoId: string, sha256s: string[], store: Statements = statements, { renew = false } = {}) {
  // In one order for every writer: two commits inserting the same new rows in opposite orders
  // would each wait for the other's row (a deadlock on PostgreSQL).
  const unique = [...new Set(sha256s)].sort()
  const now = new Date()
  const onConflict = renew ? sql`DO UPDATE SET "createdAt" = excluded."createdAt"` : sql`DO NOTHING`
  // 3 values a row: within SQLite's oldest limit of 999 parameters.
  for (let i = 0; i < unique.length; i += 300) {
    const rows = unique.slice(i, i + 300).map((sha256) => sql`(${repoId}, ${sha256}, ${now})`)
    await store.run(sql`INSERT INTO "RepoBlob" ("repoId", "sha256", "createdAt") VALUES ${joinSql(rows, ', ')} ON CONFLICT ("repoId", "sha256") ${onConflict}`)
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

/**
 * A repo's claim on bytes it relies on, dated now even when the repo had the row already: an
 * upload's, on bytes it has just verified (PutHooks.onVerified), and the LFS batch's, on bytes it
 * answers "stored" (the client then commits without uploading). A row kept from long ago (outside
 * the cleanup's grace period) would not protect them: a cleanup of the same bytes (another repo
 * deleted) could remove them before the commit refers to them. Ask the store whether it holds them
 * only after this: then either the claim came first (the cleanup keeps them) or the cleanup did
 * (they are gone, and the bytes are uploaded again).
 */
export function claimRepoBlobs(repoId: string, sha256s: string[]) {
  return recordRepoBlobs(repoId, sha256s, statements, { renew: true })
}

/**
 * Locks the StoredBlob rows of LFS objects a commit is about to refer to, in the commit's
 * transaction; the ones no longer there (the cleanup removed them since the commit looked) come
 * back. An upload's claim (RepoBlob) keeps bytes from the cleanup only for its grace period, and an
 * LFS object may be committed later than that: the cleanup then sees no TreeEntry that is not yet
 * committed. With the row locked first, a cleanup of the same blob waits for the commit and its
 * re-check finds the new TreeEntry (it keeps the bytes), or the cleanup locked it first and the
 * commit finds the row gone when the lock is let go. An UPDATE that changes nothing takes the lock
 * on both databases (SQLite's transactions already run one at a time); sorted, so that two commits
 * lock shared rows in the same order.
 */
export async function lockStoredBlobs(store: Statements, sha256s: string[]): Promise<string[]> {
  const unique = [...new Set(sha256s)].sort()
  const locked = new Set<string>()
  // One parameter a row: within SQLite's oldest limit of 999 parameters.
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500)
    const found = await store.rows<{ sha256: string }>(sql`
      UPDATE "StoredBlob" SET "sha256" = "sha256" WHERE "sha256" IN (${joinSql(chunk.map((sha256) => sql`${sha256}`), ', ')}) RETURNING "sha256"`)
    for (const row of found) locked.add(row.sha256)
  }
  return unique.filter((sha256) => !locked.has(sha256))
}

/**
 * Runs `put` (putBlob or completeMultipart) with the hooks that claim and record the blob for
 * `repoId`: RepoBlob first, then StoredBlob, both before the store is asked whether it holds the
 * bytes. A failure after the claim (promoting failed, the database refused a row) takes the
 * StoredBlob row away again if the store does not hold the bytes: a row must never name missing
 * bytes. Without `repoId` (seeding, tools) there is no RepoBlob claim and a cleanup of the same
 * bytes at the same moment is not guarded against; the commit of such bytes records its RepoBlob.
 */
async function putRecorded(repoId: string | undefined, size: number, put: (hooks: PutHooks) => Promise<string>): Promise<string> {
  let verified: string | null = null
  try {
    return await put({
      onVerified: async (sha256) => {
        verified = sha256
        if (repoId) await claimRepoBlobs(repoId, [sha256])
        await recordBlob(sha256, size)
      },
      // Recorded again once this copy is the blob: an upload of the same bytes whose promote failed
      // at the same moment may have taken the row away (forgetIfMissing) after asking the store,
      // before this copy arrived. One statement, for new bytes only.
      onPromoted: (sha256) => recordBlob(sha256, size),
    })
  } catch (error) {
    if (verified) await forgetIfMissing(verified).catch((cleanup) => console.error(`could not check the row of blob ${verified} after a failed upload`, cleanup))
    throw error
  }
}

/**
 * Deletes the StoredBlob row of bytes the store turns out not to hold (an upload whose promote
 * failed). The row is deleted (locked) before the store is asked, in one transaction: an upload of
 * the same bytes that promoted its copy meanwhile either finished before (the store holds them: the
 * row stays) or records its row again after this commit (onPromoted waits for the lock).
 */
async function forgetIfMissing(sha256: string) {
  await transaction(async (tx) => {
    if (!(await tx.run(sql`DELETE FROM "StoredBlob" WHERE "sha256" = ${sha256}`))) return
    if (await blobStore().has(sha256)) throw new KeptBlob()
  }).catch((error) => {
    if (!(error instanceof KeptBlob)) throw error
  })
}

/**
 * Stores and records a blob; a size or sha256 that does not match what arrived is a 400 and nothing
 * is kept. `repoId`: the repo it is uploaded for (an LFS upload URL's, a commit's inline file),
 * which claims it (RepoBlob) before the store is asked whether it holds the bytes already.
 */
export async function storeBlob(body: Readable, expected: { size: number; sha256?: string }, repoId?: string): Promise<string> {
  try {
    return await putRecorded(repoId, expected.size, (hooks) => putBlob(body, expected, undefined, hooks))
  } catch (error) {
    if (error instanceof BlobMismatch) throw new HubError(400, error.message)
    throw error
  }
}

/**
 * Joins the parts of a multipart LFS upload for `repoId` into a blob, claimed and recorded as
 * storeBlob does it. Errors as completeMultipart throws them (BlobMismatch, a missing part).
 */
export async function storeMultipartBlob(repoId: string, uploadId: string, partCount: number, expected: { size: number; sha256: string }): Promise<string> {
  return putRecorded(repoId, expected.size, (hooks) => completeMultipart(uploadId, partCount, expected, undefined, hooks))
}

/** Rolls back the transaction of a blob the cleanup keeps after all. */
class KeptBlob extends Error {}

/**
 * Removes blobs that no revision of any repo refers to and no repo uploaded within `graceMs` (a
 * blob just uploaded through LFS is unreferenced until its commit arrives). `candidates` limits the
 * sweep (the blobs of a deleted repo); without it every such blob older than `graceMs` goes, and so do stored bytes older than
 * `graceMs` that have no row at all (an upload whose promote failed and whose row could not be taken
 * away, or one from before uploads recorded their row first).
 */
export async function removeUnreferencedBlobs(options: { candidates?: string[]; graceMs?: number } = {}): Promise<number> {
  const cutoff = new Date(Date.now() - (options.graceMs ?? 24 * 3600 * 1000))
  const rows = await db.storedBlob.findMany({
    where: options.candidates ? { sha256: { in: options.candidates } } : { createdAt: { lt: cutoff } },
    select: { sha256: true },
  })
  let removed = 0
  for (const { sha256 } of rows) if (await removeBlobIfUnreferenced(sha256, cutoff)) removed++
  if (!options.candidates) removed += await removeBytesWithoutRow(cutoff)
  return removed
}

/**
 * What keeps a blob: a revision that refers to it, or a repo that claimed it (uploaded it, or
 * committed it) at or after `cutoff`: another repo may still commit bytes it has uploaded (an LFS
 * upload comes before its commit), so deleting a repo that held the same bytes must not take them.
 */
function keptBy(sha256: string, cutoff: Date) {
  return sql`(EXISTS (SELECT 1 FROM "TreeEntry" t WHERE t."blobSha256" = ${sha256})
    OR EXISTS (SELECT 1 FROM "RepoBlob" r WHERE r."sha256" = ${sha256} AND r."createdAt" >= ${cutoff}))`
}

/**
 * Removes one blob, row and bytes, in one transaction, if nothing keeps it (keptBy). True when it
 * did. The row is deleted first, which locks it; the check is made again after that, by a statement
 * of its own (a fresh snapshot on PostgreSQL), and the bytes are removed before the commit. An
 * upload of the same bytes claims them (RepoBlob, then StoredBlob) before it asks the store whether
 * it holds them (putRecorded). Every interleaving:
 *
 * - The upload's StoredBlob insert ran before the DELETE locked the row: its RepoBlob claim was
 *   committed before that, so the check after the lock sees it, and the transaction rolls back
 *   (row and bytes stay, and the upload may have discarded its copy: the bytes it relies on stay).
 *   The DELETE's own condition alone would not do on PostgreSQL: its snapshot is taken when the
 *   statement starts, and a claim committed between then and the moment it reaches the row is
 *   invisible to it (a re-check of a row another transaction changed reads other tables with the
 *   statement's old snapshot).
 * - The upload's StoredBlob insert comes after the DELETE: it conflicts with the deleted row, so it
 *   waits until this transaction ends (PostgreSQL: a unique insert waits for the transaction that
 *   deleted the key; SQLite: this transaction holds the write lock, and lib/db runs no other
 *   statement of the process meanwhile). Committed: the bytes are already gone, the upload inserts
 *   the row afresh, finds no bytes and promotes its own copy. Rolled back: the row and bytes stay.
 * - A commit inserting a TreeEntry for the bytes: on SQLite it runs wholly before or after this
 *   transaction. On PostgreSQL a TreeEntry not yet committed is not seen, but a commit's inline
 *   files and its LFS objects were claimed by their upload, which keeps them for the grace period.
 *
 * RepoBlob rows go with the blob (the repos that uploaded it have to upload it again), except those
 * written since the cutoff: none was there at the check, so such a row is a concurrent upload's
 * claim, which waits for this commit and then stores the bytes again.
 */
async function removeBlobIfUnreferenced(sha256: string, cutoff: Date): Promise<boolean> {
  try {
    return await transaction(async (tx) => {
      if (!(await tx.run(sql`DELETE FROM "StoredBlob" WHERE "sha256" = ${sha256} AND NOT ${keptBy(sha256, cutoff)}`))) return false
      if ((await tx.rows(sql`SELECT 1 AS "kept" WHERE ${keptBy(sha256, cutoff)}`)).length > 0) throw new KeptBlob()
      await tx.run(sql`DELETE FROM "RepoBlob" WHERE "sha256" = ${sha256} AND "createdAt" < ${cutoff}`)
      await removeBytes(sha256)
      return true
    })
  } catch (error) {
    if (error instanceof KeptBlob) return false
    throw error
  }
}

/**
 * Removes a blob's bytes inside the transaction that removes its row. A failure rolls the row back
 * unless the bytes are gone anyway (the row would name missing bytes).
 */
async function removeBytes(sha256: string) {
  try {
    await removeBlob(sha256)
  } catch (error) {
    if (await blobStore().has(sha256).catch(() => true)) throw error
  }
}

/**
 * Stored bytes older than the cutoff that no row names. Each is removed in a transaction that first
 * inserts a row for it (nothing is removed when one is there already) and deletes that row again
 * before it commits: an upload of the same bytes recording its row meanwhile waits on that key, then
 * finds the bytes gone and promotes its own copy, so its row never names removed bytes.
 */
async function removeBytesWithoutRow(cutoff: Date): Promise<number> {
  let removed = 0
  for await (const { sha256, modified } of listBlobs()) {
    if (modified >= cutoff) continue
    const gone = await transaction(async (tx) => {
      const inserted = await tx.run(sql`INSERT INTO "StoredBlob" ("sha256", "size", "createdAt") VALUES (${sha256}, ${0}, ${new Date()}) ON CONFLICT ("sha256") DO NOTHING`)
      if (!inserted) return false
      await removeBlob(sha256)
      await tx.run(sql`DELETE FROM "StoredBlob" WHERE "sha256" = ${sha256}`)
      return true
    })
    if (gone) removed++
  }
  return removed
}
