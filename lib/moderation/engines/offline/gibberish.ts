import { classifyGibberish, GIBBERISH_GRAPH } from '@/lib/moderation/offline/gibberish'
import type { GibberishPrediction, ModerationEngine } from '../types'
import { graphInstalled, runGraph } from './runner'

export const offlineGibberishEngine: ModerationEngine<string, GibberishPrediction> = {
  name: 'offline:gibberish-lm-mlp',
  available: () => graphInstalled(GIBBERISH_GRAPH),
  run: async (text) => (await classifyGibberish(runGraph, text)).answer,
}
