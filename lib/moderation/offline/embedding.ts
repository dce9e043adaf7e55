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
function idsOf(vocabulary: EmbeddingVocabulary): Map<string, number> {
  let ids = index.get(vocabulary)
  if (!ids) {
    ids = new Map(vocabulary.words.map((w, i) => [w, i + 1]))
    index.set(vocabulary, ids)
  }
  return ids
}

/** A word outside the vocabulary is looked up by its base form: "reuploaded" as "reupload". */
function baseForm(word: string, ids: Map<string, number>): string {
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

/** 1 when the text negates something, else 0: the graph's polarity dimension (see train-embedding.ts). */
export function negated(text: string): number {
  return embeddingWords(text.slice(0, EMBEDDING_MAX_CHARS)).some((w) => NEGATION.test(w)) ? 1 : 0
}

const IRREGULAR_NEGATIONS: Record<string, string> = { can: 'can', ca: 'can', wo: 'will', sha: 'shall', ai: 'is' }

/**
 * The vocabulary's words as GloVe's tokenizer split them: "don't" is "do not", "she's" is "she" (the clitic's vector
 * is not in the vocabulary), so a contraction and its spelled-out form embed alike.
 */
function uncontracted(word: string): string[] {
  const negation = /^(.+?)n['’]t$/u.exec(word)
  if (negation) return [IRREGULAR_NEGATIONS[negation[1]] ?? negation[1], 'not']
  const clitic = /^(.+?)['’](?:s|re|ve|ll|d|m)$/u.exec(word)
  return [clitic ? clitic[1] : word]
}

const int64 = (values: number[]) => ({ type: 'int64' as const, data: BigInt64Array.from(values, BigInt), dims: [values.length] })

/**
 * Inputs of the graph: vocabulary ids of known words, character n-gram buckets of unknown
 * words (each n-gram weighted by 1/number of n-grams of its word), and the text's trigram
 * buckets. Every list ends with a sentinel whose contribution is zero.
 */
export function embeddingFeeds(text: string, vocabulary: EmbeddingVocabulary): Feeds {
  const head = text.slice(0, EMBEDDING_MAX_CHARS)
  const ids = idsOf(vocabulary)
  const known: number[] = []
  const unknownGrams: number[] = []
  const unknownWeights: number[] = []
  for (const word of embeddingWords(head).flatMap(uncontracted)) {
    const id = ids.get(word) ?? ids.get(baseForm(word, ids))
    if (id !== undefined) {
      known.push(id)
      continue
    }
    const grams = subwords(word)
    for (const gram of grams) {
      unknownGrams.push(subwordBucket(gram))
      unknownWeights.push(1 / grams.length)
    }
  }
  const trigrams = lexicalTrigrams(head).map(lexicalBucket)
  return {
    word_ids: int64([...known, 0]),
    subword_ids: int64([...unknownGrams, 0]),
    subword_weights: { type: 'float32', data: Float32Array.from([...unknownWeights, 0]), dims: [unknownWeights.length + 1] },
    trigram_ids: int64([...trigrams, 0]),
    trigram_weights: { type: 'float32', data: Float32Array.from([...trigrams.map(() => 1), 0]), dims: [trigrams.length + 1] },
    negated: { type: 'float32', data: Float32Array.from([negated(head)]), dims: [1] },
  }
}

export async function embedText(run: GraphRunner, text: string, vocabulary: EmbeddingVocabulary): Promise<number[]> {
  const { embedding } = await run(EMBEDDING_GRAPH, embeddingFeeds(text, vocabulary))
  return Array.from(embedding)
}

