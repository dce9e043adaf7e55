// A browser sends the hub's session cookie (SameSite=Lax) with requests from every origin of the
// same site: another port of the host, a sibling subdomain. A page there could post to a server
// action or to the API as the signed-in user: a text/plain POST needs no CORS preflight, and the
// answer need not be read for the change to happen. So a request that a session cookie signs in
// may change something only when it comes from the hub's own pages. Next makes this decision for
// server actions (app-render/action-handler.js), but reads the Origin with `new URL(origin)`, which
// throws on a malformed value, and answers a refused post with a 500: proxy.ts decides first, here.

export type OriginRefusal = { status: 400 | 403; error: string }

/**
 * Why a request from a browser must be refused as coming from another origin, or null. `what`
 * names it in the error ("server action", "request").
 */
export function crossOriginRefusal(headers: Headers, what: string): OriginRefusal | null {
  const refused: OriginRefusal = { status: 403, error: `Cross-origin ${what} refused: the browser session acts only from the hub's own pages (an API client sends a token)` }
  const origin = headers.get('origin')
  if (origin === null) {
    // No Origin: not a browser (every browser sends one on a POST), or a browser too old to; one
    // that says where the request came from is believed.
    const site = headers.get('sec-fetch-site')
    return site === null || site === 'same-origin' || site === 'none' ? null : refused
  }
  let originHost: string
  try {
    originHost = origin === 'null' ? 'null' : new URL(origin).host
  } catch {
    return { status: 400, error: 'Malformed Origin header' }
  }
  // The host Next compares against: the first X-Forwarded-Host, else Host.
  const host = headers.get('x-forwarded-host')?.split(',')[0]?.trim() || headers.get('host')
  return host && originHost === host ? null : refused
}
