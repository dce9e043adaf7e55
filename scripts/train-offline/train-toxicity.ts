import { DataType, GraphBuilder } from '@/lib/onnx'
import { TOXICITY_FEATURES, TOXICITY_GRAPH, TOXICITY_OUTPUTS, TOXICITY_THRESHOLD, toxicityFeatures } from '@/lib/moderation/offline/toxicity'
import { fortunes, sentences, wordnetGlosses, packageProse } from './corpora'
import { trainDense } from './dense-logistic'
import { OPSET } from './graphs'
import { log, writeModel } from './output'
import { seededRandom, shuffle } from './random'
import { toxicityTrainingSet } from './toxicity-data'
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

/** scores = sigmoid(features · weights + bias), one column per metric. */
function toxicityGraph(weights: number[][], biases: number[]): Uint8Array {
  const g = new GraphBuilder('toxicity')
  const features = g.input('features', DataType.FLOAT, [TOXICITY_FEATURES.length], `${TOXICITY_FEATURES.length} lexicon, pattern and sentiment features, named in toxicity.json`)
  // The first initializer written holds zero bytes (int64 0) within the file's first 512 bytes: that is how the hub (like
  // Hugging Face's preupload) tells a binary file, stored as LFS, from text. Float weights have zero bytes only by chance.
  const axis0 = g.int64s([0])
  const matrix = g.initializer('head_weights', {
    dataType: DataType.FLOAT,
    dims: [TOXICITY_FEATURES.length, TOXICITY_OUTPUTS.length],
    data: Float32Array.from(TOXICITY_FEATURES.flatMap((_, j) => weights.map((w) => w[j]))),
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
  const rows = toxicityTrainingSet(prose, 12000, 42, adjectives)
  log(`toxicity: features of ${rows.length} generated texts (${rows.filter((r) => r.labels[0]).length} toxic)`)
  const x = rows.map((r) => toxicityFeatures(r.text))
  const weights: number[][] = []
  const biases: number[] = []
  TOXICITY_OUTPUTS.forEach((metric, m) => {
    const { weights: w, bias } = trainDense(x, rows.map((r) => r.labels[m]), 1500, 1, 1e-3)
    weights.push(w)
    biases.push(bias)
    log(`  ${metric}: bias ${bias.toFixed(2)}; strongest ${TOXICITY_FEATURES.map((f, j) => [f, w[j]] as const).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([f, v]) => `${f} ${v.toFixed(2)}`).join(', ')}`)
  })
  writeModel(TOXICITY_GRAPH, toxicityGraph(weights, biases), {
    check: 'toxicity',
    engine: 'offline:toxicity-lexicon-lr',
    graph: TOXICITY_GRAPH,
    outputs: TOXICITY_OUTPUTS,
    threshold: TOXICITY_THRESHOLD,
    features: TOXICITY_FEATURES,
    lexicons: 'obscenity 0.4.6 English dataset with its recommended transformers (MIT); cuss 2.2.0 en/es/fr/it/pt ratings (MIT); phrase families written for this project',
    heads: Object.fromEntries(TOXICITY_OUTPUTS.map((metric, m) => [metric, { bias: biases[m], weights: Object.fromEntries(TOXICITY_FEATURES.map((f, j) => [f, weights[m][j]])) }])),
    training: { generatedTexts: rows.length, toxic: rows.filter((r) => r.labels[0]).length, proseSentences: prose.length },
  })
}
