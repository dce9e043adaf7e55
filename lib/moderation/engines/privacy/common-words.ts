import COMMON_WORD_LIST from './common-words.json' with { type: 'json' }

/** Regular inflections and the stems they may come from: "towers" -> "tower", "carried" -> "carry", "baking" -> "bake". */
const INFLECTIONS: [suffix: string, replacement: string][] = [
  ['ies', 'y'], ['es', ''], ['s', ''], ['ied', 'y'], ['ed', ''], ['ed', 'e'], ['d', ''], ['ing', ''], ['ing', 'e'],
  ['ly', ''], ['er', ''], ['er', 'e'], ['est', ''], ['est', 'e'],
]

/** The stems a lower-case word may be an inflection of (none shorter than two letters). */
export function inflectionStems(word: string): string[] {
  return INFLECTIONS.filter(([suffix]) => word.endsWith(suffix) && word.length - suffix.length >= 2).map(([suffix, replacement]) => word.slice(0, -suffix.length) + replacement)
}

/** SCOWL's lower-case vocabulary without the inflections of its own words (scripts/train-offline/train-common-words.ts). */
const COMMON_WORDS = new Set(COMMON_WORD_LIST as string[])

/** Whether a word (any case) is a common English word or a regular inflection of one. */
export function isCommonWord(word: string): boolean {
  const lower = word.toLowerCase()
  return COMMON_WORDS.has(lower) || inflectionStems(lower).some((stem) => COMMON_WORDS.has(stem))
}
