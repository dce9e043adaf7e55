/**
 * Schema pieces several checks share: the text-only request bodies the spec reuses by name
 * (detoxifyRequest for toxicity and prompt injection, SentimentRequest for sentiment and code),
 * and the timing fields every answer carries. Defaults apply when a field is absent, so the
 * spec's "required with a default" fields are optional here.
 */
import { z } from 'zod'
import type { ModerationLimits } from '@/lib/moderation/api/settings'
import type { RequestSchema } from './check'

export const checkedText = (limits: ModerationLimits) => z.string().min(1).max(limits.maxTextLength)

/** A list field: at most the deployment's item count. */
export const listOf = <T extends z.ZodType>(limits: ModerationLimits, item: T) => z.array(item).max(limits.maxListItems)

function textOnlyRequest<Name extends string>(name: Name, description: string) {
  return {
    name,
    build: (limits: ModerationLimits) => z.object({ text: checkedText(limits).describe(description) }),
  } satisfies RequestSchema<Name>
}

export const detoxifyRequest = textOnlyRequest('detoxifyRequest', 'Text to check')
export const privacyRequest = textOnlyRequest('privacyRequest', 'Text to search for personal data')
export const sentimentRequest = textOnlyRequest('SentimentRequest', 'Text to score')

export const timeTaken = z.string().describe('Seconds the check took, rounded to 3 decimals, e.g. "0.045s"')
export const engineField = z.string().describe('Which engine answered, e.g. "offline:vader" or "neural:<model id>"')
/** The `{time_taken, engine}` object the array-shaped answers end with. */
export const timing = z.object({ time_taken: timeTaken, engine: engineField })
