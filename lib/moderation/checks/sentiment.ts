import { z } from 'zod'
import { vaderSentimentEngine } from '@/lib/moderation/engines/sentiment/vader'
import { defineCheck, defineEngine, formatTimeTaken } from './check'
import { engineField, sentimentRequest, timeTaken } from './schema-parts'

export const sentimentCheck = defineCheck({
  path: 'sentimentmodel',
  title: 'Sentiment',
  summary: 'Sentiment (VADER: neg, neu, pos, compound)',
  request: sentimentRequest,
  response: {
    name: 'sentimentResponse',
    schema: z.object({
      score: z.object({ neg: z.number(), neu: z.number(), pos: z.number(), compound: z.number() }),
      time_taken: timeTaken,
      engine: engineField,
    }),
  },
  engine: defineEngine({ key: 'sentiment' as const, exact: vaderSentimentEngine }),
  example: { text: 'The book was good.' },
  async answer({ text }, run) {
    const { output, seconds, engine } = await run(text)
    return { body: { score: output, time_taken: formatTimeTaken(seconds), engine }, engine }
  },
})
