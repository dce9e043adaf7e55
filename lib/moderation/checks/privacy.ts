import { z } from 'zod'
import { presidioStyleEngine } from '@/lib/moderation/engines/privacy'
import { pythonRound } from '@/lib/moderation/engines/python-round'
import { defineCheck, defineEngine } from './check'
import { engineField, privacyRequest } from './schema-parts'

export const privacyCheck = defineCheck({
  path: 'privacy',
  title: 'Personal data',
  summary: 'Personal data (Presidio entity types, UTF-16 offsets)',
  request: privacyRequest,
  response: {
    name: 'privacyResponse',
    schema: z.object({
      PIIresult: z.array(
        z.object({
          type: z.string(),
          beginOffset: z.number().int(),
          endOffset: z.number().int(),
          score: z.number(),
          responseText: z.string(),
        }),
      ),
      modelcalltime: z.number().describe('Seconds, rounded to 3 decimals'),
      engine: engineField,
    }),
  },
  engine: defineEngine({ key: 'privacy' as const, exact: presidioStyleEngine }),
  example: { text: 'Karan lives in Pune; write to karan@example.com.' },
  async answer({ text }, run) {
    const { output, seconds, engine } = await run(text)
    const PIIresult = output.map((entity) => ({ ...entity, responseText: text.slice(entity.beginOffset, entity.endOffset) }))
    return { body: { PIIresult, modelcalltime: pythonRound(seconds, 3), engine }, engine }
  },
})
