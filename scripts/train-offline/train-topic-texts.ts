/**
 * The restricted-topic engine's text classifier (`topic.texts.json`): for each default label, a logistic regression
 * over the hashed words, word pairs and character n-grams of a text (`topicTextFeatures`), stacked on the score of
 * the terms and embeddings (`topic.onnx`): score = sigmoid(a * logit(engine score) + b * text logit + c), a, b and c
 * per label. Trained on texts written for this classifier (scripts/train-offline/written-texts/restricted-topic/, five
 * writers who saw only the label definitions in that folder's README, never an evaluation set) and on everyday prose.
 * The stacking weights are fitted on out-of-fold text logits, so they learn how far the classifier holds up on texts
 * it has not seen.
 */
import fs from 'node:fs'
import path from 'node:path'
import { offlineFolder } from '@/lib/moderation/engines/offline-graphs'
import { EMBEDDING_VOCABULARY, embedText, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import {
  DEFAULT_TOPIC_LABELS,
  termAndEmbeddingScores,
  TOPIC_EXPANSIONS,
  TOPIC_TEXT_CLASSIFIER,
  TOPIC_TEXT_HASH_BITS,
  TOPIC_TEXT_MAX_CHARS,
  topicTextFeatures,
  type TopicExpansionsFile,
  type TopicTextClassifierFile,
} from '@/lib/moderation/offline/restricted-topic'
import { trainDense } from './dense-logistic'
import { fnv1a } from '@/lib/moderation/offline/hashing'
import { fortunes, packageProse, sentences } from './corpora'
import { log, OFFLINE_MODELS_DIR } from './output'
import { seededRandom, shuffle } from './random'
import { trainSparseLogistic, sparseLogit, type SparseRow } from './sparse-logistic'

export const TOPIC_TEXTS_DIR = path.resolve('scripts/train-offline/written-texts/restricted-topic')
const FOLDS = 5
const TRAINING = { dimensions: 2 ** TOPIC_TEXT_HASH_BITS, epochs: 20, learningRate: 0.5, l2: 1e-5, seed: 25 }

type WrittenText = { text: string; topics: string[]; family: string; lang?: string }

/**
 * Everyday prose as off-topic texts (fortunes and the documentation of installed packages, as the topic calibration
 * reads them): the written texts' negatives are mostly chosen to look like the topics, so without plain prose the
 * classifier reads politics, government and "the public" as terrorism. A quarter of the sentences (by a hash of their
 * text) are never trained on, so that the false positives on everyday prose can be measured on sentences it has not
 * seen (`heldOutProse`). They also bring the share of off-topic texts near what a deployment sees (the written texts
 * are about half on topic), which is where the stacking puts its threshold of 0.5.
 */
export const PROSE_NEGATIVES = 2500
const proseHeldOut = (sentence: string) => fnv1a(sentence) % 4 === 0
function everydayProse(): string[] {
  const all = [...new Set([...fortunes().flatMap(sentences), ...packageProse().flatMap(sentences)])].filter((s) => s.length >= 15 && s.length <= 400)
  return shuffle(all.sort(), seededRandom(25))
}
export function heldOutProse(count: number): string[] {
  return everydayProse().filter(proseHeldOut).slice(0, count)
}

export function writtenTopicTexts(): WrittenText[] {
  return fs
    .readdirSync(TOPIC_TEXTS_DIR)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) =>
      fs
        .readFileSync(path.join(TOPIC_TEXTS_DIR, name), 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as WrittenText),
    )
}

const logit = (p: number) => {
  const q = Math.min(Math.max(p, 1e-6), 1 - 1e-6)
  return Math.log(q / (1 - q))
}

const TOPIC_TEXT_LABELS: readonly string[] = DEFAULT_TOPIC_LABELS

export async function trainTopicTexts(): Promise<void> {
  const written = writtenTopicTexts()
  const prose = everydayProse()
    .filter((sentence) => !proseHeldOut(sentence))
    .slice(0, PROSE_NEGATIVES)
  const texts: WrittenText[] = [...written, ...prose.map((text) => ({ text, topics: [], family: 'everyday prose' }))]
  log(`restrictedTopic texts: ${written.length} written texts (${TOPIC_TEXT_LABELS.map((l) => `${written.filter((t) => t.topics.includes(l)).length} on ${l}`).join(', ')}) and ${prose.length} sentences of everyday prose`)
  const features = texts.map((t) => topicTextFeatures(t.text).entries())
  const rowsFor = (label: string, keep: (i: number) => boolean): SparseRow[] =>
    texts.flatMap((t, i) => (keep(i) ? [{ features: features[i]!, label: t.topics.includes(label) ? (1 as const) : (0 as const) }] : []))

  // The engine's own scores, from the topic graph just trained.
  const { runGraph, json } = offlineFolder(OFFLINE_MODELS_DIR)
  const vocabulary = json<EmbeddingVocabulary>(EMBEDDING_VOCABULARY)
  const prototypes = new Map<string, Promise<number[]>>()
  const model = {
    run: runGraph,
    expansions: json<TopicExpansionsFile>(TOPIC_EXPANSIONS),
    vocabulary,
    prototypeEmbedding: (prototype: string) => prototypes.get(prototype) ?? prototypes.set(prototype, embedText(runGraph, prototype, vocabulary)).get(prototype)!,
  }
  const engineLogits: number[][] = []
  for (const t of texts) engineLogits.push((await termAndEmbeddingScores(model, t.text, [...TOPIC_TEXT_LABELS])).map(logit))

  const stack = { a: [] as number[], b: [] as number[], c: [] as number[] }
  const table = new Float32Array(2 ** TOPIC_TEXT_HASH_BITS * TOPIC_TEXT_LABELS.length)
  for (const [li, label] of TOPIC_TEXT_LABELS.entries()) {
    const outOfFold = new Array<number>(texts.length)
    for (let fold = 0; fold < FOLDS; fold++) {
      const weights = trainSparseLogistic(rowsFor(label, (i) => i % FOLDS !== fold), TRAINING)
      texts.forEach((_, i) => {
        if (i % FOLDS === fold) outOfFold[i] = sparseLogit(weights, features[i]!)
      })
    }
    const x: number[][] = []
    const y: number[] = []
    texts.forEach((t, i) => {
      x.push([engineLogits[i]![li]!, outOfFold[i]!])
      y.push(t.topics.includes(label) ? 1 : 0)
    })
    const fitted = trainDense(x, y, 3000, 0.1, 0)
    const weights = trainSparseLogistic(rowsFor(label, () => true), TRAINING)
    const [a, b] = fitted.weights as [number, number]
    // The classifier's bias (id 0) is folded into c, so the quantized table holds only the features' weights.
    stack.a.push(a)
    stack.b.push(b)
    stack.c.push(fitted.bias + b * weights[0]!)
    for (let id = 1; id < weights.length; id++) table[id * TOPIC_TEXT_LABELS.length + li] = weights[id]!
    log(`  ${label}: score = sigmoid(${a.toFixed(3)} * engine logit + ${b.toFixed(3)} * text logit + ${stack.c[li]!.toFixed(3)})`)
  }
  let largest = 0
  for (const w of table) largest = Math.max(largest, Math.abs(w))
  const scale = largest / 127
  const quantized = Uint8Array.from(table, (w) => Math.max(0, Math.min(255, Math.round(w / scale) + 128)))
  const file: TopicTextClassifierFile & Record<string, unknown> = {
    labels: [...TOPIC_TEXT_LABELS],
    hashBits: TOPIC_TEXT_HASH_BITS,
    scale,
    ...stack,
    features: `hashed words, word pairs and character 3-5-grams of the first ${TOPIC_TEXT_MAX_CHARS} characters, log counts, unit length`,
    stacking: { formula: 'sigmoid(a * logit(topic.onnx score) + b * text logit + c)', folds: FOLDS },
    training: {
      writtenTexts: written.length,
      proseSentences: prose.length,
      ...Object.fromEntries(TOPIC_TEXT_LABELS.map((l) => [l, written.filter((t) => t.topics.includes(l)).length])),
      ...TRAINING,
    },
    weights: Buffer.from(quantized).toString('base64'),
  }
  fs.writeFileSync(path.join(OFFLINE_MODELS_DIR, TOPIC_TEXT_CLASSIFIER), `${JSON.stringify(file)}\n`)
  log(`  wrote ${TOPIC_TEXT_CLASSIFIER} (${(fs.statSync(path.join(OFFLINE_MODELS_DIR, TOPIC_TEXT_CLASSIFIER)).size / 1024).toFixed(0)} KiB)`)
}
