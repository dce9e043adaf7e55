// Redirect-URI rules (SPEC.md area B, 5.1-5.2): an exact match with a registered URI, except that
// http URIs on a loopback host may use any port as long as everything else matches. Loopback
// hosts are matched individually (localhost does not match a registered 127.0.0.1).

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])
const MAX_URI_LENGTH = 2000

function parse(uri: string): URL | null {
  if (uri.length > MAX_URI_LENGTH) return null
  try {
    return new URL(uri)
  } catch {
    return null
  }
}

// Compared as written, not as URL normalises them: "/cb?a" must not equal "/cb?a=", nor "/%63b" "/cb".
const LOOPBACK_AUTHORITY = /^http:\/\/([^/?#@]*@)?(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{0,5})?(?=[/?]|$)/

/** The URI without its port when it is an http loopback URI, else null. */
function loopbackWithoutPort(uri: string): string | null {
  const match = LOOPBACK_AUTHORITY.exec(uri)
  return match ? `http://${match[1] ?? ''}${match[2]}${uri.slice(match[0].length)}` : null
}

/** Whether a requested redirect URI is allowed by one of the registered ones. Fragments never are. */
export function redirectUriAllowed(requested: string, registered: readonly string[]): boolean {
  if (requested.includes('#') || !parse(requested)) return false
  if (registered.includes(requested)) return true
  const key = loopbackWithoutPort(requested)
  return key !== null && registered.some((r) => loopbackWithoutPort(r) === key)
}

/** The parameters the authorization response adds to the redirect URI's query (RFC 6749 4.1.2, 4.1.2.1; RFC 9207). */
const RESPONSE_PARAMETERS = new Set(['code', 'state', 'iss', 'error', 'error_description', 'error_uri'])

/** Why a redirect URI cannot be registered, or null when it can. */
export function registrableRedirectUriProblem(uri: string): string | null {
  const url = parse(uri)
  if (!url) return `"${uri.slice(0, 80)}" is not an absolute URL`
  if (uri.includes('#')) return `"${uri.slice(0, 80)}" has a fragment`
  // The app would read that parameter twice, once from its own URI and once from the hub.
  const taken = [...url.searchParams.keys()].find((name) => RESPONSE_PARAMETERS.has(name))
  if (taken !== undefined) return `"${uri.slice(0, 80)}" has ${taken} in its query, which the hub's answer adds`
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return `"${uri.slice(0, 80)}" uses http on a non-loopback host; use https`
  if (['javascript:', 'data:', 'file:', 'vbscript:'].includes(url.protocol)) return `"${uri.slice(0, 80)}" uses a forbidden scheme`
  return null
}

/**
 * The URI with code, state, iss... appended to its query, which is kept as it was written (RFC 6749
 * 3.1.2: "MUST be retained"): searchParams would write it again form-encoded ("a%20b" as "a+b",
 * "flag" as "flag=", "a=1;b=2" as "a=1%3Bb%3D2"). URL's own query reading keeps it, percent-encoding
 * only what may not stand in a URL.
 */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri)
  const added = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString()
  const query = url.search.slice(1) // "" for "cb" and "cb?" alike
  url.search = query === '' || query.endsWith('&') ? query + added : `${query}&${added}`
  return url.toString()
}
