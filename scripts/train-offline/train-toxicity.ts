import { DataType, GraphBuilder } from '@/lib/onnx'
import {
  TOXICITY_FEATURES,
  TOXICITY_GRAPH,
  TOXICITY_INPUT_SIZE,
  TOXICITY_NGRAM_BITS,
  TOXICITY_OUTPUTS,
  TOXICITY_THRESHOLD,
  toxicityFeatures,
  toxicityNgrams,
} from '@/lib/moderation/offline/toxicity'
import { fortunes, sentences, wordnetGlosses, packageProse } from './corpora'
import { OPSET } from './graphs'
import { log, writeModel } from './output'
import { pick, seededRandom, shuffle } from './random'
import { toxicityTrainingSet, type ToxicityLabels } from './toxicity-data'
import { toxicityFamilyRows } from './toxicity-families'
import { wordnetSynsets } from './wordnet'
import { lexicon as vaderLexicon } from 'vader-sentiment/src/vader_lexicon.js'

/** Adjectives that VADER rates strongly negative (-1.5 or lower), as WordNet lists them: "repulsive", "vile", "incompetent". */
function negativeAdjectives(): string[] {
  const adjectives = new Set([...wordnetSynsets().values()].filter((s) => s.pos === 'a').flatMap((s) => s.lemmas))
  return Object.entries(vaderLexicon)
    .filter(([word, valence]) => valence <= -1.5 && /^[a-z]+$/.test(word) && adjectives.has(word))
    .map(([word]) => word)
    .sort()
}

/** Generated texts of the families lexicons miss, with their hard negatives (toxicity-families.ts). */
const FAMILY_ROWS = 6000

type SparseInput = { ids: Int32Array; values: Float32Array }

function sparseInput(text: string): SparseInput {
  const pairs: [number, number][] = toxicityFeatures(text).map((v, j) => [j, v] as [number, number]).filter(([, v]) => v !== 0)
  for (const [bucket, value] of toxicityNgrams(text)) pairs.push([TOXICITY_FEATURES.length + bucket, value])
  return { ids: Int32Array.from(pairs, (p) => p[0]), values: Float32Array.from(pairs, (p) => p[1]) }
}

/**
 * Seven logistic heads by full-batch gradient descent over sparse inputs (the named features are dense, the
 * n-grams a few dozen buckets of 4,096). The named features keep the step and L2 of the earlier dense trainer;
 * an n-gram bucket is seen by few texts, so its step is 20 times larger and its L2 ten times smaller (set once, not tuned).
 */
function trainHeads(x: SparseInput[], labels: number[][], epochs: number): { weights: Float64Array[]; biases: number[] } {
  const heads = TOXICITY_OUTPUTS.length
  const weights = Array.from({ length: heads }, () => new Float64Array(TOXICITY_INPUT_SIZE))
  const biases = new Array(heads).fill(0)
  const named = TOXICITY_FEATURES.length
  const z = new Float64Array(heads)
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gradients = Array.from({ length: heads }, () => new Float64Array(TOXICITY_INPUT_SIZE))
    const biasGradients = new Float64Array(heads)
    x.forEach(({ ids, values }, i) => {
      for (let m = 0; m < heads; m++) {
        let s = biases[m]
        const w = weights[m]
        for (let k = 0; k < ids.length; k++) s += w[ids[k]] * values[k]
        z[m] = 1 / (1 + Math.exp(-s)) - labels[i][m]
      }
      for (let m = 0; m < heads; m++) {
        const g = gradients[m]
        const error = z[m]
        for (let k = 0; k < ids.length; k++) g[ids[k]] += error * values[k]
        biasGradients[m] += error
      }
    })
    for (let m = 0; m < heads; m++) {
      const w = weights[m]
      const g = gradients[m]
      for (let j = 0; j < TOXICITY_INPUT_SIZE; j++) {
        const ngram = j >= named
        w[j] -= (ngram ? 20 : 1) * (g[j] / x.length + (ngram ? 1e-4 : 1e-3) * w[j])
      }
      biases[m] -= biasGradients[m] / x.length
    }
  }
  return { weights, biases }
}

/** scores = sigmoid(features · weights + bias), one column per metric. */
function toxicityGraph(weights: ArrayLike<number>[], biases: number[]): Uint8Array {
  const g = new GraphBuilder('toxicity')
  const features = g.input('features', DataType.FLOAT, [TOXICITY_INPUT_SIZE], `${TOXICITY_FEATURES.length} lexicon, pattern and sentiment features named in toxicity.json, then ${2 ** TOXICITY_NGRAM_BITS} hashed word n-gram buckets`)
  // The first initializer written holds zero bytes (int64 0) within the file's first 512 bytes: that is how the hub (like
  // Hugging Face's preupload) tells a binary file, stored as LFS, from text. Float weights have zero bytes only by chance.
  const axis0 = g.int64s([0])
  const matrix = g.initializer('head_weights', {
    dataType: DataType.FLOAT,
    dims: [TOXICITY_INPUT_SIZE, TOXICITY_OUTPUTS.length],
    data: Float32Array.from({ length: TOXICITY_INPUT_SIZE * TOXICITY_OUTPUTS.length }, (_, k) => weights[k % TOXICITY_OUTPUTS.length][Math.floor(k / TOXICITY_OUTPUTS.length)]),
  })
  const bias = g.initializer('head_bias', { dataType: DataType.FLOAT, dims: [TOXICITY_OUTPUTS.length], data: Float32Array.from(biases) })
  const logits = g.op('Add', [g.op('MatMul', [g.op('Unsqueeze', [features, axis0]), matrix]), bias])
  const scores = g.op('Reshape', [g.op('Sigmoid', [logits]), g.int64s([TOXICITY_OUTPUTS.length])])
  g.output(scores, 'scores', DataType.FLOAT, [TOXICITY_OUTPUTS.length], TOXICITY_OUTPUTS.join(', '))
  return g.toBytes({ opset: OPSET, producerName: 'modhub-train-offline', producerVersion: '1', metadata: { check: 'toxicity' } })
}

export async function trainToxicity(): Promise<void> {
  log('toxicity: collecting ordinary prose (fortunes, WordNet examples, READMEs)')
  const random = seededRandom(41)
  const prose = shuffle([...fortunes().flatMap(sentences), ...wordnetGlosses().examples, ...packageProse().flatMap(sentences)], random)
    .filter((s) => s.length >= 3 && s.length <= 300)
    .slice(0, 20000)
  const adjectives = negativeAdjectives()
  log(`toxicity: ${adjectives.length} strongly negative adjectives (VADER x WordNet) for composed insults and their hard negatives`)
  // Eighteenth round: as many more prose sentences as the round added toxic rows, so that ordinary prose keeps its share
  // (without them README paragraphs crept over 0.5: 84 -> 111 of 11,258 texts nobody here wrote).
  const proseRandom = seededRandom(44)
  const moreProse = Array.from({ length: FAMILY_ROWS / 10 }, () => ({ text: pick(prose, proseRandom), labels: [0, 0, 0, 0, 0, 0, 0] as ToxicityLabels }))
  const rows = [...toxicityTrainingSet(prose, 12000, 42, adjectives), ...toxicityFamilyRows(FAMILY_ROWS, 43), ...moreProse]
  log(`toxicity: features of ${rows.length} generated texts (${rows.filter((r) => r.labels[0]).length} toxic)`)
  const x = rows.map((r) => sparseInput(r.text))
  const { weights, biases } = trainHeads(x, rows.map((r) => r.labels), 1500)
  TOXICITY_OUTPUTS.forEach((metric, m) => {
    const w = weights[m]
    log(`  ${metric}: bias ${biases[m].toFixed(2)}; strongest ${TOXICITY_FEATURES.map((f, j) => [f, w[j]] as const).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([f, v]) => `${f} ${v.toFixed(2)}`).join(', ')}`)
  })
  writeModel(TOXICITY_GRAPH, toxicityGraph(weights, biases), {
    check: 'toxicity',
    engine: 'offline:toxicity-lexicon-lr',
    graph: TOXICITY_GRAPH,
    outputs: TOXICITY_OUTPUTS,
    threshold: TOXICITY_THRESHOLD,
    features: TOXICITY_FEATURES,
    lexicons: 'obscenity 0.4.6 English dataset with its recommended transformers (MIT); cuss 2.2.0 en/es/fr/it/pt ratings (MIT); phrase families written for this project',
    ngrams: { bits: TOXICITY_NGRAM_BITS, hashing: 'FNV-1a of "w word" and "b word word" over the de-obfuscated lowercased words, value 1/sqrt(n)' },
    heads: Object.fromEntries(TOXICITY_OUTPUTS.map((metric, m) => [metric, { bias: biases[m], weights: Object.fromEntries(TOXICITY_FEATURES.map((f, j) => [f, weights[m][j]])) }])),
    training: { generatedTexts: rows.length, toxic: rows.filter((r) => r.labels[0]).length, proseSentences: prose.length },
  })
}
