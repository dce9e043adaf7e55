import { EMBEDDING_GRAPH, EMBEDDING_VOCABULARY, embedText, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import { scoreTopics, TOPIC_EXPANSIONS, TOPIC_GRAPH, type TopicExpansions } from '@/lib/moderation/offline/restricted-topic'
import type { ModerationEngine, TopicInput, TopicScores } from '../types'
import { offlineEngine, type OfflineModels } from './runner'

/** Label prototypes are embedded once; the bound keeps arbitrary client labels from growing the cache without end. */
const PROTOTYPE_CACHE_SIZE = 2000
const prototypes = new Map<string, Promise<number[]>>()

/** Keyed by the models' folder too: another repo revision embeds differently. */
function prototypeEmbedding(models: OfflineModels, prototype: string): Promise<number[]> {
  const key = `${models.dir}\n${prototype}`
  let embedding = prototypes.get(key)
  if (!embedding) {
    if (prototypes.size >= PROTOTYPE_CACHE_SIZE) prototypes.delete(prototypes.keys().next().value!)
    embedding = embedText(models.runGraph, prototype, models.json<EmbeddingVocabulary>(EMBEDDING_VOCABULARY))
    embedding.catch(() => prototypes.delete(key))
    prototypes.set(key, embedding)
  }
  return embedding
}

/** Answers both classifiers (`nliMini` and the default): there is one offline topic model. */
export const offlineTopicEngine: ModerationEngine<TopicInput, TopicScores> = offlineEngine(
  'wordnet-topics+embeddings',
  [TOPIC_GRAPH, TOPIC_EXPANSIONS, EMBEDDING_GRAPH, EMBEDDING_VOCABULARY],
  (models, { text, labels }) =>
    scoreTopics(
      models.runGraph,
      text,
      labels,
      models.json<TopicExpansions>(TOPIC_EXPANSIONS),
      models.json<EmbeddingVocabulary>(EMBEDDING_VOCABULARY),
      (prototype) => prototypeEmbedding(models, prototype),
    ),
)
