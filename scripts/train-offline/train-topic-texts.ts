/**
 * The restricted-topic engine's text classifier (`topic.texts.json`, stacked-text-classifier.ts) for the default
 * labels, stacked on the score of the terms and embeddings (`topic.onnx`). Trained on texts written for it
 * (scripts/train-offline/written-texts/restricted-topic/: writers who saw only the label definitions in that folder's
 * README, never an evaluation set), each writer's texts one fold of the stacking, and on everyday prose.
 */
import fs from 'node:fs'
import path from 'node:path'
import { offlineFolder } from '@/lib/moderation/engines/offline-graphs'
import { EMBEDDING_VOCABULARY, embedText, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import { DEFAULT_TOPIC_LABELS, termAndEmbeddingScores, TOPIC_EXPANSIONS, TOPIC_TEXT_CLASSIFIER, type TopicExpansionsFile } from '@/lib/moderation/offline/restricted-topic'
import { TEXT_CLASSIFIER_MAX_CHARS, TEXT_CLASSIFIER_WINDOW_CHARS } from '@/lib/moderation/offline/stacked-text-classifier'
import { log, OFFLINE_MODELS_DIR } from './output'
import { TEXT_CLASSIFIER_TRAINING, trainingProse, trainStackedTextClassifier, writtenTexts, type StackingText } from './stacked-text-classifier'

export const TOPIC_TEXTS_DIR = path.resolve('scripts/train-offline/written-texts/restricted-topic')
const PROSE_NEGATIVES = 2500
/** Chosen on the development sets (TUNING-issue18.md, twenty-fifth round). */
const L2 = 3e-3

export async function trainTopicTexts(): Promise<void> {
  const labels = DEFAULT_TOPIC_LABELS
  const written = writtenTexts<{ text: string; topics: string[] }>(TOPIC_TEXTS_DIR)
  const prose = trainingProse(PROSE_NEGATIVES)
  const texts: StackingText[] = [...written.map((t) => ({ text: t.text, writer: t.writer, labels: t.topics })), ...prose.map((text) => ({ text, writer: null, labels: [] }))]
  log(`restrictedTopic texts: ${written.length} written texts (${labels.map((l) => `${written.filter((t) => t.topics.includes(l)).length} on ${l}`).join(', ')}) and ${prose.length} sentences of everyday prose`)

  // The engine's own scores, from the topic graph the restrictedTopic trainer wrote.
  const { runGraph, json } = offlineFolder(OFFLINE_MODELS_DIR)
  const vocabulary = json<EmbeddingVocabulary>(EMBEDDING_VOCABULARY)
  const prototypes = new Map<string, Promise<number[]>>()
  const model = {
    run: runGraph,
    expansions: json<TopicExpansionsFile>(TOPIC_EXPANSIONS),
    vocabulary,
    prototypeEmbedding: (prototype: string) => prototypes.get(prototype) ?? prototypes.set(prototype, embedText(runGraph, prototype, vocabulary)).get(prototype)!,
  }
  const engineProbabilities: number[][] = []
  for (const t of texts) engineProbabilities.push(await termAndEmbeddingScores(model, t.text, [...labels]))

  const classifier = trainStackedTextClassifier(labels, texts, engineProbabilities, L2)
  const file = {
    ...classifier,
    features: `hashed words, word pairs and character 3-5-grams, log counts, unit length; read in windows of sentences up to ${TEXT_CLASSIFIER_WINDOW_CHARS} characters, the highest window kept; texts over ${TEXT_CLASSIFIER_MAX_CHARS} characters left to the engine`,
    stacking: 'sigmoid(a * logit(topic.onnx score) + b * text logit + c), fitted on logits of folds that leave one writer out',
    training: { writtenTexts: written.length, proseSentences: prose.length, ...Object.fromEntries(labels.map((l) => [l, written.filter((t) => t.topics.includes(l)).length])), ...TEXT_CLASSIFIER_TRAINING, l2: L2 },
  }
  fs.writeFileSync(path.join(OFFLINE_MODELS_DIR, TOPIC_TEXT_CLASSIFIER), `${JSON.stringify(file)}\n`)
  log(`  wrote ${TOPIC_TEXT_CLASSIFIER} (${(fs.statSync(path.join(OFFLINE_MODELS_DIR, TOPIC_TEXT_CLASSIFIER)).size / 1024).toFixed(0)} KiB)`)
}
