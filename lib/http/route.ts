// The one wrapper of route handlers: a thrown error becomes its protocol's answer (each protocol
// passes its renderer: the hub's {error}, RFC 6749 JSON, FastAPI's detail), and the headers a
// route family always sends (CORS for cross-origin callers, Cache-Control) are set here once.
// An outage (database, or a full or read-only file store) becomes a ServiceUnavailableError before
// it is rendered: 503 with Retry-After.
import { CORS_HEADERS } from '@/lib/http/cors'
import { asServiceUnavailable } from '@/lib/http/unavailable'

/** Renders a thrown error; it must answer a ServiceUnavailableError with 503 and its Retry-After. */
export type ErrorRenderer = (error: unknown) => Response

export type RouteOptions = {
  render: ErrorRenderer
  /** Any origin may call it (no cookies): OAuth, whoami, the Hub API (lib/http/cors.ts). */
  cors?: boolean
  /** Cache-Control for answers that set none themselves. */
  cacheControl?: string
}

export function routeHandler<A extends unknown[]>(options: RouteOptions, fn: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    let response: Response
    try {
      response = await fn(...args)
    } catch (error) {
      const unavailable = asServiceUnavailable(error)
      if (unavailable) console.error(`${unavailable.message} (answered 503):`, error instanceof Error ? error.message.trim().split('\n').at(-1) : error)
      response = options.render(unavailable ?? error)
    }
    return withRouteHeaders(response, options)
  }
}

function withRouteHeaders(response: Response, options: RouteOptions): Response {
  const wanted: Record<string, string> = {}
  if (options.cors) Object.assign(wanted, CORS_HEADERS)
  if (options.cacheControl && !response.headers.has('cache-control')) wanted['Cache-Control'] = options.cacheControl
  if (Object.keys(wanted).length === 0) return response
  try {
    for (const [name, value] of Object.entries(wanted)) response.headers.set(name, value)
    return response
  } catch {
    // Responses from Response.redirect() and fetch() have immutable headers: copy them.
    const headers = new Headers(response.headers)
    for (const [name, value] of Object.entries(wanted)) headers.set(name, value)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}
