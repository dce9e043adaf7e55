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

/** Why a redirect URI cannot be registered, or null when it can. */
export function registrableRedirectUriProblem(uri: string): string | null {
  const url = parse(uri)
  if (!url) return `"${uri.slice(0, 80)}" is not an absolute URL`
  if (uri.includes('#')) return `"${uri.slice(0, 80)}" has a fragment`
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return `"${uri.slice(0, 80)}" uses http on a non-loopback host; use https`
  if (['javascript:', 'data:', 'file:', 'vbscript:'].includes(url.protocol)) return `"${uri.slice(0, 80)}" uses a forbidden scheme`
  return null
}

/** The URI with code, state, iss... added to its query, which is kept as it was. */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v)
  return url.toString()
}
