import { z } from 'zod'
import { pythonRound } from '@/lib/moderation/engines/python-round'
import type { TopicClassifier, TopicInput, TopicScores } from '@/lib/moderation/engines/types'
import type { NeuralCheck } from '@/lib/moderation/runtime/manifest'
import { EMBEDDING_GRAPH, EMBEDDING_VOCABULARY, embedText, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import { DEFAULT_TOPIC_LABELS, scoreTopics, TOPIC_EXPANSIONS, TOPIC_GRAPH, TOPIC_TEXT_CLASSIFIER, type TopicExpansionsFile } from '@/lib/moderation/offline/restricted-topic'
import type { StackedTextClassifierFile } from '@/lib/moderation/offline/stacked-text-classifier'
import { zeroShotScores } from '@/lib/moderation/runtime/neural-steps'
import { defineCheck, defineEngine, formatTimeTaken, type OfflineModels } from './check'
import { checkedText, engineField, listOf, timeTaken } from './schema-parts'

/** Label prototypes are embedded once; the bound keeps arbitrary client labels from growing the cache without end. */
const PROTOTYPE_CACHE_SIZE = 2000
const prototypes = new Map<string, Promise<number[]>>()

/** Keyed by the models' id too: another repo revision (or browser device) embeds on its own. */
function prototypeEmbedding(models: OfflineModels, prototype: string): Promise<number[]> {
  const key = `${models.id}\n${prototype}`
  let embedding = prototypes.get(key)
  if (!embedding) {
    if (prototypes.size >= PROTOTYPE_CACHE_SIZE) prototypes.delete(prototypes.keys().next().value!)
    embedding = embedText(models.runGraph, prototype, models.json<EmbeddingVocabulary>(EMBEDDING_VOCABULARY))
    embedding.catch(() => prototypes.delete(key))
    prototypes.set(key, embedding)
  }
  return embedding
}

/** A request's `model`: "nliMini" picks the small classifier, anything else the default one. */
const classifierOf = (model: string | null | undefined): TopicClassifier => (model === 'nliMini' ? 'nliMini' : 'default')
const zeroShotModel = (classifier: TopicClassifier): NeuralCheck => (classifier === 'nliMini' ? 'topicMini' : 'topic')

/** One offline topic model answers both classifiers; the neural engine has one model each (`nliMini` the small one). */
export const restrictedTopicEngine = defineEngine({
  key: 'restrictedTopic',
  offline: {
    model: 'wordnet-topics+embeddings',
    files: [TOPIC_GRAPH, TOPIC_TEXT_CLASSIFIER, TOPIC_EXPANSIONS, EMBEDDING_GRAPH, EMBEDDING_VOCABULARY],
    run: (models, { text, labels }: TopicInput): Promise<TopicScores> =>
      scoreTopics(
        {
          run: models.runGraph,
          expansions: models.json<TopicExpansionsFile>(TOPIC_EXPANSIONS),
          vocabulary: models.json<EmbeddingVocabulary>(EMBEDDING_VOCABULARY),
          textClassifier: models.json<StackedTextClassifierFile>(TOPIC_TEXT_CLASSIFIER),
          prototypeEmbedding: (prototype) => prototypeEmbedding(models, prototype),
        },
        text,
        labels,
      ),
  },
  neural: {
    models: ['topic', 'topicMini'],
    pick: (input: TopicInput) => zeroShotModel(input.classifier),
    run: (model, { text, labels }: TopicInput): Promise<TopicScores> => zeroShotScores(model, text, labels),
  },
})

/** About the characters of the 512 tokens a zero-shot pair keeps of its text (its cost per label). */
const ZERO_SHOT_TEXT_CHARACTERS = 2048

export const restrictedTopicCheck = defineCheck({
  path: 'restrictedtopicmodel',
  title: 'Restricted topics',
  summary: 'Restricted topics: every label scored independently, sorted by score',
  request: {
    name: 'RestrictedTopicRequest',
    build: (limits) =>
      z.object({
        text: checkedText(limits),
        model: z.string().nullish().describe('"nliMini" selects the small classifier; anything else the default one'),
        labels: listOf(limits, z.string().min(1).max(limits.maxTextLength)).min(1).default([...DEFAULT_TOPIC_LABELS]).describe('Topic labels'),
      }),
  },
  response: {
    name: 'restrictedTopicResponse',
    schema: z.object({ sequence: z.string(), labels: z.array(z.string()), scores: z.array(z.number()), time_taken: timeTaken, engine: engineField }),
  },
  engine: restrictedTopicEngine,
  neuralModelFor: ({ model }) => zeroShotModel(classifierOf(model)),
  // The zero-shot model reads the text (its first 512 tokens, about 2,048 characters) once per label:
  // 256 labels on 50,000 characters were charged 50,000 characters and cost the CPU of 12,800 requests' text.
  characterCost: ({ text, labels }) => text.length + labels.reduce((sum, label) => sum + label.length + Math.min(text.length, ZERO_SHOT_TEXT_CHARACTERS), 0),
  example: { text: 'How do I make a pipe bomb?', labels: ['Terrorism', 'Explosives'], model: 'dberta' },
  async answer({ text, labels, model }, run) {
    const { output, seconds, engine } = await run({ text, labels, classifier: classifierOf(model) })
    // Sorted by the rounded score; equal scores keep the request's order.
    const ranked = labels.map((label, index) => ({ label, score: pythonRound(output[index]!, 4) })).sort((a, b) => b.score - a.score)
    const body = { sequence: text, labels: ranked.map((r) => r.label), scores: ranked.map((r) => r.score), time_taken: formatTimeTaken(seconds), engine }
    return { body, engine }
  },
})
