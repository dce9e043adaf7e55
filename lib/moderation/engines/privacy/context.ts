import { firstIndexPast } from './pattern'
import type { Finding } from './recognizers'

/**
 * Presidio's LemmaContextAwareEnhancer with its defaults: when one of a recogniser's context
 * words occurs in the five words before a finding (as a substring of a lower-cased word, the
 * way Presidio compares), the score rises by 0.35 to at least 0.4, at most 1.0. A context word of
 * three letters or fewer must be the whole word (or its plural, or the word with "#"): as a
 * substring "sin" is in "since", "tin" in "getting", "tel" in "hotel" and "ip" in "ship".
 */
const CONTEXT_WORDS_BEFORE = 5
const CONTEXT_SIMILARITY_FACTOR = 0.35
const MIN_SCORE_WITH_CONTEXT = 0.4

export type Word = { end: number; lower: string }

export function wordsOf(text: string): Word[] {
  return [...text.matchAll(/[\p{L}\p{M}\p{N}_#]+/gu)].map((m) => ({ end: m.index + m[0].length, lower: m[0].toLowerCase() }))
}

const SHORT_CONTEXT_WORD = 3

function supports(word: string, contextWord: string): boolean {
  if (contextWord.length > SHORT_CONTEXT_WORD) return word.includes(contextWord)
  return word === contextWord || word === `${contextWord}s` || word === `${contextWord}#`
}

/** Whether one of `context` occurs in the five words before `finding` (as a substring of a lower-cased word). */
export function contextSupports(finding: Finding, words: Word[], context: readonly string[]): boolean {
  return contextNear(finding.begin, finding.begin, words, context)
}

/**
 * Whether one of `context` occurs in a word that could be among the five before something starting anywhere in
 * [begin, end]: the five words before `begin` and every word that ends after it and by `end`.
 */
export function contextNear(begin: number, end: number, words: Word[], context: readonly string[]): boolean {
  // The words are in text order: those ending by `begin` come first.
  const low = firstIndexPast(words, (word) => word.end > begin)
  const high = firstIndexPast(words, (word) => word.end > end)
  const near = words.slice(Math.max(0, low - CONTEXT_WORDS_BEFORE), high)
  return context.some((contextWord) => near.some((word) => supports(word.lower, contextWord)))
}

export function enhanceWithContext(finding: Finding, words: Word[], context: readonly string[]): Finding {
  if (context.length === 0 || !contextSupports(finding, words, context)) return finding
  const score = Math.min(1, Math.max(finding.score + CONTEXT_SIMILARITY_FACTOR, MIN_SCORE_WITH_CONTEXT))
  return { ...finding, score }
}
