// The model card: README.md of a revision, split into its YAML front matter (the metadata the Hub
// shows: license, tags, pipeline_tag, library_name, base_model...) and the Markdown body.
import YAML from 'yaml'
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
 * such a card without metadata; a top-level entry YAML cannot read, or one too large or too deeply
 * nested to read safely (readableEntry), is left out and the others kept.
 */
export function parseFrontMatter(text: string): { metadata: CardMetadata; body: string } {
  const unmarked = text.startsWith('\uFEFF') ? text.slice(1) : text
  const match = /^---\r?\n([\s\S]*?)\r?\n?---(?:\r?\n|$)/.exec(unmarked)
  if (!match) return { metadata: {}, body: unmarked }
  return { metadata: frontMatterMap(match[1]!), body: unmarked.slice(match[0].length) }
}

/**
 * YAML's parser is far from linear on hostile text (measured: half a megabyte of "[" ended the
 * process out of memory, 64 KB of "[a][a]…" took 4 s, 250 KB of "&a " 31 s), and a card is read on
 * a request. So the map is read one top-level entry at a time (a line that starts at the margin
 * opens the next), each of at most MAX_ENTRY_CHARS: the slowest shape found then costs about 16 ms
 * an entry, at most MAX_FRONT_MATTER_CHARS of them; cardMetadataAt keeps the result per commit.
 * Cards' entries are a few hundred bytes; a long model-index may exceed the bound and is left out.
 */
const MAX_FRONT_MATTER_CHARS = 64 * 1024
const MAX_ENTRY_CHARS = 4 * 1024
/** Top-level keys read (cards have tens; each read has a fixed cost of some 25 µs). */
const MAX_ENTRIES = 500
/** Collections nested deeper than any card's (`[[[`, `- - -`, indentation): YAML's parser recurses on each. */
const MAX_NESTING = 32

function frontMatterMap(source: string): CardMetadata {
  if (source.length > MAX_FRONT_MATTER_CHARS) return {}
  const metadata: CardMetadata = {}
  // A card's whole front matter is usually one small read (its anchors and aliases may then span entries).
  const entries = source.length <= MAX_ENTRY_CHARS && readableEntry(source) ? [source] : topLevelEntries(source)
  for (const entry of entries.slice(0, MAX_ENTRIES)) {
    if (!readableEntry(entry)) continue
    let parsed: unknown
    try {
      // The core schema: YAML 1.2's types only (no dates, no !!binary), so every value is JSON's.
      parsed = YAML.parse(entry, { schema: 'core', maxAliasCount: 100, logLevel: 'error' })
    } catch {
      continue
    }
    // A document that is a list or a scalar, not a map, has no metadata at all.
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
    Object.assign(metadata, parsed)
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
      metadata = parseFrontMatter(await readText(entry.blobSha256)).metadata
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
