// One file of a revision as its page shows it (/{ns}/{name}/blob/{rev}/{path}, as on the Hub): its
// size and LFS state, and its text when it is text and small enough to read in a page.
import { readBlob } from '@/lib/storage'
import type { Caller } from '@/lib/policy'
import { actionToRead, entryAt, entryNotFound, repoAccess, resolveRevision, type RepoRef } from './revisions'
import { checkedPath } from './paths'

/** Files up to this size are shown in the page; larger ones only offer their download. */
export const MAX_VIEW_BYTES = 512 * 1024

export type FileView = {
  path: string
  size: number
  lfs: boolean
  commitId: string
  /** The file's text; null when it is larger than MAX_VIEW_BYTES or not UTF-8 text. */
  text: string | null
  /** Why there is no text: too large, or binary. */
  unshown: 'too-large' | 'binary' | null
}

/**
 * Text a page may show: valid UTF-8 with no NUL byte (what git and the Hub call binary otherwise). A byte-order mark
 * is kept (it shows as nothing), so that the file's text is all of the file: the editor commits it back as it was.
 */
function asText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return null
  }
}

/** The file at `path` of `revision`, for a caller who may read it (README.md also in gated repos); 404s otherwise. */
export async function fileView(caller: Caller, ref: RepoRef, revision: string, rawPath: string): Promise<FileView> {
  const path = checkedPath(rawPath)
  const { repo } = await repoAccess(caller, ref, actionToRead(path))
  const commit = await resolveRevision(repo.id, revision)
  const entry = await entryAt(commit?.id, path)
  if (!commit || !entry) throw entryNotFound(path)
  const size = Number(entry.size)
  const base = { path, size, lfs: entry.lfs, commitId: commit.id }
  if (size > MAX_VIEW_BYTES) return { ...base, text: null, unshown: 'too-large' }
  const chunks: Buffer[] = []
  if (size > 0) for await (const chunk of await readBlob(entry.blobSha256, { start: 0, end: size - 1 })) chunks.push(chunk as Buffer)
  const text = asText(Buffer.concat(chunks))
  return { ...base, text, unshown: text === null ? 'binary' : null }
}
