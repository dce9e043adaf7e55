import { EMBEDDING_GRAPH, EMBEDDING_VOCABULARY, embedText, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import type { ModerationEngine } from '../types'
import { offlineEngine } from './runner'

/** Not mpnet: the name says so, and vectors from it are only comparable with each other. */
export const offlineEmbeddingEngine: ModerationEngine<string[], number[][]> = offlineEngine(
  'sif-ppmi-svd+char-ngrams',
  [EMBEDDING_GRAPH, EMBEDDING_VOCABULARY],
  async (models, texts) => {
    const vocabulary = models.json<EmbeddingVocabulary>(EMBEDDING_VOCABULARY)
    const vectors: number[][] = []
    for (const text of texts) vectors.push(await embedText(models.runGraph, text, vocabulary))
    return vectors
  },
)
