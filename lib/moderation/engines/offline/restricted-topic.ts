import { EMBEDDING_GRAPH, EMBEDDING_VOCABULARY, embedText, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import { scoreTopics, TOPIC_EXPANSIONS, TOPIC_GRAPH, type TopicExpansions } from '@/lib/moderation/offline/restricted-topic'
import type { ModerationEngine, TopicInput, TopicScores } from '../types'
import { graphInstalled, offlineJson, runGraph } from './runner'

/** Label prototypes are embedded once; the bound keeps arbitrary client labels from growing the cache without end. */
const PROTOTYPE_CACHE_SIZE = 2000
const prototypes = new Map<string, Promise<number[]>>()

function prototypeEmbedding(prototype: string): Promise<number[]> {
  let embedding = prototypes.get(prototype)
  if (!embedding) {
    if (prototypes.size >= PROTOTYPE_CACHE_SIZE) prototypes.delete(prototypes.keys().next().value!)
    embedding = embedText(runGraph, prototype, offlineJson<EmbeddingVocabulary>(EMBEDDING_VOCABULARY))
    embedding.catch(() => prototypes.delete(prototype))
    prototypes.set(prototype, embedding)
  }
  return embedding
}

/** Answers both classifiers (`nliMini` and the default): there is one offline topic model. */
export const offlineTopicEngine: ModerationEngine<TopicInput, TopicScores> = {
  name: 'offline:wordnet-topics+embeddings',
  available: () => [TOPIC_GRAPH, TOPIC_EXPANSIONS, EMBEDDING_GRAPH, EMBEDDING_VOCABULARY].every(graphInstalled),
  run: ({ text, labels }) =>
    scoreTopics(runGraph, text, labels, offlineJson<TopicExpansions>(TOPIC_EXPANSIONS), offlineJson<EmbeddingVocabulary>(EMBEDDING_VOCABULARY), prototypeEmbedding),
}
