// The model card: README.md of a revision, split into its YAML front matter (the metadata the Hub
// shows: license, tags, pipeline_tag, library_name, base_model...) and the Markdown body.
import type { Caller } from '@/lib/policy'
import { readBlob } from '@/lib/storage'
import { HubError } from '@/lib/http/errors'
import { entryAt, repoAccess, resolveRevision, type RepoRef } from './revisions'

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

/** README.md at a revision, readable also in gated repos; null when there is none. */
export async function readModelCard(caller: Caller, ref: RepoRef, revision: string): Promise<ModelCard> {
  const { repo } = await repoAccess(caller, ref, 'view')
  const commit = await resolveRevision(repo.id, revision)
  const entry = await entryAt(commit?.id, 'README.md')
  if (!entry) return null
  if (Number(entry.size) > MAX_CARD_BYTES) throw new HubError(422, 'The model card is too large to show')
  const chunks: Buffer[] = []
  for await (const chunk of await readBlob(entry.blobSha256)) chunks.push(chunk as Buffer)
  return parseFrontMatter(Buffer.concat(chunks).toString('utf8'))
}
