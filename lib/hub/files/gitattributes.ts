// .gitattributes: which paths a repo keeps in LFS, and the file a new repo starts with.
//
// Patterns are matched as git matches them (a pattern without "/" matches a file's name in any folder, one with "/"
// is anchored at the root; `*` and `?` stay within a folder; a whole `**` segment spans folders), without regular
// expressions: a pattern such as `*a*a*a*a*a*b` compiled to one backtracks for seconds on a path of `a`s (an attack
// review held the server 25 s with one request). Here a match costs at most its pattern's length times its path's,
// and a request's matching is capped by a MatchBudget.

import type { RepoType } from '@/lib/hub/names'

/** A `filter=lfs` pattern, split into its folders' parts. */
export type LfsRule = { segments: string[]; anchored: boolean }

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

/** The `filter=lfs` patterns of a .gitattributes text, in order. */
export function lfsRules(gitAttributes: string): LfsRule[] {
  const rules: LfsRule[] = []
  for (const line of gitAttributes.split('\n')) {
    const [pattern, ...attrs] = line.trim().split(/\s+/)
    if (!pattern || pattern.startsWith('#') || !attrs.includes('filter=lfs')) continue
    const anchored = pattern.includes('/')
    rules.push({ segments: pattern.replace(/^\//, '').split('/'), anchored })
  }
  return rules
}

/** Whether some rule routes `path` (a file's path in the repo) to LFS. */
export function routedToLfs(rules: readonly LfsRule[], path: string, budget: MatchBudget): boolean {
  const parts = path.split('/')
  return rules.some((rule) => (rule.anchored ? matchSegments(rule.segments, parts, budget) : matchSegment(rule.segments[0]!, parts[parts.length - 1]!, budget)))
}

/**
 * Folder by folder: a `**` segment spans any number of folders (one or more when it ends the pattern: `dir/**` is
 * what is inside dir), any other segment matches one folder or name. Memoised on (pattern segment, path part), so
 * the cost is the sum of the segment matches, at most the pattern's length times the path's.
 */
function matchSegments(segments: readonly string[], parts: readonly string[], budget: MatchBudget): boolean {
  const known = new Map<number, boolean>()
  const match = (i: number, j: number): boolean => {
    if (i === segments.length) return j === parts.length
    const key = i * (parts.length + 1) + j
    const seen = known.get(key)
    if (seen !== undefined) return seen
    let result: boolean
    if (segments[i] === '**') {
      const last = i === segments.length - 1
      result = last ? j < parts.length : match(i + 1, j) || (j < parts.length && match(i, j + 1))
    } else {
      result = j < parts.length && matchSegment(segments[i]!, parts[j]!, budget) && match(i + 1, j + 1)
    }
    known.set(key, result)
    return result
  }
  return match(0, 0)
}

/**
 * One folder's name against one segment of a pattern (`*` any run, `?` one character, anything else itself; `**`
 * inside a segment is a `*`, as in git). Greedy, going back only to the last `*`: linear in practice, at most the
 * two lengths' product, which the budget is charged.
 */
function matchSegment(pattern: string, name: string, budget: MatchBudget): boolean {
  // Most patterns are a name or `*.ext`: compared at once.
  if (!pattern.includes('?')) {
    const star = pattern.indexOf('*')
    if (star === -1 || (star === 0 && pattern.indexOf('*', 1) === -1)) {
      budget.spend(pattern.length)
      return star === -1 ? pattern === name : name.endsWith(pattern.slice(1))
    }
  }
  let p = 0
  let n = 0
  let star = -1
  let resume = 0
  let steps = 0
  while (n < name.length) {
    steps++
    if (p < pattern.length && (pattern[p] === '?' || (pattern[p] !== '*' && pattern[p] === name[n]))) {
      p++
      n++
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++
      resume = n
    } else if (star >= 0) {
      p = star + 1
      n = ++resume
    } else {
      budget.spend(steps)
      return false
    }
  }
  budget.spend(steps)
  while (p < pattern.length && pattern[p] === '*') p++
  return p === pattern.length
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
