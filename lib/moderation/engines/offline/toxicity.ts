import { scoreToxicity, TOXICITY_GRAPH } from '@/lib/moderation/offline/toxicity'
import type { ModerationEngine, ToxicityScores } from '../types'
import { graphInstalled, runGraph } from './runner'

export const offlineToxicityEngine: ModerationEngine<string, ToxicityScores> = {
  name: 'offline:toxicity-lexicon-lr',
  available: () => graphInstalled(TOXICITY_GRAPH),
  run: (text) => scoreToxicity(runGraph, text),
}
