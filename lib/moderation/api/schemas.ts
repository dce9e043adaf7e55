import { z } from 'zod'
import { GIBBERISH_LABELS } from '@/lib/moderation/engines/types'
import type { ModerationLimits } from './settings'

/**
 * The request schemas of the spec (names, fields, defaults) with the deployment's limits, and the
 * exact 200 bodies the toolkit's client reads. Handlers validate with these and the OpenAPI
 * document is generated from them. Defaults apply when a field is absent, so the spec's
 * "required with a default" fields are optional here. Items the spec leaves untyped are strings
 * (labels, categories) or numbers (embeddings): the checks could not use anything else.
 */

export const DEFAULT_TOPIC_LABELS = ['Terrorism', 'Explosives']
export const DEFAULT_BANNED_CATEGORIES = ['Cf', 'Co', 'Cn', 'So', 'Sc']
export const DEFAULT_GIBBERISH_LABELS = ['word salad', 'noise', 'mild gibberish', 'clean']

export function requestSchemas(limits: ModerationLimits) {
  const text = z.string().min(1).max(limits.maxTextLength)
  const listOf = <T extends z.ZodType>(item: T) => z.array(item).max(limits.maxListItems)
  const optionalText = z.string().min(1).max(limits.maxTextLength).nullish()
  const embedding = z.array(z.number()).nullish()

  const textOnly = (description: string) => z.object({ text: text.describe(description) })

  return {
    detoxifyRequest: textOnly('Text to check'),
    privacyRequest: textOnly('Text to search for personal data'),
    SentimentRequest: textOnly('Text to score'),
    JailbreakRequest: z.object({
      text: listOf(z.string().max(limits.maxTextLength)).min(1).describe('List of texts'),
    }),
    RestrictedTopicRequest: z.object({
      text,
      model: z.string().nullish().describe('"nliMini" selects the small classifier; anything else the default one'),
      labels: listOf(z.string().min(1).max(limits.maxTextLength)).min(1).default(DEFAULT_TOPIC_LABELS).describe('Topic labels'),
    }),
    SimilarityRequest: z
      .object({
        text1: optionalText.describe('First text'),
        text2: optionalText.describe('Second text'),
        emb1: embedding.describe('Embedding of the first text (used when text1 is absent)'),
        emb2: embedding.describe('Embedding of the second text (used when text2 is absent)'),
      })
      .superRefine((body, context) => {
        const sides = [
          { text: body.text1, embedding: body.emb1, name: 'text1', fallback: 'emb1' },
          { text: body.text2, embedding: body.emb2, name: 'text2', fallback: 'emb2' },
        ]
        for (const side of sides) {
          if (side.text == null && (side.embedding == null || side.embedding.length === 0)) {
            context.addIssue({ code: 'custom', path: [side.name], message: `give ${side.name} or a non-empty ${side.fallback}` })
          }
        }
        if (body.text1 == null && body.text2 == null && body.emb1 && body.emb2 && body.emb1.length !== body.emb2.length) {
          context.addIssue({ code: 'custom', path: ['emb2'], message: 'emb1 and emb2 must have the same length' })
        }
      }),
    InvisibleTextRequest: z.object({
      text,
      banned_categories: listOf(z.string()).default(DEFAULT_BANNED_CATEGORIES).describe('Unicode general categories that are banned'),
    }),
    GibberishTextRequest: z.object({
      text,
      labels: listOf(z.string()).default(DEFAULT_GIBBERISH_LABELS).describe('Labels whose probability is the score'),
    }),
  }
}

export type RequestSchemas = ReturnType<typeof requestSchemas>
export type RequestSchemaName = keyof RequestSchemas

const timeTaken = z.string().describe('Seconds the check took, rounded to 3 decimals, e.g. "0.045s"')
const engine = z.string().describe('Which engine answered, e.g. "offline:vader" or "neural:<model id>"')
const timing = z.object({ time_taken: timeTaken, engine })

const profanityScore = z.object({ metricName: z.string(), metricScore: z.number() })

export const responseSchemas = {
  profanityScore,
  detoxifyResponse: z.object({
    toxicScore: z.array(profanityScore).describe('toxicity, severe_toxicity, obscene, threat, insult, identity_attack, sexual_explicit'),
    time_taken: timeTaken,
    engine,
  }),
  privacyResponse: z.object({
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
    engine,
  }),
  promptInjectionResponse: z.tuple([z.enum(['INJECTION', 'LEGIT']), z.number(), timing]),
  restrictedTopicResponse: z.object({
    sequence: z.string(),
    labels: z.array(z.string()),
    scores: z.array(z.number()),
    time_taken: timeTaken,
    engine,
  }),
  embeddingResponse: z.tuple([z.array(z.array(z.number())).describe('One vector per input text, in order'), timing]),
  similarityResponse: z.tuple([z.array(z.array(z.number())).describe('[[cosine]]'), timing]),
  sentimentResponse: z.object({
    score: z.object({ neg: z.number(), neu: z.number(), pos: z.number(), compound: z.number() }),
    time_taken: timeTaken,
    engine,
  }),
  invisibleTextResponse: z.object({ result: z.array(z.string()), time_taken: timeTaken, engine }),
  gibberishResponse: z.object({
    result: z.array(z.object({ gibberish_label: z.enum(GIBBERISH_LABELS), gibberish_score: z.number() })),
    time_taken: timeTaken,
    engine,
  }),
  banCodeResponse: z.object({
    result: z.object({ label: z.enum(['CODE', 'NL']), score: z.number() }),
    time_taken: timeTaken,
    engine,
  }),
}

const errorItem = z.object({
  loc: z.array(z.union([z.string(), z.number().int()])),
  msg: z.string(),
  type: z.string(),
  input: z.unknown().optional(),
  ctx: z.record(z.string(), z.unknown()).optional(),
})

export const errorSchemas = {
  ValidationError: errorItem,
  HTTPValidationError: z.object({ detail: z.array(errorItem) }),
  HTTPUnauthorizedAccessError: z.object({ detail: z.array(errorItem) }),
  HTTPForbiddenAccessError: z.object({ detail: z.array(errorItem) }),
  HTTPError: z.object({ detail: z.string() }),
}
