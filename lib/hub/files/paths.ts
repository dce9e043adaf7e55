// Which file paths a repository may hold: relative, '/'-separated, no '..', no '.git' folder, no
// control characters, bounded lengths. Every path from a client passes here before it is stored.
import { HubError } from '@/lib/http/errors'

const MAX_PATH_BYTES = 1000
const MAX_SEGMENT_BYTES = 255

/** The reason a path is refused, or null when it is fine. */
export function pathProblem(path: unknown): string | null {
  if (typeof path !== 'string' || path.length === 0) return 'must be a non-empty string'
  // A lone surrogate would be stored as U+FFFD: another path than the one the client named.
  // (With the u flag a surrogate pair is one code point; only an unpaired half is \p{Cs}.)
  if (/\p{Cs}/u.test(path)) return 'must be valid Unicode (no unpaired surrogates)'
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return `must be at most ${MAX_PATH_BYTES} bytes`
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'must not contain control characters'
  if (path.includes('\\')) return 'must use "/" as separator'
  if (path.startsWith('/')) return 'must be relative'
  for (const segment of path.split('/')) {
    if (segment === '') return 'must not contain empty segments'
    if (segment === '.' || segment === '..') return 'must not contain "." or ".." segments'
    if (segment === '.git') return 'must not be inside a .git folder'
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) return `segments must be at most ${MAX_SEGMENT_BYTES} bytes`
  }
  return null
}

/** A client's value for an error message: a string quoted (and cut), anything else by its type (String() of an object may throw). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 200))
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a value of type ${typeof value}`
}

export function checkedPath(path: unknown): string {
  const problem = pathProblem(path)
  if (problem) throw new HubError(400, `Invalid path ${describeValue(path)}: ${problem}`)
  return path as string
}

/** A folder path for deletedFolder / tree: the same rules, with an optional trailing '/'. */
export function checkedFolder(path: unknown): string {
  return checkedPath(typeof path === 'string' ? path.replace(/\/+$/, '') : path)
}

/** The branch a repo starts with, and the one HEAD names. */
export const DEFAULT_BRANCH = 'main'

const HEADS = 'refs/heads/'
const MAX_BRANCH_LENGTH = 200

/** `refs/heads/X` is the branch X, as git reads a full ref name (once: `refs/heads/refs/heads/X` is `refs/heads/X`). */
function withoutHeads(name: string): string {
  return name.startsWith(HEADS) ? name.slice(HEADS.length) : name
}

/**
 * The branch a client means wherever it names one: a revision to read, a branch to commit to or to
 * delete. HEAD is the default branch (a symbolic ref to it, as on a git server); `refs/heads/X` is X.
 * Reads (resolveRevision) and writes (createCommit, deleteBranch) both ask here, so they never
 * disagree on which branch a name means. For every name checkedBranchName accepts, it is the name.
 */
export function branchNamed(given: string): string {
  return given === 'HEAD' ? DEFAULT_BRANCH : withoutHeads(given)
}

/**
 * Why `name` cannot be a new branch, or null: git's check-ref-format rules for refs/heads/{name},
 * and the hub's own (a length limit; no name that reads as something else: HEAD, refs/...,
 * a commit id; no # or %, which change the meaning of the URLs clients put revisions in unencoded).
 */
export function branchNameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty'
  if (name.length > MAX_BRANCH_LENGTH) return `must be at most ${MAX_BRANCH_LENGTH} characters`
  if (/\p{Cs}/u.test(name)) return 'must be valid Unicode (no unpaired surrogates)'
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return 'must not contain spaces, control characters or any of ~ ^ : ? * [ \\'
  if (/[#%]/.test(name)) return 'must not contain # or % (clients send revisions in URLs unencoded)'
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'must not start or end with "/" nor contain "//"'
  if (name.includes('..')) return 'must not contain ".."'
  if (name.endsWith('.')) return 'must not end with "."'
  if (name.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock'))) return 'no part may start with "." or end with ".lock"'
  if (name === '@' || name.includes('@{')) return 'must not be "@" nor contain "@{"'
  if (name.startsWith('-')) return 'must not start with "-"'
  if (name === 'HEAD') return 'HEAD names the default branch'
  if (name.startsWith('refs/')) return 'must not start with "refs/" (name the branch, or refs/heads/{branch})'
  if (/^[0-9a-f]{40}$/i.test(name)) return 'must not be a commit id (40 hex digits)'
  return null
}

/**
 * The name of a branch to create, as branchNamed will read it later (`refs/heads/X` is X); 400
 * when git's rules or the hub's refuse it (branchNameProblem), in the Hub's words.
 */
export function checkedBranchName(given: unknown): string {
  const name = typeof given === 'string' ? withoutHeads(given) : ''
  const problem = branchNameProblem(name)
  if (problem) throw new HubError(400, `Invalid reference for a branch: ${describeValue(given)} (${problem})`)
  return name
}
