/**
 * Trains a classifier of whole texts to stack on an engine's score (lib/moderation/offline/stacked-text-classifier.ts):
 * per label, a logistic regression over `textClassifierFeatures`, then a, b and c of
 * sigmoid(a * logit(engine probability) + b * text logit + c), fitted on text logits of folds that leave one writer
 * out, read sentence by sentence as the engine reads them. So the stacking learns how far the classifier holds up on a
 * writer it has never seen, not on near-paraphrases of its own training texts.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fnv1a } from '@/lib/moderation/offline/hashing'
import {
  logit,
  textLanguage,
  TEXT_CLASSIFIER_HASH_BITS,
  TEXT_CLASSIFIER_WINDOW_CHARS,
  textClassifierFeatures,
  textClassifierWindows,
  type StackedTextClassifierFile,
} from '@/lib/moderation/offline/stacked-text-classifier'
import { fortunes, packageProse, sentences } from './corpora'
import { trainDense } from './dense-logistic'
import { rocAuc } from './metrics'
import { log, OFFLINE_MODELS_DIR } from './output'
import { seededRandom, shuffle } from './random'
import { sparseLogit, trainSparseLogistic, type SparseRow } from './sparse-logistic'

/**
 * AdaGrad over the hashed features. The L2 decay (per check, chosen on its development sets) is strong, 1e-3 to 3e-3,
 * because a writer's incidental words ("the city", "group", "members" beside attacks) are otherwise learned as
 * evidence, and a classifier that holds up on writers left out earns more weight in the stacking.
 */
const TEXT_CLASSIFIER_TRAINING = { dimensions: 2 ** TEXT_CLASSIFIER_HASH_BITS, epochs: 20, learningRate: 0.5, seed: 25 }

/** One training text: who wrote it (a writer's texts form one fold; null spreads a text over every fold), its labels. */
type StackingText = { text: string; writer: string | null; labels: string[] }

/** The highest logit of the text's windows under float weights (what `readText` does with the quantized ones). */
function windowedLogit(weights: Float32Array, text: string): number {
  return textClassifierWindows(text).reduce((best, window) => Math.max(best, sparseLogit(weights, textClassifierFeatures(window).entries())), -Infinity)
}

/**
 * The stackings to fit, each with how many times a negative text counts in its fit (to move its threshold of 0.5 where
 * a check's false alarms cost more than its misses): `english` over every text but those in another language alone
 * (over every text where `other` is null), `other` over the texts in another language and the mixed ones
 * (`textLanguage`); null: not fitted.
 */
type StackingFits = { english: number | null; other: number | null }
type Stacking = { a: number[]; b: number[]; c: number[] }

/** The classifier of each label (its quantized table) and the stackings asked for. */
function trainStackedTextClassifier(
  labels: readonly string[],
  texts: StackingText[],
  engineProbabilities: number[][],
  l2: number,
  fits: StackingFits,
): { scale: number; weights: string; english?: Stacking; other?: Stacking; folds: string[] } {
  const training = { ...TEXT_CLASSIFIER_TRAINING, l2 }
  const features = texts.map((t) => textClassifierFeatures(t.text).entries())
  const writers = [...new Set(texts.flatMap((t) => (t.writer === null ? [] : [t.writer])))].sort()
  if (writers.length < 2) throw new Error('stacking needs the texts of at least two writers')
  let spread = 0
  const foldOf = texts.map((t) => (t.writer === null ? spread++ % writers.length : writers.indexOf(t.writer)))
  const rowsFor = (l: number, keep: (i: number) => boolean): SparseRow[] =>
    texts.flatMap((t, i) => (keep(i) ? [{ features: features[i]!, label: t.labels.includes(labels[l]!) ? (1 as const) : (0 as const) }] : []))
  const language = texts.map((t) => (fits.other === null ? 'english' : textLanguage(t.text)))
  const english = { name: fits.other === null ? '' : ', English', negativeWeight: fits.english, inGroup: (i: number) => language[i] !== 'other', stacking: { a: [], b: [], c: [] } as Stacking }
  // A mixed text is read both ways at run time, so each stacking is fitted on the mixed texts too.
  const other = { name: ', other languages', negativeWeight: fits.other, inGroup: (i: number) => language[i] !== 'english', stacking: { a: [], b: [], c: [] } as Stacking }
  const groups = [english, other].filter((group) => group.negativeWeight !== null)

  const table = new Float32Array(2 ** TEXT_CLASSIFIER_HASH_BITS * labels.length)
  for (let l = 0; l < labels.length; l++) {
    const outOfFold = new Array<number>(texts.length)
    for (let fold = 0; fold < writers.length; fold++) {
      const weights = trainSparseLogistic(
        rowsFor(l, (i) => foldOf[i] !== fold),
        training,
      )
      texts.forEach((t, i) => {
        if (foldOf[i] === fold) outOfFold[i] = windowedLogit(weights, t.text)
      })
    }
    const weights = trainSparseLogistic(rowsFor(l, () => true), training)
    for (let id = 1; id < weights.length; id++) table[id * labels.length + l] = weights[id]!
    for (const { name, negativeWeight, inGroup, stacking } of groups) {
      const members = texts.flatMap((_, i) => (inGroup(i) ? [i] : []))
      const x = members.map((i) => [logit(engineProbabilities[i]![l]!), outOfFold[i]!])
      const y = members.map((i) => (texts[i]!.labels.includes(labels[l]!) ? 1 : 0))
      const fitted = trainDense(x, y, 3000, 0.1, 0, y.map((positive) => (positive ? 1 : negativeWeight!)))
      const [a, b] = fitted.weights as [number, number]
      stacking.a.push(a)
      stacking.b.push(b)
      // The classifier's bias (id 0) is folded into c, so the quantized table holds only the features' weights.
      stacking.c.push(fitted.bias + b * weights[0]!)
      log(`  ${labels[l]}${name} (${members.length} texts): score = sigmoid(${a.toFixed(3)} * engine logit + ${b.toFixed(3)} * text logit + ${stacking.c[l]!.toFixed(3)})`)
      // How well it ranks the group's written texts, from the folds' logits (which hold each fold classifier's bias).
      const written = members.filter((i) => texts[i]!.writer !== null)
      const scores = written.map((i) => a * logit(engineProbabilities[i]![l]!) + b * outOfFold[i]! + fitted.bias)
      const truth = written.map((i) => texts[i]!.labels.includes(labels[l]!))
      const flagged = (positive: boolean) => `${scores.filter((score, k) => truth[k] === positive && score >= 0).length}/${truth.filter((t) => t === positive).length}`
      if (truth.some(Boolean) && truth.some((t) => !t)) log(`    its written texts (${written.length}): out-of-fold AUC ${rocAuc(scores, truth).toFixed(3)}, caught ${flagged(true)}, false alarms ${flagged(false)}`)
    }
  }
  let largest = 0
  for (const w of table) largest = Math.max(largest, Math.abs(w))
  const scale = largest / 127
  const quantized = Uint8Array.from(table, (w) => Math.max(0, Math.min(255, Math.round(w / scale) + 128)))
  return {
    scale,
    weights: Buffer.from(quantized).toString('base64'),
    english: fits.english !== null ? english.stacking : undefined,
    other: fits.other !== null ? other.stacking : undefined,
    folds: writers,
  }
}

/**
 * Everyday prose as negative texts (fortunes and the documentation of installed packages): written negatives are
 * mostly chosen to look like the positives, so without plain prose a classifier learns the words of ordinary
 * sentences as evidence ("the government", "the public" read as terrorism). A quarter of the sentences (by a hash of
 * their text) are never trained on, so that false positives on everyday prose can be measured on sentences no
 * classifier has seen (`heldOutProse`). They also bring the share of negatives near what a deployment sees (written
 * sets are about half positive), which is where the stacking puts its threshold of 0.5.
 */
const proseHeldOut = (sentence: string) => fnv1a(sentence) % 4 === 0
function everydayProse(): string[] {
  const all = [...new Set([...fortunes().flatMap(sentences), ...packageProse().flatMap(sentences)])].filter((s) => s.length >= 15 && s.length <= 400)
  return shuffle(all.sort(), seededRandom(25))
}
function trainingProse(count: number): string[] {
  return everydayProse()
    .filter((sentence) => !proseHeldOut(sentence))
    .slice(0, count)
}
export function heldOutProse(count: number): string[] {
  return everydayProse().filter(proseHeldOut).slice(0, count)
}

/** The JSON-lines files of a folder of written texts, each line with the name of the file it came from (its writer). */
export function writtenTexts<T>(folder: string): (T & { writer: string })[] {
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) =>
      fs
        .readFileSync(path.join(folder, name), 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => ({ ...(JSON.parse(line) as T), writer: name.replace(/\.jsonl$/, '') })),
    )
}

/** What a check's stacked classifier is trained from, and where it is written. */
export type StackedTextClassifierTraining = {
  check: string
  /** The classifier's file in public/models/offline. */
  file: string
  labels: readonly string[]
  /** The written texts (one writer a file) with each text's labels. */
  written: { text: string; writer: string; labels: string[] }[]
  /** The engine's probability for each label of a text, as the engine gives it before the stacking. */
  engineProbabilities: (text: string) => Promise<number[]>
  l2: number
  negativeWeight?: number
  /** One stacking for texts in English and one for texts in another language (`textLanguage`). */
  byLanguage?: boolean
  /**
   * Where given, texts that read as English are read by a classifier of these writers' texts alone, stacked over all of
   * them, and texts in other languages by one of every writer's texts, stacked over those in other languages (implies
   * byLanguage).
   */
  englishWriters?: readonly string[]
  /** negativeWeight of the other languages' stacking, where it differs. */
  otherLanguagesNegativeWeight?: number
  /** What the stacking reads, said in the file. */
  stacking: string
}

/** Everyday prose sentences trained as negatives beside the written texts (a quarter of all are kept out: `heldOutProse`). */
const PROSE_NEGATIVES = 2500

export async function writeStackedTextClassifier(training: StackedTextClassifierTraining): Promise<void> {
  const { check, file, labels, written, l2, negativeWeight = 1, englishWriters, otherLanguagesNegativeWeight = negativeWeight } = training
  const byLanguage = training.byLanguage ?? englishWriters !== undefined
  const prose = trainingProse(PROSE_NEGATIVES)
  const texts: StackingText[] = [...written, ...prose.map((text) => ({ text, writer: null, labels: [] }))]
  log(`${check} texts: ${written.length} written texts (${labels.map((l) => `${written.filter((t) => t.labels.includes(l)).length} ${l}`).join(', ')}) and ${prose.length} sentences of everyday prose`)
  const engineProbabilities: number[][] = []
  for (const t of texts) engineProbabilities.push(await training.engineProbabilities(t.text))
  let classifier: StackedTextClassifierFile & { folds: string[]; otherLanguageFolds?: string[] }
  if (englishWriters) {
    const unknown = englishWriters.filter((writer) => !written.some((t) => t.writer === writer))
    if (unknown.length) throw new Error(`no written texts of ${unknown.join(', ')}`)
    // Every writer's texts train the classifier of other languages; the English one reads its writers' texts alone,
    // stacked over all of them, as it was before texts of other languages were added.
    const all = trainStackedTextClassifier(labels, texts, engineProbabilities, l2, { english: null, other: otherLanguagesNegativeWeight })
    log(`  the English classifier: the texts of ${englishWriters.length} writers`)
    const keep = texts.flatMap((t, i) => (t.writer === null || englishWriters.includes(t.writer) ? [i] : []))
    const english = trainStackedTextClassifier(labels, keep.map((i) => texts[i]!), keep.map((i) => engineProbabilities[i]!), l2, { english: negativeWeight, other: null })
    classifier = { labels: [...labels], hashBits: TEXT_CLASSIFIER_HASH_BITS, scale: english.scale, weights: english.weights, ...english.english!, folds: english.folds, otherLanguages: { ...all.other!, scale: all.scale, weights: all.weights }, otherLanguageFolds: all.folds }
  } else {
    const one = trainStackedTextClassifier(labels, texts, engineProbabilities, l2, { english: negativeWeight, other: byLanguage ? otherLanguagesNegativeWeight : null })
    classifier = { labels: [...labels], hashBits: TEXT_CLASSIFIER_HASH_BITS, scale: one.scale, weights: one.weights, ...one.english!, ...(one.other ? { otherLanguages: one.other } : {}), folds: one.folds }
  }
  const content = {
    ...classifier,
    features: `hashed words, word pairs and character 3-5-grams, log counts, unit length; read sentence by sentence (a sentence over ${TEXT_CLASSIFIER_WINDOW_CHARS} characters cut at spaces), the highest sentence kept`,
    stacking: `${training.stacking}, fitted on logits of folds that leave one writer out${byLanguage ? '; a, b and c for texts in English, otherLanguages for texts in another language, the higher of both for a mixed text' : ''}${englishWriters ? `; English is read by a classifier of the writers ${englishWriters.join(', ')} alone, stacked over all their texts, other languages by otherLanguages.weights, of every writer` : ''}`,
    training: {
      writtenTexts: written.length,
      ...Object.fromEntries(labels.map((l) => [l, written.filter((t) => t.labels.includes(l)).length])),
      proseSentences: prose.length,
      ...TEXT_CLASSIFIER_TRAINING,
      l2,
      negativeWeight,
      byLanguage,
      ...(englishWriters ? { englishWriters, otherLanguagesNegativeWeight } : {}),
    },
  }
  fs.writeFileSync(path.join(OFFLINE_MODELS_DIR, file), `${JSON.stringify(content)}\n`)
  log(`  wrote ${file} (${(fs.statSync(path.join(OFFLINE_MODELS_DIR, file)).size / 1024).toFixed(0)} KiB)`)
}
