// Errors of the hub's JSON API ({error} bodies, with the Hub's status codes), rendered in one place.
import { NextResponse } from 'next/server'
import { ZodError } from 'zod'
import type { Decision } from '@/lib/policy'
import { BodyTooLargeError, NotJsonObjectError, parseJsonObject, readBoundedBody } from '@/lib/http/body'
import { routeHandler, type RouteOptions } from '@/lib/http/route'
import { ServiceUnavailableError } from '@/lib/http/unavailable'

export class HubError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The Hub's X-Error-Code (e.g. EntryNotFound, RevisionNotFound), which clients branch on. */
    readonly code?: string,
    /** Sent as Retry-After (429 and 503). */
    readonly retryAfterSeconds?: number,
    /** More headers of the answer (X-Repo-Commit of an EntryNotFound). */
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new HubError(400, message)
/**
 * A request that needs credentials and carried none: 401 with the bearer challenge (RFC 6750 3: a
 * resource that takes bearer tokens names the scheme; without an error code, as none was sent: 3.1).
 */
export const unauthorized = (message = 'Authentication required') => new HubError(401, message, undefined, undefined, { 'WWW-Authenticate': 'Bearer realm="hub"' })
/** A bearer token (or other Authorization header) that is not valid: 401, challenge with invalid_token (RFC 6750 3.1). */
export const invalidCredentials = () =>
  new HubError(401, 'Invalid credentials in Authorization header', undefined, undefined, { 'WWW-Authenticate': 'Bearer realm="hub", error="invalid_token"' })
export const forbidden = (message = 'You do not have permission to perform this action') => new HubError(403, message)
export const notFound = (message = 'Not Found') => new HubError(404, message)
export const conflict = (message: string) => new HubError(409, message)

/** Turns a policy decision that is not 'allow' into the error to answer. */
export function denial(decision: Exclude<Decision, 'allow'>, what = 'Repository'): HubError {
  switch (decision) {
    case 'unauthenticated':
      return unauthorized('Authentication required')
    case 'forbidden':
      return forbidden()
    case 'not-found':
      return notFound(`${what} not found`)
  }
}

/** For API clients: each problem with the path of the field it concerns (`name: must not be empty`). */
export function zodMessage(error: ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ')
}

// Field names as people read them, where splitting the camelCase name is not enough.
const FIELD_LABELS: Record<string, string> = {
  email: 'E-mail',
  fullname: 'Full name',
  avatarUrl: 'Avatar URL',
  logoUrl: 'Logo URL',
  redirectUris: 'Redirect URIs',
  clientId: 'Client ID',
  confirmPassword: 'Confirm new password',
}

function fieldLabel(field: string): string {
  if (FIELD_LABELS[field]) return FIELD_LABELS[field]
  const words = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * For people (forms and pages): sentences that name the field in words ("Name must not be
 * empty."), once each. Messages the schema wrote as sentences (they start with a capital) stand
 * alone, e.g. "A fine-grained token needs at least one scope."
 */
/**
 * Each top-level field of a form with its first problem, as a sentence (the form shows it under
 * that field, marked invalid): { email: 'E-mail must be an e-mail address.' }.
 */
export function formFieldMessages(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const issue of error.issues) {
    const top = issue.path[0]
    if (typeof top !== 'string' || top in fields) continue
    const field = issue.path.findLast((p): p is string => typeof p === 'string')!
    const text = /^[a-z]/.test(issue.message) ? `${fieldLabel(field)} ${issue.message}` : issue.message
    fields[top] = /[.!?]$/.test(text) ? text : `${text}.`
  }
  return fields
}

export function formMessage(error: ZodError): string {
  const sentences = error.issues.map((issue) => {
    // The innermost named field: a claim's name rather than `claims`, `scopes` rather than an index.
    const field = issue.path.findLast((p): p is string => typeof p === 'string')
    const text = /^[a-z]/.test(issue.message) && field ? `${fieldLabel(field)} ${issue.message}` : issue.message
    return /[.!?]$/.test(text) ? text : `${text}.`
  })
  return [...new Set(sentences)].join(' ')
}

/**
 * Prisma's P2025 from an update or delete whose row is gone ("No record was found for a delete"):
 * another request deleted it meanwhile. Not a findUniqueOrThrow's P2025, which says an invariant
 * broke (a bug: a 500).
 */
export function isRowGoneMeanwhile(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null
  return e?.code === 'P2025' && typeof e.message === 'string' && /\b(delete|update|upsert)\b/i.test(e.message)
}

export function errorResponse(error: unknown): NextResponse {
  if (error instanceof HubError) {
    const headers: Record<string, string> = { ...error.headers }
    if (error.code) {
      headers['X-Error-Code'] = error.code
      // huggingface_hub shows it (a HEAD answer has no body to read it from); headers are Latin-1.
      if (/^[\x20-\x7e]*$/.test(error.message)) headers['X-Error-Message'] = error.message
    }
    if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds)
    return NextResponse.json({ error: error.message }, { status: error.status, headers })
  }
  if (error instanceof ZodError) return NextResponse.json({ error: zodMessage(error) }, { status: 400 })
  // Prisma's "record not found" on an update or delete: another request deleted the row between this
  // one reading it and changing it (two deletes of one repo at once). It is gone, as this request's
  // own read would now find.
  if (isRowGoneMeanwhile(error)) return NextResponse.json({ error: 'Not Found: it was deleted by another request meanwhile' }, { status: 404 })
  if (error instanceof ServiceUnavailableError) return NextResponse.json({ error: error.message }, { status: 503, headers: { 'Retry-After': String(error.retryAfterSeconds) } })
  console.error('unexpected error in hub API', error)
  return NextResponse.json({ error: 'Internal error' }, { status: 500 })
}

/** Wraps a hub API route handler: thrown HubErrors become their JSON answers. */
export function handle<A extends unknown[]>(fn: (...args: A) => Promise<Response>, options: Omit<RouteOptions, 'render'> = {}) {
  return routeHandler({ render: errorResponse, ...options }, fn)
}

/** Reads a binary body (up to `maxBytes`: 413 beyond, 400 when it cannot be read). */
export async function bytesBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  try {
    return await readBoundedBody(request, maxBytes)
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new HubError(413, 'Request body too large')
    throw badRequest('Unreadable request body')
  }
}

/** The body as text, at most `maxBytes`, with the hub's 413 and 400. */
export async function boundedText(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await bytesBody(request, maxBytes))
}

/** Reads a JSON body, answering 400 for anything that is not a JSON object. */
export async function jsonBody(request: Request, maxBytes = 64 * 1024): Promise<Record<string, unknown>> {
  const text = await boundedText(request, maxBytes)
  try {
    return parseJsonObject(text)
  } catch (error) {
    if (error instanceof NotJsonObjectError) throw badRequest(error.message)
    throw error
  }
}
