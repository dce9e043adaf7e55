// File identities as git and the Hugging Face Hub give them: the git blob id (sha1) of a regular
// file, the LFS pointer that git stores for a large file, and commit ids.
import { createHash, randomBytes } from 'node:crypto'

export function gitBlobOid(content: Buffer | string): string {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

export function lfsPointer(sha256: string, size: number): string {
  return `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${size}\n`
}

/** A 40-hex commit id; unique because it hashes the parent, the tree and fresh randomness. */
export function newCommitId(parentId: string | null, tree: string): string {
  return createHash('sha1').update(`${parentId ?? ''}\n${tree}\n`).update(randomBytes(16)).digest('hex')
}

/** A folder's id in listings: stable for the same contents, as a git tree id is. */
export function folderOid(children: { path: string; oid: string }[]): string {
  const hash = createHash('sha1')
  for (const c of children) hash.update(`${c.path}\0${c.oid}\n`)
  return hash.digest('hex')
}

export const COMMIT_ID = /^[0-9a-f]{40}$/
export const SHA256 = /^[0-9a-f]{64}$/
