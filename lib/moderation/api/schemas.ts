import { z } from 'zod'
import { CHECKS } from '@/lib/moderation/checks'
import type { ModerationLimits } from './settings'

/**
 * The request schemas of the spec (by their component names) with the deployment's limits, the
 * exact 200 bodies the toolkit's client reads, and the error bodies: gathered from the checks
 * (lib/moderation/checks). Handlers validate with these and the OpenAPI document is generated
 * from them.
 */

export function requestSchemas(limits: ModerationLimits): Record<string, z.ZodType> {
  return Object.fromEntries(CHECKS.map((check) => [check.request.name, check.request.build(limits)]))
}

export const responseSchemas: Record<string, z.ZodType> = Object.fromEntries(
  CHECKS.flatMap((check) => [...Object.entries(check.response.components ?? {}), [check.response.name, check.response.schema] as const]),
)

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
