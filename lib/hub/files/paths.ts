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

const BRANCH = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/

export function checkedBranchName(name: string): string {
  if (name.length > 200 || !BRANCH.test(name) || name.includes('..') || name.endsWith('.lock') || /^[0-9a-f]{40}$/.test(name)) {
    throw new HubError(400, `Invalid branch name "${name.slice(0, 200)}"`)
  }
  return name
}
