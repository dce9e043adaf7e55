import { scoreToxicity, TOXICITY_GRAPH } from '@/lib/moderation/offline/toxicity'
import type { ModerationEngine, ToxicityScores } from '../types'
import { offlineEngine } from './runner'

export const offlineToxicityEngine: ModerationEngine<string, ToxicityScores> = offlineEngine('toxicity-lexicon-lr', [TOXICITY_GRAPH], (models, text) =>
  scoreToxicity(models.runGraph, text),
)
