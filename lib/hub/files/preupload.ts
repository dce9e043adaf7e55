// POST /api/{type}s/{ns}/{name}/preupload/{revision}: which files go through LFS. As on the Hub:
// files over 10 MB, binary files (a NUL byte in the first 512 bytes the client samples), and files
// that .gitattributes routes to LFS.
import { z } from 'zod'
import type { Caller } from '@/lib/policy'
import { HubError } from '@/lib/http/errors'
import { checkedPath } from './paths'
import { repoAccess, resolveRevision, entryAt, type RepoRef } from './revisions'
import { readBlob } from '@/lib/storage'
import { fileLimits } from './limits'
import { fileTooLarge } from './commit'

const REGULAR_MAX_BYTES = 10 * 1000 * 1000

const input = z.object({
  files: z.array(z.object({ path: z.string(), size: z.number().int().nonnegative(), sample: z.string().max(1024).optional().default('') })).max(1000),
  gitAttributes: z.string().max(100_000).optional(),
})

/** Patterns with `filter=lfs` in a .gitattributes text, as regular expressions over paths. */
export function lfsPatterns(gitAttributes: string): RegExp[] {
  const out: RegExp[] = []
  for (const line of gitAttributes.split('\n')) {
    const [pattern, ...attrs] = line.trim().split(/\s+/)
    if (!pattern || pattern.startsWith('#') || !attrs.includes('filter=lfs')) continue
    const body = pattern
      .replace(/^\//, '')
      .split('')
      .map((ch) => (ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : /[.+^${}()|[\]\\]/.test(ch) ? `\\${ch}` : ch))
      .join('')
      .replace(/\[\^\/\]\*\[\^\/\]\*\//g, '(?:.*/)?') // "**/"
    // A pattern without "/" matches the name in any folder (git's rule).
    out.push(new RegExp(pattern.includes('/') ? `^${body}$` : `(^|/)${body}$`))
  }
  return out
}

export async function preupload(caller: Caller, ref: RepoRef, revision: string, body: unknown) {
  const parsed = input.safeParse(body)
  if (!parsed.success) throw new HubError(400, 'Body must be {"files": [{"path", "size", "sample"}]}')
  const { repo } = await repoAccess(caller, ref, 'write')
  const commit = await resolveRevision(repo.id, revision).catch(() => null)
  let attributes = parsed.data.gitAttributes
  if (attributes === undefined) {
    const stored = await entryAt(commit?.id, '.gitattributes')
    if (stored && !stored.lfs && Number(stored.size) <= 100_000) {
      const chunks: Buffer[] = []
      for await (const chunk of await readBlob(stored.blobSha256)) chunks.push(chunk as Buffer)
      attributes = Buffer.concat(chunks).toString('utf8')
    }
  }
  const patterns = lfsPatterns(attributes ?? '')
  const limits = fileLimits()
  const regularMax = Math.min(REGULAR_MAX_BYTES, limits.maxInlineFileBytes)
  return {
    files: parsed.data.files.map((f) => {
      const path = checkedPath(f.path)
      if (f.size > limits.maxFileBytes) throw fileTooLarge(path, limits.maxFileBytes)
      const binary = Buffer.from(f.sample, 'base64').includes(0)
      const lfs = f.size > regularMax || binary || patterns.some((p) => p.test(path))
      return { path, uploadMode: lfs ? 'lfs' : 'regular', shouldIgnore: false }
    }),
  }
}
