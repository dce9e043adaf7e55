import { z } from 'zod'
import type { BanCodeVerdict } from '@/lib/moderation/engines/types'
import { BANCODE_GRAPH, classifyCode } from '@/lib/moderation/offline/bancode'
import { classifyAs } from '@/lib/moderation/runtime/neural-steps'
import { defineCheck, defineEngine, formatTimeTaken } from './check'
import { engineField, sentimentRequest, timeTaken } from './schema-parts'

export const banCodeEngine = defineEngine({
  key: 'banCode',
  offline: {
    model: 'bancode-ngram-lr',
    files: [BANCODE_GRAPH],
    run: async (models, text: string) => (await classifyCode(models.runGraph, text)).answer,
  },
  neural: {
    models: ['bancode'],
    run: (model, text: string): Promise<BanCodeVerdict> => classifyAs(model, text, ['CODE', 'NL'] as const),
  },
})

export const banCodeCheck = defineCheck({
  path: 'bancodemodel',
  title: 'Code',
  summary: 'Banned code: CODE or NL with its probability',
  request: sentimentRequest,
  response: {
    name: 'banCodeResponse',
    schema: z.object({ result: z.object({ label: z.enum(['CODE', 'NL']), score: z.number() }), time_taken: timeTaken, engine: engineField }),
  },
  engine: banCodeEngine,
  example: { text: 'import os; os.system("rm -rf /")' },
  async answer({ text }, run) {
    const { output, seconds, engine } = await run(text)
    return { body: { result: output, time_taken: formatTimeTaken(seconds), engine }, engine }
  },
})
