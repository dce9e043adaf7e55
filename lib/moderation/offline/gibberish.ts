import { ADDRESS_SOURCE } from './addresses'
import { normalizeCharacters } from './deobfuscate'
import { fnv1a } from './hashing'
import type { Feeds, GraphRunner } from './graph-io'

/**
 * Gibberish = four classes (clean, mild gibberish, word salad, noise) from language models held
 * in `gibberish.onnx` as hashed, uint8-quantised tables (character trigrams, word frequencies,
 * word bigrams, and a bigram model of word classes: function words as themselves, other words by
 * their WordNet parts of speech and suffix, which keeps what word order says while forgetting
 * the topic), the word pairs of a general English language model (CMU Sphinx's) with their
 * probabilities, plus shape statistics computed here, fed to a small MLP in the same graph.
 * Pre-processing only hashes strings, so server and browser need no vocabulary file.
 */
export const GIBBERISH_GRAPH = 'gibberish.onnx'
/** Class order of the graph's `probabilities` output (the contract's labels). */
export const GIBBERISH_CLASSES = ['clean', 'mild gibberish', 'word salad', 'noise'] as const
export type GibberishClass = (typeof GIBBERISH_CLASSES)[number]

export const TRIGRAM_BITS = 16
export const WORD_BITS = 19
export const BIGRAM_BITS = 19
/** Two independent hashes per word and bigram: a table value counts only if both buckets agree (count-min). */
const SECOND_HASH_SEED = 0x9e3779b9
/**
 * Word pairs of general English (CMU Sphinx's US English language model, scripts/train-offline/sphinx-lm.ts), one
 * bucket each with an 8-bit fingerprint to tell the pair that owns the bucket from any other: pairs seen in that
 * large body of text are the everyday ones the project's own corpora are too small to have met.
 */
export const GENERAL_BIGRAM_BITS = 19
const FINGERPRINT_SEED = 0x27d4eb2f
/** The text's edges, as the general language model writes them. */
export const TEXT_START = '<s>'
const TEXT_END = '</s>'
/** Texts beyond this are judged on their beginning: the classes show within a few sentences. */
export const GIBBERISH_MAX_CHARS = 1000

/** Words whose order carries most of English grammar: their runs and neighbours separate prose from salad. */
export const FUNCTION_WORDS = new Set(
  (
    'a an the and or but nor so yet if then than that this these those there here of to in on at by for with from into onto ' +
    'about over under after before between through during without within as is are was were be been being am do does did ' +
    'have has had will would shall should can could may might must not no i you he she it we they me him her us them my ' +
    'your his its our their what which who whom whose when where why how all any each some such very just also only'
  ).split(' '),
)

export const SHAPE_FEATURES = [
  'log length',
  'log word count',
  'letter fraction',
  'digit fraction',
  'symbol fraction',
  'uppercase fraction',
  'vowel fraction',
  'vowelless word fraction',
  'longest consonant run',
  'mean word length',
  'long word fraction',
  'function word fraction',
  'function word pair fraction',
  'ends with punctuation',
  'starts with capital',
  'repeated character fraction',
  'non-Latin letter fraction',
  'single word',
  'one keyboard row word fraction',
] as const

const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm']
const rowOf = new Map([...KEYBOARD_ROWS.entries()].flatMap(([row, letters]) => [...letters].map((c) => [c, row] as const)))

/** Lowercased words: letters with inner apostrophes ("don't" is one word). */
export function gibberishWords(text: string): string[] {
  return text.toLowerCase().match(/\p{L}+(?:['’]\p{L}+)*/gu) ?? []
}

function bucket(key: string, bits: number, seed?: number): number {
  const size = 2 ** bits
  return 1 + ((seed === undefined ? fnv1a(key) : fnv1a(key, seed)) % (size - 1))
}

/** Bucket pair of a word or bigram in its table (bucket 0 is the graph's empty sentinel). */
export function wordBuckets(key: string, bits: number): [number, number] {
  return [bucket(key, bits), bucket(key, bits, SECOND_HASH_SEED)]
}

/** The general-English table's bucket of a word pair ("a b") and the fingerprint (1-255) that bucket must hold for it. */
export function generalBigramSlot(pair: string): [number, number] {
  return [bucket(pair, GENERAL_BIGRAM_BITS), 1 + (fnv1a(pair, FINGERPRINT_SEED) % 255)]
}

/** Adjacent word pairs of a text, its edges included ("<s> please", ..., "plants </s>"), apostrophes as the language model writes them. */
export function generalBigrams(words: string[]): string[] {
  const sequence = [TEXT_START, ...words.map((w) => w.replace(/’/g, "'")), TEXT_END]
  return sequence.slice(1).map((w, i) => `${sequence[i]} ${w}`)
}

/** Character trigrams of a word with `^`/`$` marking its edges. */
export function wordTrigrams(word: string): string[] {
  const padded = `^${word}$`
  const trigrams: string[] = []
  for (let i = 0; i + 3 <= padded.length; i++) trigrams.push(padded.slice(i, i + 3))
  return trigrams
}

export function trigramBucket(trigram: string): number {
  return bucket(trigram, TRIGRAM_BITS)
}

export function shapeFeatures(text: string, words: string[]): number[] {
  const visible = text.replace(/\s+/g, '')
  const letters = visible.match(/\p{L}/gu) ?? []
  const latin = letters.filter((c) => /[a-z]/i.test(c))
  const count = (pattern: RegExp) => (visible.match(pattern) ?? []).length
  const fraction = (n: number, of: number) => (of > 0 ? n / of : 0)
  const vowelless = words.filter((w) => w.length >= 2 && !/[aeiouyàâäéèêëîïôöûüœæ]/.test(w)).length
  let longestRun = 0
  for (const run of text.toLowerCase().match(/[bcdfghjklmnpqrstvwxz]+/g) ?? []) longestRun = Math.max(longestRun, run.length)
  const functionWords = words.filter((w) => FUNCTION_WORDS.has(w)).length
  let functionPairs = 0
  for (let i = 1; i < words.length; i++) if (FUNCTION_WORDS.has(words[i]) && FUNCTION_WORDS.has(words[i - 1])) functionPairs++
  const oneRow = words.filter((w) => w.length >= 4 && new Set([...w].map((c) => rowOf.get(c) ?? -1)).size === 1).length
  const meanLength = words.length ? words.reduce((s, w) => s + w.length, 0) / words.length : 0
  const trimmed = text.trim()
  return [
    Math.log1p(text.length) / 6,
    Math.log1p(words.length) / 4,
    fraction(letters.length, visible.length),
    fraction(count(/\p{N}/gu), visible.length),
    fraction(count(/[\p{P}\p{S}]/gu), visible.length),
    fraction(letters.filter((c) => c !== c.toLowerCase()).length, letters.length),
    fraction(latin.filter((c) => /[aeiouy]/i.test(c)).length, latin.length),
    fraction(vowelless, words.length),
    Math.min(longestRun, 8) / 8,
    Math.min(meanLength, 20) / 10,
    fraction(words.filter((w) => w.length > 12).length, words.length),
    fraction(functionWords, words.length),
    fraction(functionPairs, Math.max(1, words.length - 1)),
    /[.!?)"'…]$/.test(trimmed) ? 1 : 0,
    /^\p{Lu}/u.test(trimmed) ? 1 : 0,
    fraction(count(/(.)\1{2,}/gu) * 3, visible.length),
    fraction(letters.length - latin.length, letters.length),
    words.length === 1 ? 1 : 0,
    fraction(oneRow, words.length),
  ]
}

// Addresses as every engine reads them (links in any case: "HTTP://", "WWW."), and numbers.
const ADDRESS_OR_NUMBER = new RegExp(String.raw`${ADDRESS_SOURCE}|(?<![\p{L}\p{N}])[+#$€£(]?\p{N}(?:[\p{N}\s()./:-]*\p{N})?(?![\p{L}\p{N}])`, 'giu')
/** Paths, hashes, versions, identifiers in camelCase or with underscores: technical names, neither prose nor gibberish. */
const TECHNICAL_TOKEN =
  /(?<!\S)\S*[\\/]\S*[\\/]\S*|\b(?:[0-9a-f]*\d[0-9a-f]*[a-f][0-9a-f]*|[0-9a-f]*[a-f][0-9a-f]*\d[0-9a-f]*)\b(?<=\b\w{7,})|\bv?\d+(?:\.\d+)+(?:-[\w.]+)?\b|\b\w*_\w*\b|\b\p{Lu}*\p{Ll}+(?:\p{Lu}+\p{Ll}*){1,}\b|\b\p{Lu}{2,}\p{Ll}+\w*/gu
const TITLE_CASE_WORD = /(?<![.!?:;]\s*|^\s*|\p{L}['’]?)\p{Lu}\p{Ll}+(?:[-'’]\p{Lu}?\p{Ll}+)*(?!\p{L})/gu

/**
 * The text the language models judge: e-mail addresses, URLs, numbers (phones, cards, dates,
 * prices) and technical names (paths, hashes, versions, camelCase and snake_case identifiers) removed, and, in a text that is not written in Title Case, capitalised words inside a
 * sentence (names of people and places) removed too. None of them is English prose or
 * gibberish, and the models know neither, so they read like misspellings.
 */
export function gibberishView(input: string): string {
  // Invisible characters inside words ("pass\u200bword") and full-width forms say nothing about gibberish.
  const text = normalizeCharacters(input)
  const withoutNumbers = text.replace(TECHNICAL_TOKEN, ' ').replace(ADDRESS_OR_NUMBER, ' ')
  const words = gibberishWords(withoutNumbers)
  const titleCase = withoutNumbers.match(TITLE_CASE_WORD) ?? []
  const view = titleCase.length * 2 < words.length ? withoutNumbers.replace(TITLE_CASE_WORD, ' ') : withoutNumbers
  return view.replace(/[ \t]+/g, ' ').replace(/ ([,.;:!?])/g, '$1').trim()
}

const int64 = (values: number[]) => ({ type: 'int64' as const, data: BigInt64Array.from(values, BigInt), dims: [values.length] })

/**
 * The graph's inputs. Every id list ends with the sentinel bucket 0 (value 0 in every table) so
 * no input is empty; `counts` holds the real lengths for the means.
 */
export function gibberishFeeds(text: string): Feeds {
  const head = gibberishView(text.slice(0, GIBBERISH_MAX_CHARS))
  const words = gibberishWords(head)
  const trigrams = words.flatMap(wordTrigrams).map(trigramBucket)
  const wordPairs = words.map((w) => wordBuckets(w, WORD_BITS))
  const bigramPairs = words.slice(1).map((w, i) => wordBuckets(`${words[i]} ${w}`, BIGRAM_BITS))
  const shape = shapeFeatures(head, words)
  const general = generalBigrams(words).map(generalBigramSlot)
  return {
    trigram_ids: int64([...trigrams, 0]),
    word_ids_a: int64([...wordPairs.map((p) => p[0]), 0]),
    word_ids_b: int64([...wordPairs.map((p) => p[1]), 0]),
    bigram_ids_a: int64([...bigramPairs.map((p) => p[0]), 0]),
    bigram_ids_b: int64([...bigramPairs.map((p) => p[1]), 0]),
    word_sequence: int64([0, ...wordPairs.map((p) => p[0]), 0]),
    general_bigram_ids: int64(general.map((p) => p[0])),
    general_bigram_fingerprints: int64(general.map((p) => p[1])),
    counts: { type: 'float32', data: Float32Array.of(trigrams.length, wordPairs.length, bigramPairs.length), dims: [3] },
    shape: { type: 'float32', data: Float32Array.from(shape), dims: [shape.length] },
  }
}

export type GibberishAnswer = { label: GibberishClass; probability: number }

/** The top class and its probability; `probabilities` in GIBBERISH_CLASSES order. */
export function gibberishAnswer(probabilities: ArrayLike<number>): GibberishAnswer {
  let best = 0
  for (let i = 1; i < GIBBERISH_CLASSES.length; i++) if (probabilities[i] > probabilities[best]) best = i
  return { label: GIBBERISH_CLASSES[best], probability: probabilities[best] }
}

/** The function words of other languages (trained: scripts/train-offline/train-gibberish-languages.ts). */
export const GIBBERISH_LANGUAGES = 'gibberish.languages.json'
/** Each language's function words, space-separated, none of them an English word. */
export type GibberishLanguages = { source: string; languages: Record<string, string> }

const languageSets = new WeakMap<GibberishLanguages, Set<string>[]>()
function languageWordSets(file: GibberishLanguages): Set<string>[] {
  let sets = languageSets.get(file)
  if (!sets) languageSets.set(file, (sets = Object.values(file.languages).map((words) => new Set(words.split(' ')))))
  return sets
}

/** Scripts written without spaces between words, or whose words no list here covers. */
const UNLISTED_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Georgian}\p{Script=Armenian}\p{Script=Ethiopic}]/gu

/**
 * Whether a text is written in a language the language models do not know: a quarter of its
 * words are function words of one such language, two different ones at least (and more than are
 * English ones), or most of its letters are in a script without word lists. Repeated characters stay noise.
 */
export function otherLanguage(text: string, languages: GibberishLanguages): boolean {
  const head = normalizeCharacters(text.slice(0, GIBBERISH_MAX_CHARS))
  const letters = head.match(/\p{L}/gu) ?? []
  if (letters.length >= 2 && (head.match(UNLISTED_SCRIPTS) ?? []).length >= letters.length * 0.6) return !/(.)\1{3,}/u.test(head)
  const words = gibberishWords(head)
  if (words.length < 3) return false
  const english = words.filter((w) => FUNCTION_WORDS.has(w)).length
  // Two different function words at least: one word repeated ("os" in code) is not a language.
  const foreign = Math.max(...languageWordSets(languages).map((list) => (new Set(words.filter((w) => list.has(w))).size >= 2 ? words.filter((w) => list.has(w)).length : 0)))
  return foreign >= words.length * 0.25 && foreign > english
}

/** A line that opens with a statement keyword of a programming, query or shell language (lower case, as code writes them). */
const CODE_KEYWORD =
  /^\s*(?:import|from|def|class|return|const|let|var|function|fn|func|package|public|private|protected|static|using|namespace|elif|else|try|except|catch|finally|while|for|if|async|await|export|echo|sudo|npm|npx|pip|git|cd|ls|docker|kubectl|curl|SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|FROM|RUN|CMD)\b|^\s*#include\b|^\s*\$ /
/** Marks of code syntax: a call (no space before the bracket), an operator, a statement's end, a block, a member access. */
const CODE_SYNTAX = [
  /[\w$\])]\(/,
  /=>|==|!=|<=|>=|&&|\|\||:=|->|::|\+=|-=|\+\+|--\w|\w--/,
  /[;{}]\s*$/,
  /^\s*[{}]|\{\s*\w|\w\s*\}/,
  /\b[a-z_]\w*\.[a-z_]\w*\b(?![.@])/i,
  /\b\w+ = \S/,
  /:\s*$/,
  /["'`][^"'`\s]*["'`]/,
  /\s--?[a-z][\w-]*\b/,
]
/** Whole lines that are an import and nothing else ("import numpy", "from os import path"). */
const IMPORT_LINE = /^\s*(?:import [\w.]+(?: as \w+)?|from [\w.]+ import [\w, ]+|#include\s*[<"][\w./]+[>"]|using [\w.]+);?\s*$/

/**
 * Whether a text is source code, a query or shell commands: most of its lines open with a statement keyword and show
 * code syntax, or show two kinds of code syntax. Code is neither prose nor gibberish: the language models were made
 * for prose and read keywords, identifiers and operators as misspellings or as words in no order (the playground's
 * "Code" example came back mild gibberish), so for code only noise is judged, as for the other languages.
 */
export function codeLike(text: string): boolean {
  const lines = normalizeCharacters(text.slice(0, GIBBERISH_MAX_CHARS))
    .split('\n')
    .filter((line) => /\p{L}/u.test(line))
  if (!lines.length) return false
  const code = lines.filter((line) => {
    const syntax = CODE_SYNTAX.filter((pattern) => pattern.test(line)).length
    return IMPORT_LINE.test(line) || (CODE_KEYWORD.test(line) && syntax >= 1) || syntax >= 2
  }).length
  return code * 2 >= lines.length
}

/**
 * The graph's probabilities, except for text in a language its language models never saw, or code:
 * there they cannot tell mild gibberish or word salad from good prose, so that mass counts as clean
 * and only noise (which needs no language) is kept.
 */
export async function classifyGibberish(run: GraphRunner, languages: GibberishLanguages, text: string): Promise<{ answer: GibberishAnswer; probabilities: number[] }> {
  const outputs = await run(GIBBERISH_GRAPH, gibberishFeeds(text))
  const probabilities = Array.from(outputs.probabilities)
  if (otherLanguage(text, languages) || codeLike(text)) {
    const [clean, mild, salad, noise] = probabilities
    probabilities.splice(0, 4, clean + mild + salad, 0, 0, noise)
  }
  return { answer: gibberishAnswer(probabilities), probabilities }
}
