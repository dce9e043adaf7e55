import { z } from 'zod'
import { pythonRound } from '@/lib/moderation/engines/python-round'
import { GIBBERISH_LABELS, type GibberishPrediction } from '@/lib/moderation/engines/types'
import { classifyGibberish, GIBBERISH_GRAPH, GIBBERISH_LANGUAGES, type GibberishLanguages } from '@/lib/moderation/offline/gibberish'
import { classifyAs } from '@/lib/moderation/runtime/neural-steps'
import { defineCheck, defineEngine, formatTimeTaken } from './check'
import { checkedText, engineField, listOf, timeTaken } from './schema-parts'

const DEFAULT_GIBBERISH_LABELS = ['word salad', 'noise', 'mild gibberish', 'clean']

export const gibberishEngine = defineEngine({
  key: 'gibberish',
  offline: {
    model: 'gibberish-lm-mlp',
    files: [GIBBERISH_GRAPH, GIBBERISH_LANGUAGES],
    run: async (models, text: string) => (await classifyGibberish(models.runGraph, models.json<GibberishLanguages>(GIBBERISH_LANGUAGES), text)).answer,
  },
  neural: {
    models: ['gibberish'],
    run: async (model, text: string): Promise<GibberishPrediction> => {
      const { label, score } = await classifyAs(model, text, GIBBERISH_LABELS)
      return { label, probability: score }
    },
  },
})

export const gibberishCheck = defineCheck({
  path: 'gibberishmodel',
  title: 'Gibberish',
  summary: 'Gibberish: top label and its score (1 - p when the label is not requested)',
  request: {
    name: 'GibberishTextRequest',
    build: (limits) =>
      z.object({
        text: checkedText(limits),
        labels: listOf(limits, z.string()).default(DEFAULT_GIBBERISH_LABELS).describe('Labels whose probability is the score'),
      }),
  },
  response: {
    name: 'gibberishResponse',
    schema: z.object({
      result: z.array(z.object({ gibberish_label: z.enum(GIBBERISH_LABELS), gibberish_score: z.number() })),
      time_taken: timeTaken,
      engine: engineField,
    }),
  },
  engine: gibberishEngine,
  example: { text: 'asdkj qwpoe zmxnv', labels: ['word salad', 'noise', 'mild gibberish', 'clean'] },
  async answer({ text, labels }, run) {
    const { output, seconds, engine } = await run(text)
    const probability = labels.includes(output.label) ? output.probability : 1 - output.probability
    const result = [{ gibberish_label: output.label, gibberish_score: pythonRound(probability, 2) }]
    return { body: { result, time_taken: formatTimeTaken(seconds), engine }, engine }
  },
})
