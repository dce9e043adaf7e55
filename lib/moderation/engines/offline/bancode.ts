import { BANCODE_GRAPH, classifyCode } from '@/lib/moderation/offline/bancode'
import type { BanCodeVerdict, ModerationEngine } from '../types'
import { graphInstalled, runGraph } from './runner'

export const offlineBanCodeEngine: ModerationEngine<string, BanCodeVerdict> = {
  name: 'offline:bancode-ngram-lr',
  available: () => graphInstalled(BANCODE_GRAPH),
  run: async (text) => (await classifyCode(runGraph, text)).answer,
}
