import { embedText, embeddingWords, type EmbeddingVocabulary } from './embedding'
import { cosineSimilarity } from '@/lib/moderation/vectors'
import type { GraphRunner } from './graph-io'

/**
 * Restricted topics for any label list, without an NLI model: each label is expanded into
 * weighted terms (for the labels in `topic.expansions.json`, WordNet synonyms, hyponyms, topic
 * domain members, related forms and gloss words, plus a seed list for the two default labels;
 * for any other label, its own words) and described by a prototype text. Per label, the text's
 * best and total term matches, the cosine between the text's and the prototype's offline
 * embeddings, and the same cosine for the text without its matched terms (which sense a term is
 * used in: "an explosive temper" is not about explosives) go through a calibrated logistic layer
 * in `topic.onnx`; labels are scored independently (multi-label), in [0, 1].
 */
export const TOPIC_GRAPH = 'topic.onnx'
export const TOPIC_EXPANSIONS = 'topic.expansions.json'
export const TOPIC_THRESHOLD = 0.5
export const DEFAULT_TOPIC_LABELS = ['Terrorism', 'Explosives'] as const
/** Longest term (in words) the matcher looks for. */
export const TOPIC_MAX_TERM_WORDS = 3

export type TopicExpansion = { prototype: string; terms: Record<string, number> }
/** Expansions by normalised label (see `labelKey`). */
export type TopicExpansions = Record<string, TopicExpansion>

export const TOPIC_FEATURES = ['best term weight', 'log total term weight', 'prototype cosine', 'expanded label', 'log word count', 'context cosine'] as const

/** "Explosives", "explosive" and " EXPLOSIVES " share one expansion. */
export function labelKey(label: string): string {
  return embeddingWords(label)
    .map((w) => singular(w))
    .join(' ')
}

/** Plural to singular for matching terms against text ("bombs" finds "bomb"). */
export function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.length > 4 && /(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2)
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1)
  return word
}

/** The text's words (singular) and their 1..TOPIC_MAX_TERM_WORDS-word runs, the keys terms are matched by. */
export function topicKeys(text: string): Set<string> {
  const words = embeddingWords(text).map(singular)
  const keys = new Set<string>()
  for (let n = 1; n <= TOPIC_MAX_TERM_WORDS; n++) for (let i = 0; i + n <= words.length; i++) keys.add(words.slice(i, i + n).join(' '))
  return keys
}

/** The expansion of a label: the shipped one, or the label's own words. */
export function expansionOf(label: string, expansions: TopicExpansions): { expansion: TopicExpansion; expanded: boolean } {
  const key = labelKey(label)
  if (Object.hasOwn(expansions, key)) return { expansion: expansions[key], expanded: true }
  // No prototype: labels such as "constructor" or "__proto__" are ordinary words here.
  const terms: Record<string, number> = Object.create(null)
  if (key) terms[key] = 1
  for (const word of key.split(' ')) if (word.length > 3) terms[word] = Math.max(terms[word] ?? 0, 0.6)
  return { expansion: { prototype: label, terms }, expanded: false }
}

export function termFeatures(keys: Set<string>, terms: Record<string, number>): { best: number; total: number; matched: string[] } {
  let best = 0
  let total = 0
  const matched: string[] = []
  for (const key of keys) {
    if (!Object.hasOwn(terms, key)) continue
    best = Math.max(best, terms[key])
    total += terms[key]
    matched.push(key)
  }
  return { best, total, matched }
}

/**
 * The text without the words of the label's matched terms: what the rest of the sentence is about. "Sales had an
 * explosive quarter" keeps "sales had an quarter", far from the Explosives prototype; "pack nails around the
 * charge for shrapnel" keeps words that are still near it. A term alone says a word was used, its context which sense.
 */
export function contextOf(text: string, matched: string[]): string {
  if (!matched.length) return text
  const removed = new Set(matched.flatMap((m) => m.split(' ')))
  return embeddingWords(text)
    .filter((w) => !removed.has(singular(w)))
    .join(' ')
}

/** What scoring a text against labels reads: the graphs, the expansions and vocabulary, and the labels' prototype embeddings (cached by the caller). */
export type TopicModel = {
  run: GraphRunner
  expansions: TopicExpansions
  vocabulary: EmbeddingVocabulary
  prototypeEmbedding: (prototype: string) => Promise<number[]>
}

/** Feature rows (label x TOPIC_FEATURES), in label order. */
export async function topicFeatureRows({ run, expansions, vocabulary, prototypeEmbedding }: TopicModel, text: string, labels: string[]): Promise<number[][]> {
  const keys = topicKeys(text)
  const textEmbedding = await embedText(run, text, vocabulary)
  const wordCount = embeddingWords(text).length
  const rows: number[][] = []
  for (const label of labels) {
    const { expansion, expanded } = expansionOf(label, expansions)
    const { best, total, matched } = termFeatures(keys, expansion.terms)
    const prototype = await prototypeEmbedding(expansion.prototype)
    const similarity = cosineSimilarity(textEmbedding, prototype)
    const context = matched.length ? cosineSimilarity(await embedText(run, contextOf(text, matched), vocabulary), prototype) : similarity
    rows.push([best, Math.log1p(total), similarity, expanded ? 1 : 0, Math.log1p(wordCount) / 4, context])
  }
  return rows
}

/** One independent score in [0, 1] per label, in request order. */
export async function scoreTopics(model: TopicModel, text: string, labels: string[]): Promise<number[]> {
  const rows = await topicFeatureRows(model, text, labels)
  const { scores } = await model.run(TOPIC_GRAPH, {
    label_features: { type: 'float32', data: Float32Array.from(rows.flat()), dims: [rows.length, TOPIC_FEATURES.length] },
  })
  return Array.from(scores)
}
