import { BANCODE_GRAPH, classifyCode } from '@/lib/moderation/offline/bancode'
import type { BanCodeVerdict, ModerationEngine } from '../types'
import { offlineEngine } from './runner'

export const offlineBanCodeEngine: ModerationEngine<string, BanCodeVerdict> = offlineEngine(
  'bancode-ngram-lr',
  [BANCODE_GRAPH],
  async (models, text) => (await classifyCode(models.runGraph, text)).answer,
)
