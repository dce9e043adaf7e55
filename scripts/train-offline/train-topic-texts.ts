/**
 * The restricted-topic engine's text classifier (`topic.texts.json`, stacked-text-classifier.ts) for the default
 * labels, stacked on the score of the terms and embeddings (`topic.onnx`). Trained on texts written for it
 * (scripts/train-offline/written-texts/restricted-topic/: writers who saw only the label definitions in that folder's
 * README, never an evaluation set), each writer's texts one fold of the stacking, and on everyday prose.
 */
import path from 'node:path'
import { offlineFolder } from '@/lib/moderation/engines/offline-graphs'
import { EMBEDDING_VOCABULARY, embedText, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import { DEFAULT_TOPIC_LABELS, termAndEmbeddingScores, TOPIC_EXPANSIONS, TOPIC_TEXT_CLASSIFIER, type TopicExpansionsFile } from '@/lib/moderation/offline/restricted-topic'
import { OFFLINE_MODELS_DIR } from './output'
import { writeStackedTextClassifier, writtenTexts } from './stacked-text-classifier'

export const TOPIC_TEXTS_DIR = path.resolve('scripts/train-offline/written-texts/restricted-topic')
/** Chosen on the development set (bench/offline/TUNING-issue18.md, twenty-fifth round, runs 258-263). */
const L2 = 3e-3

/**
 * The twenty-fifth round's writers, whose texts alone train the classifier that reads English texts (as it shipped,
 * frozen AUC 0.967); texts in other languages are read by one of every writer's texts (twenty-eighth round: two more
 * writers in 42 languages), stacked over their texts in other languages.
 */
const ENGLISH_WRITERS = ['written-a-typed', 'written-b-documents', 'written-c-languages', 'written-d-boundaries', 'written-e-lookalikes', 'written-f-civic-and-faith']
/** Off-topic texts in other languages count 2.5 times in their stacking: its folds' false alarms then match the English ones' (1.7-2.0% against 2.0-2.1%; 8% with 1). */
const OTHER_LANGUAGES_NEGATIVE_WEIGHT = 2.5

export async function trainTopicTexts(): Promise<void> {
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
  await writeStackedTextClassifier({
    check: 'restrictedTopic',
    file: TOPIC_TEXT_CLASSIFIER,
    labels: DEFAULT_TOPIC_LABELS,
    written: writtenTexts<{ text: string; topics: string[] }>(TOPIC_TEXTS_DIR).map((t) => ({ text: t.text, writer: t.writer, labels: t.topics })),
    engineProbabilities: (text) => termAndEmbeddingScores(model, text, [...DEFAULT_TOPIC_LABELS]),
    l2: L2,
    englishWriters: ENGLISH_WRITERS,
    otherLanguagesNegativeWeight: OTHER_LANGUAGES_NEGATIVE_WEIGHT,
    stacking: 'sigmoid(a * logit(topic.onnx score) + b * text logit + c)',
  })
}
