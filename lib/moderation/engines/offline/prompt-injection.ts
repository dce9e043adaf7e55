import {
  detectInjection,
  INJECTION_GRAPH,
  INJECTION_VOCABULARY,
  type InjectionVocabulary,
} from '@/lib/moderation/offline/prompt-injection'
import type { InjectionVerdict, ModerationEngine } from '../types'
import { graphInstalled, offlineJson, runGraph } from './runner'

export const offlinePromptInjectionEngine: ModerationEngine<string, InjectionVerdict> = {
  name: 'offline:guardrail-tfidf+phrases',
  available: () => graphInstalled(INJECTION_GRAPH) && graphInstalled(INJECTION_VOCABULARY),
  run: async (text) => {
    const vocabulary = offlineJson<InjectionVocabulary>(INJECTION_VOCABULARY)
    const { vocabularySize } = offlineJson<{ vocabularySize: number }>(INJECTION_GRAPH.replace(/\.onnx$/, '.json'))
    return (await detectInjection(runGraph, text, vocabulary, vocabularySize)).answer
  },
}
