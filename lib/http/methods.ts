// The methods a route does not serve. Next answers one with a bare 405 (no body, no Allow header),
// and its automatic OPTIONS lists every exported method: a client then sees an empty answer its JSON
// parser rejects, and nothing says which method to use. Each route instead exports, for the methods
// it does not serve, handlers from refuseOtherMethods: a 405 in its protocol's words (the hub's
// {error}, RFC 6749's error object, FastAPI's detail) with the Allow header RFC 9110 15.5.6 asks for.
// An architecture test checks that every route exports every method, served or refused.

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
export type HttpMethod = (typeof HTTP_METHODS)[number]

/** Renders the 405 of one protocol; `allow` is the Allow header's value, `method` the one refused. */
export type MethodRefusal = (allow: string, method: string, request: Request) => Response

type Handler = (request: Request) => Response

/**
 * Handlers for every method not in `served`. HEAD is left out where GET is served (Next answers it
 * from GET); OPTIONS, where the route has none of its own, answers 204 with the Allow header, as
 * Next's would (minus the refused methods it would have listed).
 */
export function refuseOtherMethods(served: readonly HttpMethod[], refuse: MethodRefusal): Record<HttpMethod, Handler> {
  const allowed = new Set<HttpMethod>(served)
  if (allowed.has('GET')) allowed.add('HEAD')
  allowed.add('OPTIONS')
  const allow = HTTP_METHODS.filter((method) => allowed.has(method)).join(', ')
  const handlers = {} as Record<HttpMethod, Handler>
  for (const method of HTTP_METHODS) {
    if (served.includes(method) || (method === 'HEAD' && allowed.has('HEAD'))) continue
    handlers[method] =
      method === 'OPTIONS' ? () => new Response(null, { status: 204, headers: { Allow: allow } })
      : method === 'HEAD' ? () => new Response(null, { status: 405, headers: { Allow: allow } })
      : (request) => refuse(allow, method, request)
  }
  return handlers
}

/** The hub API's 405: `{error}` as its other errors. */
export const hubMethodNotAllowed: MethodRefusal = (allow, method, request) =>
  Response.json(
    { error: `Method Not Allowed: ${new URL(request.url).pathname.slice(0, 200)} answers ${allow}, not ${method}` },
    { status: 405, headers: { Allow: allow, 'Cache-Control': 'no-store' } },
  )

/** An OAuth endpoint's 405: RFC 6749's error object (invalid_request), never cached. */
export const oauthMethodNotAllowed: MethodRefusal = (allow, method) =>
  Response.json(
    { error: 'invalid_request', error_description: `This endpoint answers ${allow}, not ${method}` },
    { status: 405, headers: { Allow: allow, 'Cache-Control': 'no-store', Pragma: 'no-cache' } },
  )
