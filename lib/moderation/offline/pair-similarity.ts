import { cosineSimilarity } from '@/lib/moderation/vectors'
import { ADDRESSES } from './addresses'
import { EMBEDDING_MAX_CHARS, embeddingWords, embedTexts, isNegation, uncontracted, vocabularyIds, type EmbeddingVocabulary } from './embedding'
import { FUNCTION_WORDS } from './gibberish'
import type { GraphRunner } from './graph-io'
import { related, sameBase, type WordRelations } from './word-relations'

/**
 * The offline similarity of two texts, read as a pair. The cosine of two averaged vectors cannot
 * tell a swapped detail ("a flight to Rome" / "a flight to Madrid") or a negation from a
 * paraphrase: the average has lost which words differ. So, when both texts are given, each content
 * word is matched to its closest word on the other side (cosine of the embedding engine's own
 * vectors of single words), and how much of each side is matched exactly, nearly or not at all
 * (weighted by the word's rarity), WordNet's synonyms and antonyms among the counterparts, a
 * negation of what both say on one side only, swapped numbers and shared word pairs in order go with
 * the texts' cosine into a few small networks trained on graded pairs (0-5, SemEval STS guidelines;
 * scripts/train-offline/train-similarity.ts). Their mean, with a share of the cosine, is mapped to
 * the mean grade / 5 of the training pairs that scored alike (isotonic), so 0.5 reads as grade 2.5
 * and a copy of a text as about 1; where the reader finds nothing against a paraphrase, the answer
 * is not under what the cosine alone says (similarityOfFeatures).
 *
 * An embedding given in the request has no words to read: such a pair, and every pair the neural
 * engine answers, is the plain cosine.
 */
export const PAIR_SIMILARITY_MODEL = 'similarity.json'
export const PAIR_READER = 'word-alignment'
/** Only the first content words of a long text are matched (the cost grows with the product of the two counts). */
export const PAIR_MAX_WORDS = 64

/** A small network: tanh hidden layer, sigmoid output. */
export type PairNetwork = { hidden: number[][]; hiddenBias: number[]; output: number[]; outputBias: number }

export type PairSimilarityModel = {
  features: string[]
  mean: number[]
  scale: number[]
  networks: PairNetwork[]
  /** WordNet's synonyms and antonyms (word-relations.ts). */
  relations: WordRelations
  /** The share of the texts' cosine in the raw score (the networks' mean has the rest). */
  cosineShare: number
  /** Raw score -> similarity, linear between these points (both increasing), constant beyond the ends. */
  calibration: Calibration
  /** The texts' cosine -> similarity, the same way: what the cosine alone says of a pair. */
  cosineCalibration: Calibration
}

export type Calibration = { raw: number[]; similarity: number[] }

export const PAIR_FEATURES = [
  'cosine of the texts',
  'mean best match',
  'lower side mean best match',
  'lowest best match',
  'share matched under 0.3',
  'share matched 0.3-0.5',
  'share matched 0.5-0.7',
  'share matched 0.7-0.95',
  'share matched over 0.95',
  'one side negates what both say',
  'log content words (shorter side)',
  'log length ratio',
  'un-/dis- antonym',
  'numbers differ',
  'shared word pairs in order',
  'shared words',
  'shared words not in order',
  'sides matched unevenly',
  'exact share x rest',
  'log words not matched exactly',
  'one word not matched exactly',
  'two words not matched exactly',
  'cosine x exact share',
  'substitutes that are synonyms',
  'log substitutes of another kind',
  'antonym substituted',
  'one detail swapped, the rest exact',
  'numbers differ x exact share',
  'words of the vocabulary on both sides',
] as const

const MATCH_BINS = [0.3, 0.5, 0.7, 0.95]
const EXACT = 0.95
/** A word's best counterpart at least this close is a substitute for it; under it, the word has none. */
const SUBSTITUTE = 0.6
/**
 * A word's best counterpart under this cosine is no substitute of any kind, and WordNet is not asked about it: the
 * vectors were fitted to WordNet's synonyms (which sit above it), and each look-up of the filter risks a false positive.
 */
const RELATED = 0.45
/** Rarity of a word by its frequency rank in the embedding's vocabulary (GloVe's order); unknown words rarest. */
const UNKNOWN_RARITY = Math.log(60_000)

/** Greetings and courtesies that leave what a text says as it was ("Please.", "Thanks!"). */
const COURTESY_WORDS = new Set('please thanks thank thx regards cheers hi hello hey dear ok okay'.split(' '))

/** What the reader takes from one text, read once: its words (contractions opened as the embedding opens them), its numbers. */
export type SideReading = { words: string[]; numbers: Set<string> }

/** One text as the similarity reads it: the start the embedding reads, links and addresses out. */
export function readSide(text: string): SideReading {
  const plain = text.slice(0, EMBEDDING_MAX_CHARS).replace(ADDRESSES, ' ')
  return {
    words: embeddingWords(plain).flatMap((word) => (word === 'cannot' ? ['can', 'not'] : uncontracted(word))),
    numbers: numbersOf(plain),
  }
}

const isContent = (word: string) => !FUNCTION_WORDS.has(word) && !COURTESY_WORDS.has(word) && !isNegation(word)

/** The words matched across the pair, in order: function, courtesy and negation words dropped, the first PAIR_MAX_WORDS kept. */
export function contentWords(words: string[]): string[] {
  return words.filter(isContent).slice(0, PAIR_MAX_WORDS)
}

/**
 * Whether a text negates what both texts say: a negation word with, among the next four of its words, a content word
 * that has a counterpart on the other side (`shared`). "No worries." after a paraphrase negates nothing the other says.
 */
function negatesShared(words: string[], shared: ReadonlySet<string>): boolean {
  return words.some((word, i) => isNegation(word) && words.slice(i + 1, i + 5).some((next) => shared.has(next)))
}

/** Number words ("one" is left out: it is mostly a pronoun, "no one", "the one I saw"). */
const NUMBER_WORDS = new Map(
  Object.entries({
    two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
    eleven: '11', twelve: '12', twenty: '20', hundred: '100', thousand: '1000',
  }),
)

/** The numbers of a text (links and addresses already out), in digits: "1,000" is 1000, "nine" is 9. */
function numbersOf(plain: string): Set<string> {
  const tokens = plain.toLowerCase().replaceAll(',', '').match(/[a-z0-9]+/g) ?? []
  return new Set(tokens.filter((t) => /^\d+$/.test(t) || NUMBER_WORDS.has(t)).map((t) => NUMBER_WORDS.get(t) ?? t))
}

/** A number swapped: each side has a number the other lacks (a reference number added on one side swaps nothing). */
function numbersSwapped(a: Set<string>, b: Set<string>): boolean {
  return [...a].some((n) => !b.has(n)) && [...b].some((n) => !a.has(n))
}

const NEGATING_PREFIX = /^(?:un|dis|in|im|ir|il|non)(.{3,})$/u

/** "safe" / "unsafe", "allowed" / "disallowed": a word on one side is the other side's word with a negating prefix. */
function prefixAntonym(own: Set<string>, other: Set<string>): boolean {
  for (const word of own) {
    if (other.has(word)) continue
    const base = NEGATING_PREFIX.exec(word)?.[1]
    if (base !== undefined && other.has(base)) return true
  }
  return false
}

type Side = { histogram: number[]; meanBest: number; lowestBest: number; notExact: number }

/** How well one side's words are matched on the other: `best[i]` is word i's highest cosine there. */
function sideMatch(best: number[], ranks: number[]): Side {
  const histogram = MATCH_BINS.map(() => 0).concat(0)
  if (best.length === 0) return { histogram, meanBest: 0, lowestBest: 0, notExact: 0 }
  const rarity = ranks.map((rank) => (rank > 0 ? Math.log(rank + 10) : UNKNOWN_RARITY))
  const total = rarity.reduce((s, r) => s + r, 0)
  let meanBest = 0
  best.forEach((b, i) => {
    const weight = rarity[i]! / total
    histogram[MATCH_BINS.filter((edge) => edge < b).length]! += weight
    meanBest += b * weight
  })
  return { histogram, meanBest, lowestBest: Math.min(...best), notExact: best.filter((b) => b < EXACT).length }
}

function orderedPairs(words: string[]): Set<string> {
  const pairs = new Set<string>()
  for (let i = 1; i < words.length; i++) pairs.add(`${words[i - 1]} ${words[i]}`)
  return pairs
}

function sharedShare(a: Set<string>, b: Set<string>): number {
  let shared = 0
  for (const item of a) if (b.has(item)) shared++
  return shared / Math.max(1, Math.min(a.size, b.size))
}

export type PairReading = {
  read1: SideReading
  read2: SideReading
  cosine: number
  words1: string[]
  words2: string[]
  /** matches[i][j]: cosine of word i of text1 and word j of text2. */
  matches: number[][]
  /** Each word's frequency rank in the vocabulary (0: not in it). */
  ranks1: number[]
  ranks2: number[]
  /** The vocabulary's words (base forms outside it are not looked up). */
  known: { has(word: string): boolean }
}

/** Each word's best counterpart on the other side: its index and cosine (-1 and 0 when the other side has no words). */
function bestCounterparts(count: number, otherCount: number, at: (i: number, j: number) => number) {
  return Array.from({ length: count }, (_, i) => {
    let best = { index: -1, cosine: 0 }
    for (let j = 0; j < otherCount; j++) if (best.index < 0 || at(i, j) > best.cosine) best = { index: j, cosine: at(i, j) }
    return best
  })
}

/**
 * The words not matched exactly, by what their best counterpart is to them: the same word in another form or a
 * WordNet synonym (a paraphrase), an antonym (a reversal), or another related word (a swapped detail).
 */
function substitutes(relations: WordRelations, known: (word: string) => boolean, words: string[], others: string[], best: { index: number; cosine: number }[]) {
  let synonyms = 0
  let otherKind = 0
  let antonym = false
  best.forEach(({ index, cosine }, i) => {
    if (index < 0 || cosine >= EXACT || cosine < RELATED) return
    const [word, other] = [words[i]!, others[index]!]
    if (sameBase(word, other, known) || related(relations, 'synonym', word, other, known)) synonyms++
    else if (related(relations, 'antonym', word, other, known)) antonym = true
    else if (cosine >= SUBSTITUTE) otherKind++
  })
  return { synonyms, otherKind, antonym }
}

/** The features of PAIR_FEATURES, in order, symmetric in the two texts. */
export function pairFeatures(pair: PairReading, relations: WordRelations): number[] {
  const { matches, words1, words2 } = pair
  const counterparts1 = bestCounterparts(words1.length, words2.length, (i, j) => matches[i]![j]!)
  const counterparts2 = bestCounterparts(words2.length, words1.length, (j, i) => matches[i]![j]!)
  const best1 = counterparts1.map((c) => c.cosine)
  const best2 = counterparts2.map((c) => c.cosine)
  const known = (word: string) => pair.known.has(word)
  const swapped1 = substitutes(relations, known, words1, words2, counterparts1)
  const swapped2 = substitutes(relations, known, words2, words1, counterparts2)
  const side1 = sideMatch(best1, pair.ranks1)
  const side2 = sideMatch(best2, pair.ranks2)
  const histogram = side1.histogram.map((h, k) => (h + side2.histogram[k]!) / 2)
  const exactShare = histogram[histogram.length - 1]!
  const notExact = Math.max(side1.notExact, side2.notExact)
  const [fewer, more] = [Math.min(words1.length, words2.length), Math.max(words1.length, words2.length)]
  const set1 = new Set(words1)
  const set2 = new Set(words2)
  const numbersDiffer = numbersSwapped(pair.read1.numbers, pair.read2.numbers)
  const shared1 = new Set(words1.filter((_, i) => best1[i]! >= SUBSTITUTE))
  const shared2 = new Set(words2.filter((_, j) => best2[j]! >= SUBSTITUTE))
  const sharedWords = sharedShare(set1, set2)
  const sharedPairs = sharedShare(orderedPairs(words1), orderedPairs(words2))
  return [
    pair.cosine,
    (side1.meanBest + side2.meanBest) / 2,
    Math.min(side1.meanBest, side2.meanBest),
    Math.min(side1.lowestBest, side2.lowestBest),
    ...histogram,
    negatesShared(pair.read1.words, shared1) !== negatesShared(pair.read2.words, shared2) ? 1 : 0,
    Math.log1p(fewer),
    Math.log1p(more) - Math.log1p(fewer),
    prefixAntonym(set1, set2) || prefixAntonym(set2, set1) ? 1 : 0,
    numbersDiffer ? 1 : 0,
    sharedPairs,
    sharedWords,
    sharedWords - sharedPairs,
    Math.abs(side1.meanBest - side2.meanBest),
    exactShare * (1 - exactShare),
    Math.log1p(notExact),
    notExact === 1 ? 1 : 0,
    notExact === 2 ? 1 : 0,
    pair.cosine * exactShare,
    (swapped1.synonyms + swapped2.synonyms) / Math.max(1, side1.notExact + side2.notExact),
    Math.log1p(swapped1.otherKind + swapped2.otherKind),
    swapped1.antonym || swapped2.antonym ? 1 : 0,
    swapped1.otherKind + swapped2.otherKind > 0 && notExact <= 2 && exactShare >= 0.5 ? 1 : 0,
    (numbersDiffer ? 1 : 0) * exactShare,
    pair.ranks1.some((rank) => rank > 0) && pair.ranks2.some((rank) => rank > 0) ? 1 : 0,
  ]
}

function networkOutput(network: PairNetwork, x: number[]): number {
  let z = network.outputBias
  network.hidden.forEach((row, k) => {
    let a = network.hiddenBias[k]!
    for (let i = 0; i < row.length; i++) a += row[i]! * x[i]!
    z += network.output[k]! * Math.tanh(a)
  })
  return 1 / (1 + Math.exp(-z))
}

/** The raw score of a pair's features: the networks' mean output and the cosine (the first feature), before calibration. */
export function rawPairScore(model: Omit<PairSimilarityModel, 'calibration' | 'cosineCalibration'>, features: number[]): number {
  const x = features.map((f, i) => (f - model.mean[i]!) / model.scale[i]!)
  const networks = model.networks.reduce((s, n) => s + networkOutput(n, x), 0) / model.networks.length
  return (1 - model.cosineShare) * networks + model.cosineShare * features[0]!
}

export function calibrated(raw: number, { raw: xs, similarity: ys }: Calibration): number {
  if (raw <= xs[0]!) return ys[0]!
  for (let k = 1; k < xs.length; k++) {
    if (raw <= xs[k]!) return ys[k - 1]! + ((ys[k]! - ys[k - 1]!) * (raw - xs[k - 1]!)) / (xs[k]! - xs[k - 1]!)
  }
  return ys[ys.length - 1]!
}

const feature = (name: (typeof PAIR_FEATURES)[number]) => PAIR_FEATURES.indexOf(name)
const CONTRARY = (['one side negates what both say', 'un-/dis- antonym', 'antonym substituted', 'numbers differ', 'one detail swapped, the rest exact'] as const).map(feature)

/**
 * The answer for a pair's features. Where the reader finds something it can name against a paraphrase (a negation of
 * what both say on one side, an antonym, a swapped number, one word swapped for another of its kind with the rest
 * exact), its own reading stands; elsewhere the pair is at least as similar as its cosine alone says, where that is
 * 0.5 or more and both sides have words of the vocabulary (a paraphrase in other words, "reset" / "change", has few
 * matched words to show; the vectors of unknown words say little). Two texts with no content word at all ("ok" /
 * "Ok!") have nothing to read but their vectors: their cosine.
 */
export function similarityOfFeatures(model: PairSimilarityModel, features: number[]): number {
  if (features[FEWER_WORDS] === 0 && features[LENGTH_RATIO] === 0) return Math.min(1, Math.max(0, features[0]!))
  const byCosine = calibrated(features[0]!, model.cosineCalibration)
  const reading = calibrated(rawPairScore(model, features), model.calibration)
  if (byCosine < 0.5 || features[KNOWN_WORDS] === 0 || CONTRARY.some((index) => features[index]! > 0)) return reading
  return Math.max(reading, byCosine)
}

const FEWER_WORDS = feature('log content words (shorter side)')
const LENGTH_RATIO = feature('log length ratio')
const KNOWN_WORDS = feature('words of the vocabulary on both sides')

export function pairSimilarity(model: PairSimilarityModel, pair: PairReading): number {
  return similarityOfFeatures(model, pairFeatures(pair, model.relations))
}

const checkedModels = new WeakSet<PairSimilarityModel>()

/** Checks a model file's shape (once per loaded file), so that a malformed file fails loudly instead of answering NaN. */
export function checkedPairModel(model: PairSimilarityModel): PairSimilarityModel {
  if (checkedModels.has(model)) return model
  const width = PAIR_FEATURES.length
  const numbers = (values: unknown, length: number) => Array.isArray(values) && values.length === length && values.every((v) => Number.isFinite(v))
  const increasing = (values: unknown): values is number[] =>
    Array.isArray(values) && values.length >= 2 && values.every((v, i) => Number.isFinite(v) && (i === 0 || v > values[i - 1]))
  const calibration = (c: Calibration | undefined) =>
    c !== undefined && increasing(c.raw) && increasing(c.similarity) && c.raw.length === c.similarity.length && c.similarity[0]! >= 0 && c.similarity.at(-1)! <= 1
  const relations = model.relations
  const filter = typeof relations?.filter === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(relations.filter) && relations.filter.length % 4 === 0
  const ok =
    Array.isArray(model.features) &&
    model.features.join('\n') === PAIR_FEATURES.join('\n') &&
    numbers(model.mean, width) &&
    numbers(model.scale, width) &&
    model.scale.every((s) => s > 0) &&
    filter &&
    Number.isInteger(relations.bits) &&
    relations.bits > 0 &&
    Number.isInteger(relations.hashes) &&
    relations.hashes > 0 &&
    Math.ceil(relations.bits / 8) === (relations.filter.length * 3) / 4 - relations.filter.match(/=*$/)![0].length &&
    Number.isFinite(model.cosineShare) &&
    model.cosineShare >= 0 &&
    model.cosineShare <= 1 &&
    calibration(model.calibration) &&
    calibration(model.cosineCalibration) &&
    Array.isArray(model.networks) &&
    model.networks.length > 0 &&
    model.networks.every(
      (n) =>
        Array.isArray(n.hidden) &&
        n.hidden.length > 0 &&
        n.hidden.every((row) => numbers(row, width)) &&
        numbers(n.hiddenBias, n.hidden.length) &&
        numbers(n.output, n.hidden.length) &&
        Number.isFinite(n.outputBias),
    )
  if (!ok) throw new Error(`${PAIR_SIMILARITY_MODEL} is not a pair similarity model for these ${width} features`)
  checkedModels.add(model)
  return model
}

/**
 * Reads a pair with one run of the embedding graph (both texts, without links and addresses, and their content words
 * embedded together).
 */
export async function readPair(run: GraphRunner, vocabulary: EmbeddingVocabulary, text1: string, text2: string): Promise<PairReading & { vectors: number[][] }> {
  const [read1, read2] = [readSide(text1), readSide(text2)]
  const words1 = contentWords(read1.words)
  const words2 = contentWords(read2.words)
  const [plain1, plain2] = [text1, text2].map((text) => text.replace(ADDRESSES, ' '))
  const vectors = await embedTexts(run, [plain1!, plain2!, ...words1, ...words2], vocabulary)
  const wordVectors1 = vectors.slice(2, 2 + words1.length)
  const wordVectors2 = vectors.slice(2 + words1.length)
  const ranks = vocabularyIds(vocabulary)
  return {
    read1,
    read2,
    vectors: vectors.slice(0, 2),
    cosine: cosineSimilarity(vectors[0]!, vectors[1]!),
    words1,
    words2,
    matches: wordVectors1.map((a) => wordVectors2.map((b) => cosineSimilarity(a, b))),
    ranks1: words1.map((w) => ranks.get(w) ?? 0),
    ranks2: words2.map((w) => ranks.get(w) ?? 0),
    known: ranks,
  }
}
