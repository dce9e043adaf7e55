import { fnv1a } from './hashing'
import type { Feeds, GraphRunner } from './graph-io'

/**
 * Sentence embeddings that need no downloaded model: GloVe 6B word vectors (50,000 words, reduced
 * to 64 dimensions), retrofitted to WordNet's synonyms and hypernyms and mixed with the vectors of
 * each word's WordNet definitions, averaged with SIF weights (rare words count more), with the
 * common direction of sentences removed; words outside the vocabulary get the mean vector of their
 * character n-grams (fastText-style). A second, lexical part hashes the text's character
 * trigrams, so copies and light edits of a text stay close. Both parts are unit length and
 * concatenated with fixed weights inside `embedding.onnx`, followed by one polarity dimension (+c
 * when the text negates something, -c when not), so that a sentence and its negation are less
 * alike than their words. How it is trained: scripts/train-offline/train-embedding.ts.
 *
 * These vectors are NOT multi-qa-mpnet-base-dot-v1 embeddings: they have another size and
 * geometry, and must not be compared with vectors stored from mpnet (the answer's `engine`
 * says which model made them).
 */
/** The offline engine's model name (answers say `offline:<name>`): SIF over GloVe vectors fitted to WordNet, character n-grams for unknown words. */
export const EMBEDDING_ENGINE = 'sif-glove-wordnet+char-ngrams'
export const EMBEDDING_GRAPH = 'embedding.onnx'
export const EMBEDDING_VOCABULARY = 'embedding.vocabulary.json'
export const SUBWORD_BITS = 12
export const LEXICAL_BITS = 11
export const SUBWORD_MIN = 3
export const SUBWORD_MAX = 5
/** Cosine at or above which two texts count as similar in the evaluation (the API returns the cosine alone). */
export const SIMILARITY_THRESHOLD = 0.5
/** Longer texts are embedded from their beginning. */
export const EMBEDDING_MAX_CHARS = 4000

/** Vocabulary words in id order; id 0 is the empty sentinel, so word i has id i + 1. */
export type EmbeddingVocabulary = { words: string[] }

export function embeddingWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? []
}

export function subwords(word: string): string[] {
  const padded = `<${word}>`
  const grams: string[] = []
  for (let n = SUBWORD_MIN; n <= SUBWORD_MAX; n++) for (let i = 0; i + n <= padded.length; i++) grams.push(padded.slice(i, i + n))
  return grams
}

export function subwordBucket(gram: string): number {
  return fnv1a(gram) % 2 ** SUBWORD_BITS
}

/** Character trigram of the whole text -> its row of the graph's random ±1 projection. */
export function lexicalBucket(trigram: string): number {
  return fnv1a(`t:${trigram}`) % 2 ** LEXICAL_BITS
}

export function lexicalTrigrams(text: string): string[] {
  const padded = ` ${text.toLowerCase().replace(/\s+/g, ' ').trim()} `
  const grams: string[] = []
  for (let i = 0; i + 3 <= padded.length; i++) grams.push(padded.slice(i, i + 3))
  return grams
}

const index = new WeakMap<EmbeddingVocabulary, Map<string, number>>()
/** Each vocabulary word's id, which is also its frequency rank in GloVe's order (1: the most frequent). */
export function vocabularyIds(vocabulary: EmbeddingVocabulary): ReadonlyMap<string, number> {
  let ids = index.get(vocabulary)
  if (!ids) {
    ids = new Map(vocabulary.words.map((w, i) => [w, i + 1]))
    index.set(vocabulary, ids)
  }
  return ids
}

/** A word outside the vocabulary is looked up by its base form: "reuploaded" as "reupload". */
function baseForm(word: string, ids: ReadonlyMap<string, number>): string {
  const candidates = [
    word.replace(/ies$/, 'y'),
    word.replace(/es$/, ''),
    word.replace(/s$/, ''),
    word.replace(/ied$/, 'y'),
    word.replace(/ed$/, ''),
    word.replace(/d$/, ''),
    word.replace(/ing$/, ''),
    word.replace(/ing$/, 'e'),
  ]
  return candidates.find((c) => c !== word && ids.has(c)) ?? word
}

/** Words that negate what a sentence says ("I do not like cats" is not "I like cats"). */
const NEGATION = /^(?:not|no|never|nobody|nothing|none|neither|nor|nowhere|without|cannot|.+n['’]t)$/u

export function isNegation(word: string): boolean {
  return NEGATION.test(word)
}

/** 1 when the text negates something, else 0: the graph's polarity dimension (see train-embedding.ts). */
export function negated(text: string): number {
  return embeddingWords(text.slice(0, EMBEDDING_MAX_CHARS)).some((w) => NEGATION.test(w)) ? 1 : 0
}

const IRREGULAR_NEGATIONS: Record<string, string> = { can: 'can', ca: 'can', wo: 'will', sha: 'shall', ai: 'is' }

/**
 * The vocabulary's words as GloVe's tokenizer split them: "don't" is "do not", "she's" is "she" (the clitic's vector
 * is not in the vocabulary), so a contraction and its spelled-out form embed alike.
 */
export function uncontracted(word: string): string[] {
  const negation = /^(.+?)n['’]t$/u.exec(word)
  if (negation) return [IRREGULAR_NEGATIONS[negation[1]] ?? negation[1], 'not']
  const clitic = /^(.+?)['’](?:s|re|ve|ll|d|m)$/u.exec(word)
  return [clitic ? clitic[1] : word]
}

const int64 = (values: number[]) => ({ type: 'int64' as const, data: BigInt64Array.from(values, BigInt), dims: [values.length] })
const float32 = (values: number[]) => ({ type: 'float32' as const, data: Float32Array.from(values), dims: [values.length] })

/** One text's entries of the graph's lists. */
type TextParts = { known: number[]; unknownGrams: number[]; unknownWeights: number[]; trigrams: number[]; negated: number }

function textParts(text: string, ids: ReadonlyMap<string, number>): TextParts {
  const head = text.slice(0, EMBEDDING_MAX_CHARS)
  const parts: TextParts = { known: [], unknownGrams: [], unknownWeights: [], trigrams: lexicalTrigrams(head).map(lexicalBucket), negated: negated(head) }
  for (const word of embeddingWords(head).flatMap(uncontracted)) {
    const id = ids.get(word) ?? ids.get(baseForm(word, ids))
    if (id !== undefined) {
      parts.known.push(id)
      continue
    }
    const grams = subwords(word)
    for (const gram of grams) {
      parts.unknownGrams.push(subwordBucket(gram))
      parts.unknownWeights.push(1 / grams.length)
    }
  }
  return parts
}

/**
 * Inputs of the graph for a batch of texts: vocabulary ids of known words, character n-gram buckets of unknown
 * words (each n-gram weighted by 1/number of n-grams of its word), and the texts' trigram buckets, each list with the
 * text each entry belongs to. Every list ends with a sentinel whose contribution is zero.
 */
function batchFeeds(batch: TextParts[]): Feeds {
  const lists = { known: [] as number[], knownTexts: [] as number[], grams: [] as number[], gramWeights: [] as number[], gramTexts: [] as number[], trigrams: [] as number[], trigramTexts: [] as number[] }
  batch.forEach((parts, t) => {
    for (const id of parts.known) lists.known.push(id), lists.knownTexts.push(t)
    parts.unknownGrams.forEach((gram, i) => {
      lists.grams.push(gram)
      lists.gramWeights.push(parts.unknownWeights[i]!)
      lists.gramTexts.push(t)
    })
    for (const trigram of parts.trigrams) lists.trigrams.push(trigram), lists.trigramTexts.push(t)
  })
  return {
    word_ids: int64([...lists.known, 0]),
    word_texts: int64([...lists.knownTexts, 0]),
    subword_ids: int64([...lists.grams, 0]),
    subword_weights: float32([...lists.gramWeights, 0]),
    subword_texts: int64([...lists.gramTexts, 0]),
    trigram_ids: int64([...lists.trigrams, 0]),
    trigram_weights: float32([...lists.trigrams.map(() => 1), 0]),
    trigram_texts: int64([...lists.trigramTexts, 0]),
    negated: float32(batch.map((parts) => parts.negated)),
  }
}

/** The graph's inputs for `texts`, embedded together in one run. */
export function embeddingFeeds(texts: string[], vocabulary: EmbeddingVocabulary): Feeds {
  const ids = vocabularyIds(vocabulary)
  return batchFeeds(texts.map((text) => textParts(text, ids)))
}

/**
 * The graph sums each text's entries through a (texts x entries) matrix; a batch keeps that matrix to about a million
 * cells (4 MB), so a list of long texts is embedded in several runs. One text is always one run.
 */
const BATCH_CELLS = 2 ** 20

function batches(parts: TextParts[]): TextParts[][] {
  const out: TextParts[][] = []
  let current: TextParts[] = []
  let entries = 0
  for (const text of parts) {
    const own = text.known.length + text.unknownGrams.length + text.trigrams.length + 1
    if (current.length > 0 && (entries + own) * (current.length + 1) > BATCH_CELLS) {
      out.push(current)
      current = []
      entries = 0
    }
    current.push(text)
    entries += own
  }
  if (current.length > 0) out.push(current)
  return out
}

/** One vector per text, in order; texts are embedded together, a few runs of the graph for a long list. */
export async function embedTexts(run: GraphRunner, texts: string[], vocabulary: EmbeddingVocabulary): Promise<number[][]> {
  const ids = vocabularyIds(vocabulary)
  const vectors: number[][] = []
  for (const batch of batches(texts.map((text) => textParts(text, ids)))) {
    const { embedding } = await run(EMBEDDING_GRAPH, batchFeeds(batch))
    const width = embedding.length / batch.length
    for (let t = 0; t < batch.length; t++) vectors.push(Array.from(embedding.subarray(t * width, (t + 1) * width)))
  }
  return vectors
}

export async function embedText(run: GraphRunner, text: string, vocabulary: EmbeddingVocabulary): Promise<number[]> {
  return (await embedTexts(run, [text], vocabulary))[0]!
}
