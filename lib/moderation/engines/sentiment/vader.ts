import { lexicon as vaderLexicon } from 'vader-sentiment/src/vader_lexicon.js'
import { pythonRound } from '../python-round'
import type { ModerationEngine, SentimentScores } from '../types'

/**
 * NLTK's `SentimentIntensityAnalyzer` (nltk.sentiment.vader, the version the toolkit vendors),
 * rule for rule, over the VADER lexicon shipped in the vader-sentiment package. The package's
 * own rules follow the later vaderSentiment releases, whose scores differ from NLTK's.
 */

const B_INCR = 0.293
const B_DECR = -0.293
const C_INCR = 0.733
const N_SCALAR = -0.74

const NEGATE = new Set([
  'aint', 'arent', 'cannot', 'cant', 'couldnt', 'darent', 'didnt', 'doesnt', "ain't", "aren't",
  "can't", "couldn't", "daren't", "didn't", "doesn't", 'dont', 'hadnt', 'hasnt', 'havent', 'isnt',
  'mightnt', 'mustnt', 'neither', "don't", "hadn't", "hasn't", "haven't", "isn't", "mightn't",
  "mustn't", 'neednt', "needn't", 'never', 'none', 'nope', 'nor', 'not', 'nothing', 'nowhere',
  'oughtnt', 'shant', 'shouldnt', 'uhuh', 'wasnt', 'werent', "oughtn't", "shan't", "shouldn't",
  'uh-uh', "wasn't", "weren't", 'without', 'wont', 'wouldnt', "won't", "wouldn't", 'rarely',
  'seldom', 'despite',
])

const BOOSTERS: ReadonlyMap<string, number> = new Map([
  ...[
    'absolutely', 'amazingly', 'awfully', 'completely', 'considerably', 'decidedly', 'deeply',
    'effing', 'enormously', 'entirely', 'especially', 'exceptionally', 'extremely', 'fabulously',
    'flipping', 'flippin', 'fricking', 'frickin', 'frigging', 'friggin', 'fully', 'fucking',
    'greatly', 'hella', 'highly', 'hugely', 'incredibly', 'intensely', 'majorly', 'more', 'most',
    'particularly', 'purely', 'quite', 'really', 'remarkably', 'so', 'substantially', 'thoroughly',
    'totally', 'tremendously', 'uber', 'unbelievably', 'unusually', 'utterly', 'very',
  ].map((word) => [word, B_INCR] as const),
  ...[
    'almost', 'barely', 'hardly', 'just enough', 'kind of', 'kinda', 'kindof', 'kind-of', 'less',
    'little', 'marginally', 'occasionally', 'partly', 'scarcely', 'slightly', 'somewhat', 'sort of',
    'sorta', 'sortof', 'sort-of',
  ].map((word) => [word, B_DECR] as const),
])

const SPECIAL_CASE_IDIOMS: ReadonlyMap<string, number> = new Map([
  ['the shit', 3],
  ['the bomb', 3],
  ['bad ass', 1.5],
  ['yeah right', -2],
  ['cut the mustard', 2],
  ['kiss of death', -1.5],
  ['hand to mouth', -2],
])

const PUNCTUATION_MARKS = [
  '.', '!', '?', ',', ';', ':', '-', "'", '"', '!!', '!!!', '??', '???', '?!?', '!?!', '?!?!', '!?!?',
]

/** Python's `string.punctuation`. */
const PYTHON_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g
/** The characters Python's `str.split()` splits on. */
const PYTHON_WHITESPACE = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/

const lexicon: ReadonlyMap<string, number> = new Map(Object.entries(vaderLexicon))

function pythonSplit(text: string): string[] {
  return text.split(PYTHON_WHITESPACE).filter((word) => word.length > 0)
}

/** Python's `len(word) > 1`, which counts code points. */
function isLongerThanOneCharacter(word: string): boolean {
  return [...word].length > 1
}

/** Python's `str.isupper()`: some cased character and no lowercase or titlecase one. */
function isUpper(word: string): boolean {
  return /\p{Lu}/u.test(word) && !/[\p{Ll}\p{Lt}]/u.test(word)
}

/** Words and emoticons, with one leading or trailing punctuation mark stripped from words. */
function tokenize(text: string): string[] {
  const bareWords = new Set(
    pythonSplit(text.replace(PYTHON_PUNCTUATION, '')).filter(isLongerThanOneCharacter),
  )
  return pythonSplit(text)
    .filter(isLongerThanOneCharacter)
    .map((token) => {
      for (const mark of PUNCTUATION_MARKS) {
        if (token.startsWith(mark) && bareWords.has(token.slice(mark.length))) return token.slice(mark.length)
        if (token.endsWith(mark) && bareWords.has(token.slice(0, -mark.length))) return token.slice(0, -mark.length)
      }
      return token
    })
}

/** True when some, but not all, tokens are in capitals. */
function hasCapitalDifferential(tokens: string[]): boolean {
  const capitalised = tokens.filter(isUpper).length
  const others = tokens.length - capitalised
  return others > 0 && others < tokens.length
}

function isNegation(word: string): boolean {
  const lower = word.toLowerCase()
  return NEGATE.has(lower) || lower.includes("n't")
}

function boosterScalar(word: string, valence: number, capitalDifferential: boolean): number {
  const booster = BOOSTERS.get(word.toLowerCase())
  if (booster === undefined) return 0
  let scalar = valence < 0 ? -booster : booster
  if (isUpper(word) && capitalDifferential) scalar += valence > 0 ? C_INCR : -C_INCR
  return scalar
}

function neverCheck(valence: number, tokens: string[], distance: number, i: number): number {
  if (distance === 0) {
    return isNegation(tokens[i - 1]) ? valence * N_SCALAR : valence
  }
  if (distance === 1) {
    if (tokens[i - 2] === 'never' && (tokens[i - 1] === 'so' || tokens[i - 1] === 'this')) return valence * 1.5
    return isNegation(tokens[i - 2]) ? valence * N_SCALAR : valence
  }
  const neverSoThis = tokens[i - 3] === 'never' && (tokens[i - 2] === 'so' || tokens[i - 2] === 'this')
  if (neverSoThis || tokens[i - 1] === 'so' || tokens[i - 1] === 'this') return valence * 1.25
  return isNegation(tokens[i - 3]) ? valence * N_SCALAR : valence
}

function idiomsCheck(valence: number, tokens: string[], i: number): number {
  const precedingSequences = [
    `${tokens[i - 1]} ${tokens[i]}`,
    `${tokens[i - 2]} ${tokens[i - 1]} ${tokens[i]}`,
    `${tokens[i - 2]} ${tokens[i - 1]}`,
    `${tokens[i - 3]} ${tokens[i - 2]} ${tokens[i - 1]}`,
    `${tokens[i - 3]} ${tokens[i - 2]}`,
  ]
  let result = valence
  const idiom = precedingSequences.find((sequence) => SPECIAL_CASE_IDIOMS.has(sequence))
  if (idiom !== undefined) result = SPECIAL_CASE_IDIOMS.get(idiom)!
  if (tokens.length - 1 > i) {
    const following = SPECIAL_CASE_IDIOMS.get(`${tokens[i]} ${tokens[i + 1]}`)
    if (following !== undefined) result = following
  }
  if (tokens.length - 1 > i + 1) {
    const following = SPECIAL_CASE_IDIOMS.get(`${tokens[i]} ${tokens[i + 1]} ${tokens[i + 2]}`)
    if (following !== undefined) result = following
  }
  if (BOOSTERS.has(`${tokens[i - 3]} ${tokens[i - 2]}`) || BOOSTERS.has(`${tokens[i - 2]} ${tokens[i - 1]}`)) {
    result += B_DECR
  }
  return result
}

function leastCheck(valence: number, tokens: string[], i: number): number {
  const previous = i > 0 ? tokens[i - 1].toLowerCase() : ''
  if (previous !== 'least' || lexicon.has(previous)) return valence
  if (i > 1) {
    const beforeLeast = tokens[i - 2].toLowerCase()
    return beforeLeast !== 'at' && beforeLeast !== 'very' ? valence * N_SCALAR : valence
  }
  return valence * N_SCALAR
}

function wordValence(tokens: string[], i: number, capitalDifferential: boolean): number {
  const word = tokens[i]
  const base = lexicon.get(word.toLowerCase())
  if (base === undefined) return 0
  let valence = base
  if (isUpper(word) && capitalDifferential) valence += valence > 0 ? C_INCR : -C_INCR
  for (let distance = 0; distance < 3; distance++) {
    if (i <= distance || lexicon.has(tokens[i - (distance + 1)].toLowerCase())) continue
    let scalar = boosterScalar(tokens[i - (distance + 1)], valence, capitalDifferential)
    if (distance === 1) scalar *= 0.95
    if (distance === 2) scalar *= 0.9
    valence = neverCheck(valence + scalar, tokens, distance, i)
    if (distance === 2) valence = idiomsCheck(valence, tokens, i)
  }
  return leastCheck(valence, tokens, i)
}

/** Words before the first "but" count half, words after it one and a half. */
function butCheck(tokens: string[], sentiments: number[]): number[] {
  const butIndex = tokens.findIndex((token) => token.toLowerCase() === 'but')
  if (butIndex < 0) return sentiments
  return sentiments.map((s, index) => (index < butIndex ? s * 0.5 : index > butIndex ? s * 1.5 : s))
}

function punctuationEmphasis(text: string): number {
  const exclamations = Math.min(text.split('!').length - 1, 4)
  const questions = text.split('?').length - 1
  const questionEmphasis = questions > 1 ? (questions <= 3 ? questions * 0.18 : 0.96) : 0
  return exclamations * 0.292 + questionEmphasis
}

function scoreValence(sentiments: number[], text: string): SentimentScores {
  if (sentiments.length === 0) return { neg: 0, neu: 0, pos: 0, compound: 0 }
  let sum = sentiments.reduce((total, s) => total + s, 0)
  const emphasis = punctuationEmphasis(text)
  if (sum > 0) sum += emphasis
  else if (sum < 0) sum -= emphasis
  const compound = sum / Math.sqrt(sum * sum + 15)

  let positive = 0
  let negative = 0
  let neutral = 0
  for (const s of sentiments) {
    if (s > 0) positive += s + 1
    if (s < 0) negative += s - 1
    if (s === 0) neutral += 1
  }
  if (positive > Math.abs(negative)) positive += emphasis
  else if (positive < Math.abs(negative)) negative -= emphasis
  const total = positive + Math.abs(negative) + neutral
  return {
    neg: pythonRound(Math.abs(negative / total), 3),
    neu: pythonRound(Math.abs(neutral / total), 3),
    pos: pythonRound(Math.abs(positive / total), 3),
    compound: pythonRound(compound, 4),
  }
}

export function vaderPolarityScores(text: string): SentimentScores {
  const tokens = tokenize(text)
  const capitalDifferential = hasCapitalDifferential(tokens)
  const sentiments = tokens.map((token) => {
    // NLTK looks the position up with list.index(), so a repeated word takes its first position.
    const i = tokens.indexOf(token)
    const lower = token.toLowerCase()
    const startsKindOf = lower === 'kind' && i < tokens.length - 1 && tokens[i + 1].toLowerCase() === 'of'
    if (startsKindOf || BOOSTERS.has(lower)) return 0
    return wordValence(tokens, i, capitalDifferential)
  })
  return scoreValence(butCheck(tokens, sentiments), text)
}

export const vaderSentimentEngine: ModerationEngine<string, SentimentScores> = {
  name: 'offline:vader',
  available: () => true,
  run: async (text) => vaderPolarityScores(text),
}
