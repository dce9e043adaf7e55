import { classifyGibberish, GIBBERISH_GRAPH } from '@/lib/moderation/offline/gibberish'
import type { GibberishPrediction, ModerationEngine } from '../types'
import { offlineEngine } from './runner'

export const offlineGibberishEngine: ModerationEngine<string, GibberishPrediction> = offlineEngine(
  'gibberish-lm-mlp',
  [GIBBERISH_GRAPH],
  async (models, text) => (await classifyGibberish(models.runGraph, text)).answer,
)
