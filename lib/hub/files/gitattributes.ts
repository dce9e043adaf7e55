// .gitattributes: which paths a repo keeps in LFS, and the file a new repo starts with.
//
// Patterns are matched by git's rules (a pattern without "/" matches a file's name in any folder, one with "/" is
// anchored at the root; `*` and `?` stay within a folder; a whole `**` segment spans folders; the last line that
// matches a path decides; `[a-z]` classes and `\` escapes as wildmatch reads them), without regular
// expressions: a pattern such as `*a*a*a*a*a*b` compiled to one backtracks for seconds on a path of `a`s (an attack
// review held the server 25 s with one request). Here a match costs at most its pattern's length times its path's,
// all of it charged to a request's MatchBudget.

import type { RepoType } from '@/lib/hub/names'

/** A pattern that sets (`filter=lfs`) or unsets (`-filter`, `!filter`, another filter) LFS, split into its folders' parts. */
export type LfsRule = { segments: string[]; anchored: boolean; lfs: boolean }

/** Character comparisons a request may spend on matching; spent, matching throws MatchBudgetExceeded. */
export class MatchBudget {
  constructor(public remaining: number) {}
  spend(steps: number): void {
    this.remaining -= steps
    if (this.remaining < 0) throw new MatchBudgetExceeded()
  }
}

export class MatchBudgetExceeded extends Error {
  constructor() {
    super('The .gitattributes patterns take too long to match against these paths')
  }
}

/** The lines of a .gitattributes text that say whether a path is in LFS, in order (a later line wins, as in git). */
export function lfsRules(gitAttributes: string): LfsRule[] {
  const rules: LfsRule[] = []
  for (const line of gitAttributes.split('\n')) {
    const [pattern, ...attrs] = line.trim().split(/\s+/)
    if (!pattern || pattern.startsWith('#')) continue
    const sets = attrs.includes('filter=lfs')
    const unsets = attrs.some((a) => a === '-filter' || a === '!filter' || (a.startsWith('filter=') && a !== 'filter=lfs'))
    if (!sets && !unsets) continue
    // Consecutive `**` segments are one (`**/**/x` is `**/x`), so a pattern's length buys no extra work.
    const segments = pattern.replace(/^\//, '').split('/').filter((segment, i, all) => !(segment === '**' && all[i - 1] === '**'))
    rules.push({ segments, anchored: pattern.includes('/'), lfs: sets })
  }
  return rules
}

/** Whether `path` (a file's path in the repo) is in LFS: the last rule that matches it says. */
export function routedToLfs(rules: readonly LfsRule[], path: string, budget: MatchBudget): boolean {
  const parts = path.split('/')
  for (let r = rules.length - 1; r >= 0; r--) {
    const rule = rules[r]!
    const matches = rule.anchored ? matchSegments(rule.segments, parts, budget) : matchSegment(rule.segments[0]!, parts[parts.length - 1]!, budget)
    if (matches) return rule.lfs
  }
  return false
}

/**
 * Folder by folder: a `**` segment spans any number of folders (one or more when it ends the pattern: `dir/**` is
 * what is inside dir), any other segment matches one folder or name. A table over (pattern segment, path part),
 * filled from the ends without recursion; each of its cells is charged to the budget, and a name is compared only
 * where the rest of the pattern could still match.
 */
function matchSegments(segments: readonly string[], parts: readonly string[], budget: MatchBudget): boolean {
  const width = parts.length + 1
  let after = new Uint8Array(width) // the row of segment i + 1
  let row = new Uint8Array(width)
  after[parts.length] = 1 // no segments left match no parts left
  for (let i = segments.length - 1; i >= 0; i--) {
    budget.spend(width)
    const segment = segments[i]!
    const last = i === segments.length - 1
    for (let j = parts.length; j >= 0; j--) {
      if (segment === '**') row[j] = last ? (j < parts.length ? 1 : 0) : after[j] || (j < parts.length && row[j + 1]) ? 1 : 0
      else row[j] = j < parts.length && after[j + 1] && matchSegment(segment, parts[j]!, budget) ? 1 : 0
    }
    ;[after, row] = [row, after]
  }
  return after[0] === 1
}

/** One step of a segment: any run of characters, or one character that `accepts` (after `cost` comparisons at most). */
type Token = { star: true } | { star: false; accepts: (char: string) => boolean; cost: number }

/**
 * A segment's steps, as git's wildmatch reads them: `*` any run, `?` one character, `[abc]`, `[a-z]`, `[!a]` (or
 * `[^a]`) one character of a class, `\x` the character x; a `[` that is never closed is itself.
 */
function tokens(pattern: string): Token[] {
  const out: Token[] = []
  const literal = (char: string): Token => ({ star: false, accepts: (c) => c === char, cost: 1 })
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!
    if (char === '*') {
      if (!out.at(-1)?.star) out.push({ star: true })
    } else if (char === '?') out.push({ star: false, accepts: () => true, cost: 1 })
    else if (char === '\\') out.push(literal(pattern[++i] ?? '\\'))
    else if (char === '[') {
      const parsed = bracket(pattern, i)
      if (parsed) {
        out.push({ star: false, accepts: parsed.accepts, cost: parsed.cost })
        i = parsed.end
      } else out.push(literal('['))
    } else out.push(literal(char))
  }
  return out
}

/** The class that opens at `open`, and the index of its `]`; null when it is never closed. */
function bracket(pattern: string, open: number): { accepts: (char: string) => boolean; cost: number; end: number } | null {
  let i = open + 1
  const negated = pattern[i] === '!' || pattern[i] === '^'
  if (negated) i++
  const ranges: [string, string][] = []
  for (let first = true; i < pattern.length; first = false, i++) {
    let char = pattern[i]!
    if (char === ']' && !first) {
      return { accepts: (c) => ranges.some(([from, to]) => c >= from && c <= to) !== negated, cost: ranges.length, end: i }
    }
    if (char === '\\' && i + 1 < pattern.length) char = pattern[++i]!
    if (pattern[i + 1] === '-' && i + 2 < pattern.length && pattern[i + 2] !== ']') {
      let to = pattern[i + 2]!
      i += 2
      if (to === '\\' && i + 1 < pattern.length) to = pattern[++i]!
      ranges.push([char, to])
    } else ranges.push([char, char])
  }
  return null
}

/**
 * One folder's name against one segment of a pattern (see tokens; `**` inside a segment is a `*`, as in git). Greedy,
 * going back only to the last `*`: linear in practice, at most the two lengths' product, which the budget is charged.
 */
function matchSegment(pattern: string, name: string, budget: MatchBudget): boolean {
  // Most patterns are a name or `*.ext`: compared at once.
  if (!/[?[\\]/.test(pattern)) {
    const star = pattern.indexOf('*')
    if (star === -1 || (star === 0 && pattern.indexOf('*', 1) === -1)) {
      budget.spend(pattern.length)
      return star === -1 ? pattern === name : name.endsWith(pattern.slice(1))
    }
  }
  budget.spend(pattern.length)
  const steps = tokens(pattern)
  let p = 0
  let n = 0
  let star = -1
  let resume = 0
  let spent = 0
  while (n < name.length) {
    const step = steps[p]
    spent += step && !step.star ? step.cost : 1
    if (step && !step.star && step.accepts(name[n]!)) {
      p++
      n++
    } else if (step?.star) {
      star = p++
      resume = n
    } else if (star >= 0) {
      p = star + 1
      n = ++resume
    } else {
      budget.spend(spent)
      return false
    }
  }
  budget.spend(spent)
  while (steps[p]?.star) p++
  return p === steps.length
}

const LFS = 'filter=lfs diff=lfs merge=lfs -text'

const MODEL_PATTERNS = [
  '*.7z', '*.arrow', '*.bin', '*.bz2', '*.ckpt', '*.ftz', '*.gz', '*.h5', '*.joblib', '*.lfs.*', '*.mlmodel', '*.model',
  '*.msgpack', '*.npy', '*.npz', '*.onnx', '*.ot', '*.parquet', '*.pb', '*.pickle', '*.pkl', '*.pt', '*.pth', '*.rar',
  '*.safetensors', 'saved_model/**/*', '*.tar.*', '*.tar', '*.tflite', '*.tgz', '*.wasm', '*.xz', '*.zip', '*.zst', '*tfevents*',
]

/** A dataset's also keeps compressed shards and media in LFS, in sections as the Hub writes them. */
const DATASET_SECTIONS: [heading: string, patterns: string[]][] = [
  ['', ['*.lz4', '*.mds']],
  ['Audio files - uncompressed', ['*.pcm', '*.sam', '*.raw']],
  ['Audio files - compressed', ['*.aac', '*.flac', '*.mp3', '*.ogg', '*.wav']],
  ['Image files - uncompressed', ['*.bmp', '*.gif', '*.png', '*.tiff']],
  ['Image files - compressed', ['*.jpg', '*.jpeg', '*.webp']],
  ['Video files - compressed', ['*.mp4', '*.webm']],
]

export const GIT_ATTRIBUTES = '.gitattributes'

/**
 * The .gitattributes a new repo's first commit adds (the API's, the new-repository page's, the seed's): the Hub's for
 * its type, or none when the commit's own files hold one.
 */
export function firstCommitGitAttributes(type: RepoType, paths: Iterable<string>): { kind: 'file'; path: string; content: Buffer } | null {
  for (const path of paths) if (path === GIT_ATTRIBUTES) return null
  return { kind: 'file', path: GIT_ATTRIBUTES, content: Buffer.from(defaultGitAttributes(type)) }
}

/** The .gitattributes the Hub puts in a new repo's first commit: the file types it keeps in LFS. */
export function defaultGitAttributes(type: RepoType): string {
  const lines = MODEL_PATTERNS.map((pattern) => `${pattern} ${LFS}`)
  if (type === 'dataset') {
    for (const [heading, patterns] of DATASET_SECTIONS) {
      if (heading) lines.push(`# ${heading}`)
      lines.push(...patterns.map((pattern) => `${pattern} ${LFS}`))
    }
  }
  return `${lines.join('\n')}\n`
}
