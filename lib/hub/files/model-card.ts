// The model card: README.md of a revision, split into its YAML front matter (the metadata the Hub
// shows: license, tags, pipeline_tag, library_name, base_model...) and the Markdown body.
import { parseYamlSources } from './yaml-thread'
import { processState } from '@/lib/config/process-state'
import { db } from '@/lib/db'
import type { Caller } from '@/lib/policy'
import { readBlob } from '@/lib/storage'
import { HubError } from '@/lib/http/errors'
import { DEFAULT_BRANCH, entryAt, remember, repoAccess, resolveRevision, touch, type RepoRef } from './revisions'

/** The front matter as the Hub answers it in cardData: YAML's values as JSON (strings, numbers, lists, maps). */
export type CardMetadata = Record<string, unknown>
export type ModelCard = { metadata: CardMetadata; body: string } | null

const MAX_CARD_BYTES = 512 * 1024

/**
 * README.md's front matter (YAML between `---` lines at the top, after an optional byte-order mark)
 * and the Markdown after it. Front matter that is not a YAML map counts as none, as the Hub shows
 * such a card without metadata; a top-level entry YAML cannot read (a syntax error, a duplicate
 * key's neighbour is kept), or one too large or too deeply nested to read, is left out and the
 * others kept. Read on a worker thread with a time limit (yaml-thread.ts).
 */
export async function parseFrontMatter(text: string): Promise<{ metadata: CardMetadata; body: string }> {
  const { yaml, body } = splitFrontMatter(text)
  return { metadata: yaml === null ? {} : await frontMatterMap(yaml), body }
}

/** The front matter's text (null without one) and the Markdown after it; the closing `---` is a line of its own. */
export function splitFrontMatter(text: string): { yaml: string | null; body: string } {
  const unmarked = text.startsWith('\uFEFF') ? text.slice(1) : text
  const match = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(unmarked)
  if (!match) return { yaml: null, body: unmarked }
  return { yaml: match[1] ?? '', body: unmarked.slice(match[0].length) }
}

/**
 * Bounds on what YAML is asked to read, beside the thread's time limit: cards' front matter is a few
 * KB (a long model-index tens), entries a few hundred bytes, nesting a handful of levels.
 */
const MAX_FRONT_MATTER_CHARS = 64 * 1024
const MAX_ENTRY_CHARS = 4 * 1024
/** Top-level keys read (cards have tens). */
const MAX_ENTRIES = 500
/** Collections nested deeper than any card's (`[[[`, `- - -`, indentation): YAML's parser recurses on each. */
const MAX_NESTING = 32

async function frontMatterMap(source: string): Promise<CardMetadata> {
  if (source.length > MAX_FRONT_MATTER_CHARS) return {}
  // The whole front matter first (its anchors and aliases may span entries); where YAML cannot read
  // it whole, entry by entry, so that one bad line does not take the card's other metadata with it.
  if (source.length <= MAX_ENTRY_CHARS && readableEntry(source)) {
    const [whole] = await parseYamlSources([source])
    if (whole) return isMap(whole.value) ? ownEntries(whole.value) : {}
  }
  const entries = topLevelEntries(source).slice(0, MAX_ENTRIES).filter(readableEntry)
  const metadata: CardMetadata = {}
  for (const parsed of await parseYamlSources(entries)) {
    if (!parsed) continue
    // A document that is a list or a scalar, not a map, has no metadata at all.
    if (!isMap(parsed.value)) return {}
    Object.assign(metadata, ownEntries(parsed.value))
  }
  return metadata
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The map's own keys as plain properties: a `__proto__` key is data in a card, never an object's prototype. */
function ownEntries(map: Record<string, unknown>): CardMetadata {
  const metadata: CardMetadata = {}
  for (const key of Object.keys(map)) {
    if (key === '__proto__') continue
    metadata[key] = map[key]
  }
  return metadata
}

/** The top-level entries of a YAML map: each from a line at the margin to the next (comments and blank lines go with the entry before). */
function topLevelEntries(source: string): string[] {
  const entries: string[] = []
  let current: string[] = []
  for (const line of source.split(/\r?\n/)) {
    // "- item" at the margin continues a key's list ("tags:\n- a"); "#" and blank lines open nothing.
    const opens = /^[^\s#-]/.test(line) || /^-[^\s-]/.test(line)
    if (opens && current.length > 0) {
      entries.push(current.join('\n'))
      current = []
    }
    if (opens || current.length > 0) current.push(line)
  }
  if (current.length > 0) entries.push(current.join('\n'))
  return entries
}

/** Small enough and shallow enough for YAML's parser (nesting counted without reading quotes, so brackets inside strings count). */
function readableEntry(entry: string): boolean {
  if (entry.length > MAX_ENTRY_CHARS) return false
  let depth = 0
  for (let i = 0; i < entry.length; i++) {
    const c = entry.charCodeAt(i)
    if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_NESTING) return false
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--
  }
  return entry.split('\n').every((line) => {
    const indent = /^[ \t-]*/.exec(line)![0]
    return indent.length <= MAX_NESTING * 4 && (indent.match(/-/g)?.length ?? 0) <= MAX_NESTING
  })
}

async function readText(blobSha256: string): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of await readBlob(blobSha256)) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** README.md at a revision, readable also in gated repos; null when there is none. */
export async function readModelCard(caller: Caller, ref: RepoRef, revision: string): Promise<ModelCard> {
  const { repo } = await repoAccess(caller, ref, 'view')
  const commit = await resolveRevision(repo.id, revision)
  const entry = await entryAt(commit?.id, 'README.md')
  if (!entry) return null
  if (Number(entry.size) > MAX_CARD_BYTES) throw new HubError(422, 'The model card is too large to show')
  return parseFrontMatter(await readText(entry.blobSha256))
}

// A commit never changes, so neither does its card: a process reads each commit's README once
// (repo info and listings show its metadata on every call). Bounded like lib/hub/files/revisions'
// commit cache.
const CARDS = 2000
/** READMEs a listing reads from the store at once. */
const CARD_READS_AT_ONCE = 8
const cards = processState('cardMetadata', () => new Map<string, Readonly<CardMetadata>>())

/**
 * The metadata of README.md in a commit (what the Hub answers as cardData, and derives pipeline_tag,
 * library_name and tags from); {} without a commit, a README, or front matter. A README over the
 * size limit, or whose bytes the store cannot give, counts as none.
 */
export async function cardMetadataAt(commitId: string | null | undefined): Promise<Readonly<CardMetadata>> {
  if (!commitId) return {}
  const cached = touch(cards, commitId)
  if (cached) return cached
  const entry = await entryAt(commitId, 'README.md')
  let metadata: CardMetadata = {}
  if (entry && Number(entry.size) <= MAX_CARD_BYTES) {
    try {
      metadata = (await parseFrontMatter(await readText(entry.blobSha256))).metadata
    } catch (error) {
      console.error(`README.md of commit ${commitId} could not be read:`, error)
      return {}
    }
  }
  remember(cards, commitId, Object.freeze(metadata), CARDS)
  return metadata
}

/** Each repo's card metadata on its default branch, for listings (one statement for the branches). */
export async function defaultBranchCards(repoIds: string[]): Promise<Map<string, Readonly<CardMetadata>>> {
  const refs = await db.repoRef.findMany({ where: { repoId: { in: repoIds }, name: DEFAULT_BRANCH }, select: { repoId: true, commitId: true } })
  const heads = new Map(refs.map((r) => [r.repoId, r.commitId]))
  const found = new Map<string, Readonly<CardMetadata>>()
  // A first listing reads each README from the store (a round trip each on S3): a few at a time, not a thousand at
  // once nor one after another. Cached cards answer at once.
  let next = 0
  const reader = async () => {
    while (next < repoIds.length) {
      const id = repoIds[next++]!
      found.set(id, await cardMetadataAt(heads.get(id)))
    }
  }
  await Promise.all(Array.from({ length: Math.min(CARD_READS_AT_ONCE, repoIds.length) }, reader))
  return new Map(repoIds.map((id) => [id, found.get(id)!]))
}
