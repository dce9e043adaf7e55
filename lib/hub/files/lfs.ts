// The Git LFS batch API as the Hub speaks it: `basic` (one PUT) and the Hub's `multipart` (parts
// of fixed size, then a completion call), with a verify action. The client also offers `xet`; the
// hub answers basic/multipart, which the client falls back to.
//
// Upload and completion URLs are the hub's own, signed (HMAC with the hub secret, one hour), because
// the client sends them without its Authorization header, as it would to a storage service.
import { createHmac, randomUUID } from 'node:crypto'
import { z } from 'zod'
import { authSecret } from '@/lib/config'
import { constantTimeEqual } from '@/lib/auth/secrets'
import { db, rows, sql } from '@/lib/db'
import { repoContext } from '@/lib/hub/repos'
import { BlobMismatch, blobStore, putPart } from '@/lib/storage'
import { repoDecision, type Caller } from '@/lib/policy'
import { HubError } from '@/lib/http/errors'
import { requestBodyStream } from '@/lib/http/body'
import { fileLimits } from './limits'
import { SHA256 } from './git'
import { claimRepoBlobs, storeBlob, storeMultipartBlob, storedSize, storedSizes } from './blobs'
import { repoAccess, type RepoRef } from './revisions'

/** An upload URL that no longer (or never did) authorize its upload: 401, no bearer challenge (the URL is the credential). */
const uploadUrlRefused = (message: string) => new HubError(401, message)

/** Objects one batch request may ask about: huggingface_hub (Python) sends 256 a batch, git-lfs and @huggingface/hub 100. */
const MAX_BATCH_OBJECTS = 256
/**
 * Multipart part URLs one answer may list (each about 300 bytes): a 50 GiB object has 800, so without
 * a bound a small request for many large objects built an answer of hundreds of megabytes. Enough
 * for 25 objects of 50 GiB, or 256 of 5 GiB, in one batch.
 */
const MAX_BATCH_PARTS = 20_000

const batchInput = z.object({
  // Downloads go through resolve/ (the Hub's clients never ask the batch API for them).
  operation: z.literal('upload'),
  transfers: z.array(z.string()).optional().default(['basic']),
  objects: z.array(z.object({ oid: z.string().regex(SHA256, 'oid must be a sha256'), size: z.number().int().nonnegative() })).min(1).max(MAX_BATCH_OBJECTS),
  hash_algo: z.string().optional(),
  ref: z.object({ name: z.string() }).optional(),
})

const UPLOAD_TTL_S = 3600

/**
 * tokenId: the access token that asked for the URL (null for a browser session): the URL dies with
 * it. userId: whose write access it rests on, checked again on every use (absent from URLs made
 * before it was recorded).
 */
type UploadClaim = { repoId: string; tokenId: string | null; userId?: string; oid: string; size: number; uploadId: string; partSize: number | null; exp: number }

function sign(payload: string) {
  return createHmac('sha256', `lfs-upload:${authSecret()}`).update(payload).digest('base64url')
}

function uploadToken(claim: UploadClaim): string {
  const payload = Buffer.from(JSON.stringify(claim)).toString('base64url')
  return `${payload}.${sign(payload)}`
}

/**
 * The claim of a signed upload URL, while it may still be used: 401 when forged or expired, or
 * when the access token that asked for it has since been revoked, has expired or is gone (the URL
 * must not outlive the credential: revoking a leaked token stops its uploads in flight); 404 when
 * the repo has been deleted. Checked before any byte of the body is read.
 */
async function usableClaim(token: string): Promise<UploadClaim> {
  const claim = readUploadToken(token)
  const repo = await db.repo.findUnique({ where: { id: claim.repoId } })
  if (!repo) throw new HubError(404, 'The repository of this upload URL no longer exists')
  if (claim.tokenId) {
    const [found] = await rows<{ revokedAt: Date | null; expiresAt: Date | null }>(sql`SELECT "revokedAt", "expiresAt" FROM "AccessToken" WHERE "id" = ${claim.tokenId}`)
    if (!found || found.revokedAt || (found.expiresAt && found.expiresAt <= new Date())) throw uploadUrlRefused('The token that asked for this upload URL is no longer valid')
  }
  // The user who asked must still be allowed to write here (an ex-member's URLs, a browser session's above all, stop at once).
  if (!claim.userId) {
    if (!claim.tokenId) throw uploadUrlRefused('This upload URL is from before upload URLs named their user; ask the batch API again')
  } else {
    const uploader = { userId: claim.userId, principal: null }
    if (repoDecision(uploader, 'write', repo, await repoContext(uploader, repo)) !== 'allow') {
      throw new HubError(403, 'The user who asked for this upload URL may no longer write to this repository')
    }
  }
  return claim
}

/** The claim of a signed upload URL; 401 when forged or expired. */
function readUploadToken(token: string): UploadClaim {
  const [payload, mac] = token.split('.')
  if (!payload || !mac || !constantTimeEqual(mac, sign(payload))) throw uploadUrlRefused('Invalid upload URL')
  let claim: UploadClaim
  try {
    claim = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as UploadClaim
  } catch {
    throw uploadUrlRefused('Invalid upload URL')
  }
  if (claim.exp < Date.now() / 1000) throw uploadUrlRefused('The upload URL has expired; ask the batch API again')
  return claim
}

function partCount(size: number, partSize: number) {
  return Math.max(1, Math.ceil(size / partSize))
}

/** POST /{ns}/{name}.git/info/lfs/objects/batch */
export async function lfsBatch(caller: Caller, ref: RepoRef, body: unknown, origin: string, authorization: string | null) {
  const parsed = batchInput.safeParse(body)
  if (!parsed.success) throw new HubError(422, `Invalid LFS batch request: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  const input = parsed.data
  const { repo } = await repoAccess(caller, ref, 'write')
  const limits = fileLimits()
  const multipartOffered = input.transfers.includes('multipart')
  const parts = input.objects.reduce((n, o) => n + (multipartOffered && o.size > limits.multipartChunkBytes && o.size <= limits.maxFileBytes ? partCount(o.size, limits.multipartChunkBytes) : 0), 0)
  if (parts > MAX_BATCH_PARTS) throw new HubError(422, `This batch would list ${parts} upload parts; at most ${MAX_BATCH_PARTS} fit in one answer: ask about fewer large objects at a time`)
  // The URLs die with the token that asks for them (usableClaim): they say so.
  const tokenExpires = caller?.principal?.expiresAt ? Math.floor(caller.principal.expiresAt.getTime() / 1000) : Infinity
  const exp = Math.min(Math.floor(Date.now() / 1000) + UPLOAD_TTL_S, tokenExpires)
  const expiresAt = new Date(exp * 1000).toISOString()
  let usedMultipart = false
  const repoPath = `${ref.type === 'model' ? '' : `${ref.type}s/`}${ref.namespace}/${ref.name}`
  // One query for the whole batch.
  const stored = await storedSizes(repo.id, input.objects.map((o) => o.oid))
  const answeredStored = input.objects.filter((o) => stored.get(o.oid) === o.size).map((o) => o.oid)
  if (answeredStored.length > 0) await claimRepoBlobs(repo.id, answeredStored)
  const objects = await Promise.all(
    input.objects.map(async ({ oid, size }) => {
      if (size > limits.maxFileBytes) return { oid, size, error: { code: 413, message: `Object is larger than the ${limits.maxFileBytes}-byte limit for one file` } }
      // Already this repo's: nothing to upload. Bytes only another repo uploaded are uploaded again
      // (the store keeps one copy): a sha256 alone proves nothing, and the answer must not say
      // that someone else's file exists.
      if (stored.get(oid) === size && (await blobStore().has(oid))) return { oid, size, authenticated: true }
      const verify = { href: `${origin}/${repoPath}.git/info/lfs/objects/verify`, header: authorization ? { Authorization: authorization } : {}, expires_at: expiresAt }
      const multipart = multipartOffered && size > limits.multipartChunkBytes
      const claim: UploadClaim = { repoId: repo.id, tokenId: caller?.principal?.tokenId ?? null, userId: caller!.userId, oid, size, uploadId: randomUUID(), partSize: multipart ? limits.multipartChunkBytes : null, exp }
      const href = `${origin}/api/lfs/uploads/${uploadToken(claim)}`
      if (!multipart) return { oid, size, authenticated: true, actions: { upload: { href, expires_at: expiresAt }, verify } }
      usedMultipart = true
      const header: Record<string, string> = { chunk_size: String(limits.multipartChunkBytes) }
      for (let n = 1; n <= partCount(size, limits.multipartChunkBytes); n++) header[String(n).padStart(5, '0')] = `${href}/part/${n}`
      return { oid, size, authenticated: true, actions: { upload: { href: `${href}/complete`, header, expires_at: expiresAt }, verify } }
    }),
  )
  return { transfer: usedMultipart ? 'multipart' : 'basic', objects, hash_algo: 'sha256' }
}

function declaredLength(request: Request): number | null {
  const raw = request.headers.get('content-length')
  return raw === null ? null : Number(raw)
}

/** PUT {upload href}: the whole object (basic transfer), checked against the batch's oid and size. */
export async function uploadObject(token: string, request: Request) {
  const claim = await usableClaim(token)
  if (claim.partSize !== null) throw new HubError(400, 'This object is uploaded in parts')
  const length = declaredLength(request)
  if (length !== null && length !== claim.size) throw new HubError(400, `Content-Length ${length} is not the declared size ${claim.size}`)
  // Claimed for the repo (RepoBlob) and recorded before the store is asked whether it holds the
  // bytes already (lib/hub/files/blobs.ts: a cleanup of the same bytes must not remove them after).
  await storeBlob(requestBodyStream(request), { size: claim.size, sha256: claim.oid }, claim.repoId)
}

/** PUT {part href}: one part of a multipart upload; answers the part's ETag. */
export async function uploadPart(token: string, partNumber: number, request: Request): Promise<string> {
  const claim = await usableClaim(token)
  if (claim.partSize === null) throw new HubError(400, 'This object is not uploaded in parts')
  const parts = partCount(claim.size, claim.partSize)
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > parts) throw new HubError(400, `Part number must be 1 to ${parts}`)
  const expected = partNumber < parts ? claim.partSize : claim.size - claim.partSize * (parts - 1)
  const length = declaredLength(request)
  if (length !== null && length !== expected) throw new HubError(400, `Part ${partNumber} must have ${expected} bytes, not ${length}`)
  try {
    return await putPart(claim.uploadId, partNumber, requestBodyStream(request), expected)
  } catch (error) {
    if (error instanceof BlobMismatch) throw new HubError(400, error.message)
    throw error
  }
}

const completeInput = z.object({
  oid: z.string(),
  parts: z.array(z.object({ partNumber: z.number().int(), etag: z.string() })),
})

/** POST {completion href}: joins the parts, checks size and sha256, keeps the blob or nothing. */
export async function completeUpload(token: string, body: unknown) {
  const claim = await usableClaim(token)
  if (claim.partSize === null) throw new HubError(400, 'This object is not uploaded in parts')
  const parsed = completeInput.safeParse(body)
  if (!parsed.success || parsed.data.oid !== claim.oid) throw new HubError(422, 'The completion must name the object and its parts')
  const parts = partCount(claim.size, claim.partSize)
  const numbers = parsed.data.parts.map((p) => p.partNumber).sort((a, b) => a - b)
  if (numbers.length !== parts || numbers.some((n, i) => n !== i + 1)) throw new HubError(422, `The completion must list parts 1 to ${parts}`)
  try {
    // Claimed and recorded as uploadObject's blob is (storeBlob).
    await storeMultipartBlob(claim.repoId, claim.uploadId, parts, { size: claim.size, sha256: claim.oid })
  } catch (error) {
    if (error instanceof BlobMismatch) throw new HubError(400, error.message)
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as { name?: string }).name === 'NoSuchKey') {
      throw new HubError(422, 'Some parts were not uploaded')
    }
    throw error
  }
}

/** POST /{ns}/{name}.git/info/lfs/objects/verify: 200 when the object is stored with that size for this repo. */
export async function verifyObject(caller: Caller, ref: RepoRef, body: unknown) {
  const { repo } = await repoAccess(caller, ref, 'write')
  const parsed = z.object({ oid: z.string().regex(SHA256), size: z.number().int().nonnegative() }).safeParse(body)
  if (!parsed.success) throw new HubError(422, 'Body must be {"oid": sha256, "size": bytes}')
  const size = await storedSize(repo.id, parsed.data.oid)
  if (size === null) throw new HubError(404, 'Object not found')
  if (size !== parsed.data.size) throw new HubError(422, `Object has ${size} bytes, not ${parsed.data.size}`)
  return { oid: parsed.data.oid, size }
}
