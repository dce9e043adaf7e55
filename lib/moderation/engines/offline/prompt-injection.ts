import {
  detectInjection,
  INJECTION_GRAPH,
  INJECTION_VOCABULARY,
  type InjectionVocabulary,
} from '@/lib/moderation/offline/prompt-injection'
import type { InjectionVerdict, ModerationEngine } from '../types'
import { offlineEngine } from './runner'

const INJECTION_METADATA = INJECTION_GRAPH.replace(/\.onnx$/, '.json')

export const offlinePromptInjectionEngine: ModerationEngine<string, InjectionVerdict> = offlineEngine(
  'guardrail-tfidf+phrases',
  [INJECTION_GRAPH, INJECTION_VOCABULARY, INJECTION_METADATA],
  async (models, text) => {
    const vocabulary = models.json<InjectionVocabulary>(INJECTION_VOCABULARY)
    const { vocabularySize } = models.json<{ vocabularySize: number }>(INJECTION_METADATA)
    return (await detectInjection(models.runGraph, text, vocabulary, vocabularySize)).answer
  },
)
