// POST /api/{type}s/{ns}/{name}/preupload/{revision}: which files go through LFS. As on the Hub:
// files over 10 MB, binary files (judged from the first 512 bytes the client samples), and files
// that .gitattributes routes to LFS.
import { z } from 'zod'
import type { Caller } from '@/lib/policy'
import { HubError } from '@/lib/http/errors'
import { checkedPath } from './paths'
import { repoAccess, resolveRevision, entryAt, type RepoRef } from './revisions'
import { readBlob } from '@/lib/storage'
import { fileLimits } from './limits'
import { fileTooLarge } from './commit'
import { GIT_ATTRIBUTES, lfsRules, MatchBudget, MatchBudgetExceeded, routedToLfs } from './gitattributes'

const REGULAR_MAX_BYTES = 10 * 1000 * 1000
/**
 * Comparisons one request's .gitattributes matching may take (characters within names, table cells across folders):
 * 15-40 ms on the slowest patterns found on a busy 2-core host; the Hub's default file takes about 200 per path,
 * 200,000 for the 1,000 paths a request may ask about.
 */
const MATCH_STEPS = 5_000_000

const input = z.object({
  files: z.array(z.object({ path: z.string(), size: z.number().int().nonnegative(), sample: z.string().max(1024).optional().default('') })).max(1000),
  gitAttributes: z.string().max(100_000).optional(),
})

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Whether a file's sample is binary: a NUL byte (git's own test), or bytes that are not UTF-8 text.
 * NUL alone lets about one random (compressed, encrypted, weight) file in seven through as text,
 * since 512 random bytes hold no NUL with probability (255/256)^512; such a file would then travel
 * base64-encoded inside the commit and be stored as a regular git object, which the Hub keeps for text.
 * The sample is cut at 512 bytes, so a multi-byte character cut at its end still counts as text.
 */
export function looksBinary(sample: Buffer): boolean {
  if (sample.includes(0)) return true
  let end = sample.length
  // Step back over an unfinished sequence at the cut: at most 3 continuation bytes after a lead byte.
  for (let back = 1; back <= 3 && back <= sample.length; back++) {
    const byte = sample[sample.length - back]!
    if ((byte & 0xc0) === 0x80) continue // continuation byte: keep looking for its lead
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    if (needs > back) end = sample.length - back
    break
  }
  try {
    utf8.decode(sample.subarray(0, end))
    return false
  } catch {
    return true
  }
}

export async function preupload(caller: Caller, ref: RepoRef, revision: string, body: unknown) {
  const parsed = input.safeParse(body)
  if (!parsed.success) throw new HubError(400, 'Body must be {"files": [{"path", "size", "sample"}]}')
  const { repo } = await repoAccess(caller, ref, 'write')
  const commit = await resolveRevision(repo.id, revision).catch(() => null)
  let attributes = parsed.data.gitAttributes
  if (attributes === undefined) {
    const stored = await entryAt(commit?.id, GIT_ATTRIBUTES)
    if (stored && !stored.lfs && Number(stored.size) <= 100_000) {
      const chunks: Buffer[] = []
      for await (const chunk of await readBlob(stored.blobSha256)) chunks.push(chunk as Buffer)
      attributes = Buffer.concat(chunks).toString('utf8')
    }
  }
  const rules = lfsRules(attributes ?? '')
  const budget = new MatchBudget(MATCH_STEPS)
  const limits = fileLimits()
  const regularMax = Math.min(REGULAR_MAX_BYTES, limits.maxInlineFileBytes)
  try {
    return {
      files: parsed.data.files.map((f) => {
        const path = checkedPath(f.path)
        if (f.size > limits.maxFileBytes) throw fileTooLarge(path, limits.maxFileBytes)
        const binary = looksBinary(Buffer.from(f.sample, 'base64'))
        const lfs = f.size > regularMax || binary || routedToLfs(rules, path, budget)
        return { path, uploadMode: lfs ? 'lfs' : 'regular', shouldIgnore: false }
      }),
    }
  } catch (error) {
    if (error instanceof MatchBudgetExceeded) throw new HubError(422, `${error.message}: send fewer files at once, or simplify the patterns`)
    throw error
  }
}
