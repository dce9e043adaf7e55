// The one error type of the OAuth / OpenID Connect endpoints, rendered in one place as RFC 6749
// section 5.2 JSON ({error, error_description}); every OAuth route answers with CORS and, unless it
// says otherwise, Cache-Control: no-store (oauthHandler).
import { routeHandler } from '@/lib/http/route'
import { ServiceUnavailableError } from '@/lib/http/unavailable'

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'consent_required'
  | 'login_required'
  | 'interaction_required'
  | 'request_not_supported'
  | 'request_uri_not_supported'
  | 'invalid_token'
  | 'temporarily_unavailable'
  | 'server_error'

/**
 * RFC 6749 5.2 and 4.1.2.1: error_description holds printable ASCII without `"` and `\`. A
 * description that quotes the client's own input (a grant type, a scope) is cut down to that, so
 * that no client parser and no WWW-Authenticate header (where it stands in quotes) meets anything else.
 */
function describable(text: string): string {
  return text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?')
}

export class OAuthError extends Error {
  /** For the protocol (error_description): printable ASCII only (describable). */
  readonly description: string
  /** For people (the authorization and consent pages): the words as written, quotes and letters of any script kept. */
  readonly text: string

  constructor(
    readonly code: OAuthErrorCode,
    description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${code}: ${description}`)
    this.description = describable(description)
    this.text = description
  }
}

export const invalidRequest = (description: string) => new OAuthError('invalid_request', description)
export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description)
export const invalidScope = (description: string) => new OAuthError('invalid_scope', description)

/** RFC 6749 5.2: 401, and a WWW-Authenticate challenge when the client tried the Authorization header. */
export function invalidClient(description: string, usedBasic: boolean): OAuthError {
  return new OAuthError('invalid_client', description, 401, usedBasic ? { 'WWW-Authenticate': 'Basic realm="oauth"' } : {})
}

/** RFC 6750 3.1: an unknown, expired or revoked bearer token at a resource endpoint. */
export function invalidToken(description: string): OAuthError {
  return new OAuthError('invalid_token', description, 401, { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${describable(description)}"` })
}

/**
 * RFC 6750 3.1: a request that sent no credentials at all. Its answer names no error code, neither
 * in the challenge nor in the body (only error_description): the client did nothing wrong yet.
 */
class BearerTokenRequired extends OAuthError {}

export function tokenRequired(): OAuthError {
  return new BearerTokenRequired('invalid_token', 'A bearer access token is required', 401, { 'WWW-Authenticate': 'Bearer realm="hub"' })
}

/** A database outage (lib/http/unavailable): 503 temporarily_unavailable with Retry-After (RFC 6749 4.1.2.1's code). */
function unavailable(error: ServiceUnavailableError): OAuthError {
  return new OAuthError('temporarily_unavailable', error.message, 503, { 'Retry-After': String(error.retryAfterSeconds) })
}

export function oauthErrorResponse(error: unknown): Response {
  const e =
    error instanceof OAuthError ? error
    : error instanceof ServiceUnavailableError ? unavailable(error)
    : new OAuthError('server_error', 'The server could not handle the request', 500)
  if (!(error instanceof OAuthError) && !(error instanceof ServiceUnavailableError)) console.error('unexpected error in OAuth endpoint', error)
  return Response.json(
    e instanceof BearerTokenRequired ? { error_description: e.description } : { error: e.code, error_description: e.description },
    { status: e.status, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...e.headers } },
  )
}

/** Wraps an OAuth route handler: thrown OAuthErrors become their JSON answers; CORS and no-store. */
export function oauthHandler<A extends unknown[]>(fn: (...args: A) => Promise<Response>) {
  return routeHandler({ render: oauthErrorResponse, cors: true, cacheControl: 'no-store' }, fn)
}
