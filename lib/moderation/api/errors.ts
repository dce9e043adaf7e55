import type { core } from 'zod'
import type { MethodRefusal } from '@/lib/http/methods'

/**
 * The moderation API's errors, in FastAPI's shapes: validation, 401 and 403 as
 * `{"detail":[{type, loc, msg, input?, ctx?}]}` with pydantic v2's types and messages; the other
 * statuses as FastAPI's HTTPException, `{"detail":"message"}`. Rendered in one place.
 */

export type ErrorLocation = (string | number)[]

export type ErrorItem = {
  type: string
  loc: ErrorLocation
  msg: string
  input?: unknown
  ctx?: Record<string, unknown>
}

export class ModerationApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ErrorItem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : detail.map((item) => item.msg).join('; '))
  }
}

export function errorResponse(error: ModerationApiError): Response {
  return Response.json({ detail: error.detail }, { status: error.status, headers: error.headers })
}

export const validationError = (items: ErrorItem[]) => new ModerationApiError(422, items)

/** pydantic's error for a body that is no JSON object (a list, a number, or the raw text of a body that is not JSON). */
export const notAnObject = (input: unknown): ErrorItem => ({
  type: 'model_attributes_type',
  loc: ['body'],
  msg: 'Input should be a valid dictionary or object to extract fields from',
  input,
})

const AUTHORIZATION_LOCATION: ErrorLocation = ['header', 'authorization']
const REQUIRED_SCOPE = 'write:users'

export function notAuthenticated(tokenGiven: boolean): ModerationApiError {
  const item: ErrorItem = tokenGiven
    ? { type: 'invalid_token', loc: AUTHORIZATION_LOCATION, msg: 'The access token is malformed, unknown, expired or revoked' }
    : { type: 'not_authenticated', loc: AUTHORIZATION_LOCATION, msg: 'Not authenticated' }
  const challenge = tokenGiven
    ? `Bearer error="invalid_token", scope="${REQUIRED_SCOPE}"`
    : `Bearer scope="${REQUIRED_SCOPE}"`
  return new ModerationApiError(401, [item], { 'WWW-Authenticate': challenge })
}

/** 429 with Retry-After; `which` names the limit when it is not the request count. */
export function rateLimited(retryAfterSeconds: number, which?: string): ModerationApiError {
  return new ModerationApiError(429, `Rate limit exceeded: ${which ? `${which}; ` : ''}retry in ${retryAfterSeconds} s`, { 'Retry-After': String(retryAfterSeconds) })
}

export function insufficientScope(): ModerationApiError {
  return new ModerationApiError(
    403,
    [{ type: 'insufficient_scope', loc: AUTHORIZATION_LOCATION, msg: `The access token lacks the scope ${REQUIRED_SCOPE}` }],
    { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${REQUIRED_SCOPE}"` },
  )
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key]
  return value
}

/** pydantic v2's error for one zod issue; `body` is the parsed request body. */
function pydanticError(issue: core.$ZodIssue, body: unknown): ErrorItem {
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol')
  const loc: ErrorLocation = ['body', ...path]
  const input = valueAt(body, path)
  switch (issue.code) {
    case 'invalid_type':
      if (path.length === 0) return notAnObject(input)
      if (input === undefined) return { type: 'missing', loc, msg: 'Field required', input: valueAt(body, path.slice(0, -1)) }
      if (issue.expected === 'array') return { type: 'list_type', loc, msg: 'Input should be a valid list', input }
      if (issue.expected === 'number') return { type: 'float_type', loc, msg: 'Input should be a valid number', input }
      return { type: 'string_type', loc, msg: 'Input should be a valid string', input }
    case 'too_small':
      return lengthError('at least', Number(issue.minimum), issue.origin === 'string', loc, input)
    case 'too_big':
      return lengthError('at most', Number(issue.maximum), issue.origin === 'string', loc, input)
    default:
      return { type: 'value_error', loc, msg: `Value error, ${issue.message}`, input }
  }
}

export function pydanticErrors(issues: readonly core.$ZodIssue[], body: unknown): ErrorItem[] {
  // zod may still run length checks on a value of the wrong type; pydantic stops at the type error.
  const wrongType = new Set(issues.filter((i) => i.code === 'invalid_type').map((i) => JSON.stringify(i.path)))
  return issues
    .filter((issue) => issue.code === 'invalid_type' || !wrongType.has(JSON.stringify(issue.path)))
    .map((issue) => pydanticError(issue, body))
}

export function methodNotAllowed(): Response {
  return errorResponse(new ModerationApiError(405, 'Method Not Allowed', { Allow: 'POST' }))
}

/** The 405 of the API's other routes (health, openapi.json), for refuseOtherMethods: FastAPI's detail. */
export const moderationMethodNotAllowed: MethodRefusal = (allow) => errorResponse(new ModerationApiError(405, 'Method Not Allowed', { Allow: allow }))

/** Pydantic's string and list length errors, in its words and context fields. */
function lengthError(bound: 'at least' | 'at most', limit: number, isString: boolean, loc: ErrorLocation, input: unknown): ErrorItem {
  const [suffix, limitField] = bound === 'at least' ? (['short', 'min_length'] as const) : (['long', 'max_length'] as const)
  if (isString) {
    return { type: `string_too_${suffix}`, loc, msg: `String should have ${bound} ${plural(limit, 'character')}`, input, ctx: { [limitField]: limit } }
  }
  const actual = Array.isArray(input) ? input.length : 0
  return {
    type: `too_${suffix}`,
    loc,
    msg: `List should have ${bound} ${plural(limit, 'item')} after validation, not ${actual}`,
    input,
    ctx: { field_type: 'List', [limitField]: limit, actual_length: actual },
  }
}
