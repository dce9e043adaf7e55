import { z } from 'zod'
import { scoreToxicity, TOXICITY_GRAPH, TOXICITY_TEXT_CLASSIFIER } from '@/lib/moderation/offline/toxicity'
import type { StackedTextClassifierFile } from '@/lib/moderation/offline/stacked-text-classifier'
import type { ToxicityScores } from '@/lib/moderation/engines/types'
import { TOXICITY_METRICS } from '@/lib/moderation/runtime/manifest'
import { windowedSigmoidScores } from '@/lib/moderation/runtime/neural-steps'
import { defineCheck, defineEngine, formatTimeTaken } from './check'
import { detoxifyRequest, engineField, timeTaken } from './schema-parts'

export const toxicityEngine = defineEngine({
  key: 'toxicity',
  offline: {
    model: 'toxicity-lexicon-lr',
    files: [TOXICITY_GRAPH, TOXICITY_TEXT_CLASSIFIER],
    run: (models, text: string) => scoreToxicity(models.runGraph, text, models.json<StackedTextClassifierFile>(TOXICITY_TEXT_CLASSIFIER)),
  },
  neural: {
    models: ['toxicity'],
    run: async (model, text: string): Promise<ToxicityScores> => {
      const scores = await windowedSigmoidScores(model, text)
      return Object.fromEntries(TOXICITY_METRICS.map((metric, i) => [metric, scores[i]])) as ToxicityScores
    },
  },
})

const profanityScore = z.object({ metricName: z.string(), metricScore: z.number() })

export const toxicityCheck = defineCheck({
  path: 'detoxifymodel',
  title: 'Toxicity',
  summary: 'Toxicity scores (Detoxify "unbiased" metrics, in fixed order)',
  request: detoxifyRequest,
  response: {
    name: 'detoxifyResponse',
    schema: z.object({
      toxicScore: z.array(profanityScore).describe('toxicity, severe_toxicity, obscene, threat, insult, identity_attack, sexual_explicit'),
      time_taken: timeTaken,
      engine: engineField,
    }),
    components: { profanityScore },
  },
  engine: toxicityEngine,
  example: { text: 'You are a wonderful person.' },
  async answer({ text }, run) {
    const { output, seconds, engine } = await run(text)
    // The toolkit's client reads the seven metrics by position.
    const toxicScore = TOXICITY_METRICS.map((metricName) => ({ metricName, metricScore: output[metricName] }))
    return { body: { toxicScore, time_taken: formatTimeTaken(seconds), engine }, engine }
  },
})
