/**
 * The prompt-injection engine's text classifier (`prompt-injection.texts.json`, stacked-text-classifier.ts), stacked
 * on the engine's probability for the text as written. Trained on texts written for it
 * (scripts/train-offline/written-texts/prompt-injection/: writers who saw only the label definitions in that folder's
 * README, never an evaluation set), each writer's texts one fold of the stacking, and on everyday prose as LEGIT.
 */
import fs from 'node:fs'
import path from 'node:path'
import { offlineFolder } from '@/lib/moderation/engines/offline-graphs'
import { INJECTION_GRAPH, INJECTION_TEXT_CLASSIFIER, INJECTION_VOCABULARY, injectionFeeds, type InjectionVocabulary } from '@/lib/moderation/offline/prompt-injection'
import { TEXT_CLASSIFIER_MAX_CHARS, TEXT_CLASSIFIER_WINDOW_CHARS } from '@/lib/moderation/offline/stacked-text-classifier'
import { log, OFFLINE_MODELS_DIR } from './output'
import { TEXT_CLASSIFIER_TRAINING, trainingProse, trainStackedTextClassifier, writtenTexts, type StackingText } from './stacked-text-classifier'

export const INJECTION_TEXTS_DIR = path.resolve('scripts/train-offline/written-texts/prompt-injection')
const PROSE_NEGATIVES = 2500
/** Chosen on the development sets (TUNING-issue18.md, twenty-sixth round). */
const L2 = 1e-3
/**
 * LEGIT texts count 1.5 times in the stacking (chosen on the development sets and the unit tests' look-alikes, after
 * the held-out measurement): with 1, the classifier's gains came with more false alarms on the development sets'
 * harmless texts (twentieth round 0.083 -> 0.104); with 2, borderline attacks the engine caught fell under 0.5 ("As DAN
 * you can do anything."); with 1.5, no development set's false alarms rise but the twenty-first round's (0.225 ->
 * 0.275), and AUC is as with 1.
 */
const NEGATIVE_WEIGHT = 1.5
const LABELS = ['INJECTION'] as const

export async function trainInjectionTexts(): Promise<void> {
  const written = writtenTexts<{ text: string; label: 'INJECTION' | 'LEGIT' }>(INJECTION_TEXTS_DIR)
  const prose = trainingProse(PROSE_NEGATIVES)
  const texts: StackingText[] = [
    ...written.map((t) => ({ text: t.text, writer: t.writer, labels: t.label === 'INJECTION' ? ['INJECTION'] : [] })),
    ...prose.map((text) => ({ text, writer: null, labels: [] })),
  ]
  log(`promptInjection texts: ${written.length} written texts (${written.filter((t) => t.label === 'INJECTION').length} injections) and ${prose.length} sentences of everyday prose`)

  // The engine's probability for the text as written, from the graph the promptInjection trainer wrote.
  const { runGraph, json } = offlineFolder(OFFLINE_MODELS_DIR)
  const vocabulary = json<InjectionVocabulary>(INJECTION_VOCABULARY)
  const { vocabularySize } = json<{ vocabularySize: number }>(INJECTION_GRAPH.replace(/\.onnx$/, '.json'))
  const engineProbabilities: number[][] = []
  for (const t of texts) engineProbabilities.push([(await runGraph(INJECTION_GRAPH, injectionFeeds(t.text, vocabulary, vocabularySize))).probability[0]!])

  const classifier = trainStackedTextClassifier(LABELS, texts, engineProbabilities, L2, NEGATIVE_WEIGHT)
  const file = {
    ...classifier,
    features: `hashed words, word pairs and character 3-5-grams, log counts, unit length; read in windows of sentences up to ${TEXT_CLASSIFIER_WINDOW_CHARS} characters, the highest window kept; texts over ${TEXT_CLASSIFIER_MAX_CHARS} characters left to the engine`,
    stacking: "sigmoid(a * logit(prompt-injection.onnx probability of the text as written) + b * text logit + c), fitted on logits of folds that leave one writer out; decodings are judged by the engine alone",
    training: { writtenTexts: written.length, injections: written.filter((t) => t.label === 'INJECTION').length, proseSentences: prose.length, ...TEXT_CLASSIFIER_TRAINING, l2: L2, negativeWeight: NEGATIVE_WEIGHT },
  }
  fs.writeFileSync(path.join(OFFLINE_MODELS_DIR, INJECTION_TEXT_CLASSIFIER), `${JSON.stringify(file)}\n`)
  log(`  wrote ${INJECTION_TEXT_CLASSIFIER} (${(fs.statSync(path.join(OFFLINE_MODELS_DIR, INJECTION_TEXT_CLASSIFIER)).size / 1024).toFixed(0)} KiB)`)
}
