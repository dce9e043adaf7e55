import { EMBEDDING_GRAPH, EMBEDDING_VOCABULARY, embedText, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import type { ModerationEngine } from '../types'
import { graphInstalled, offlineJson, runGraph } from './runner'

/** Not mpnet: the name says so, and vectors from it are only comparable with each other. */
export const offlineEmbeddingEngine: ModerationEngine<string[], number[][]> = {
  name: 'offline:sif-ppmi-svd+char-ngrams',
  available: () => graphInstalled(EMBEDDING_GRAPH) && graphInstalled(EMBEDDING_VOCABULARY),
  run: async (texts) => {
    const vocabulary = offlineJson<EmbeddingVocabulary>(EMBEDDING_VOCABULARY)
    const vectors: number[][] = []
    for (const text of texts) vectors.push(await embedText(runGraph, text, vocabulary))
    return vectors
  },
}
