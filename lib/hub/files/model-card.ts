// The model card: README.md of a revision, split into its YAML front matter (the metadata the Hub
// shows: license, tags, pipeline_tag, library_name, base_model...) and the Markdown body.
import { processState } from '@/lib/config/process-state'
import { db } from '@/lib/db'
import type { Caller } from '@/lib/policy'
import { readBlob } from '@/lib/storage'
import { HubError } from '@/lib/http/errors'
import { DEFAULT_BRANCH, entryAt, remember, repoAccess, resolveRevision, touch, type RepoRef } from './revisions'

export type CardMetadata = Record<string, string | string[]>
export type ModelCard = { metadata: CardMetadata; body: string } | null

const MAX_CARD_BYTES = 512 * 1024

/**
 * The front matter as flat key → string or list of strings. It reads the subset model cards use
 * (`key: value`, `key: [a, b]`, and `key:` followed by `- item` lines); nested maps are skipped.
 */
export function parseFrontMatter(text: string): { metadata: CardMetadata; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text)
  if (!match) return { metadata: {}, body: text }
  const metadata: CardMetadata = {}
  let listKey: string | null = null
  const unquote = (v: string) => v.trim().replace(/^(['"])(.*)\1$/, '$2')
  for (const line of match[1]!.split(/\r?\n/)) {
    const item = /^\s*-\s+(.*)$/.exec(line)
    if (item && listKey) {
      const list = metadata[listKey]
      if (Array.isArray(list)) list.push(unquote(item[1]!))
      continue
    }
    const pair = /^([A-Za-z0-9_.-]+):\s*(.*)$/.exec(line)
    if (!pair) {
      if (!/^\s/.test(line)) listKey = null
      continue
    }
    const [, key, raw] = pair
    const value = raw!.trim()
    if (value === '') {
      metadata[key!] = []
      listKey = key!
    } else if (value.startsWith('[') && value.endsWith(']')) {
      metadata[key!] = value.slice(1, -1).split(',').map(unquote).filter(Boolean)
      listKey = null
    } else {
      metadata[key!] = unquote(value)
      listKey = null
    }
  }
  // Keys that only opened a nested map (no list items) carry nothing to show.
  for (const [k, v] of Object.entries(metadata)) if (Array.isArray(v) && v.length === 0) delete metadata[k]
  return { metadata, body: text.slice(match[0].length) }
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
