// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client_id that
// is an https URL names a JSON document, served by the app itself (on the Hub at
// {website}/.well-known/oauth-cimd), that describes the client. The hub fetches it through
// lib/net (SSRF defence, no redirects, only 200, 5 KB), checks it, and caches valid documents
// within bounds. Such clients are public: PKCE, no secret, and nothing is stored about them.
import { fetchOutbound, loopbackFetchAllowed, OutboundFetchError } from '@/lib/net/outbound'
import { BoundedCache, freshnessSeconds } from '@/lib/net/cache'
import { registrableRedirectUriProblem } from '@/lib/oauth/redirect-uri'
import { displayText } from '@/lib/display-text'

/** A client described by its metadata document, as the authorization server uses it. */
export type MetadataDocumentClient = {
  /** The document URL, which is the client_id. */
  clientId: string
  /** client_name; shown on consent beside the host, never instead of it. */
  name: string
  /** The client_id's host name: consent shows it prominently (the draft's security considerations). */
  host: string
  redirectUris: string[]
  logoUri: string | null
  clientUri: string | null
  tokenEndpointAuthMethod: 'none'
}

export class ClientMetadataError extends Error {}

export const MAX_DOCUMENT_BYTES = 5 * 1024
const MAX_CLIENT_ID_LENGTH = 2000
const MAX_REDIRECT_URIS = 20
const MAX_NAME_LENGTH = 100

// Members that would make the client hold a shared secret, which a document anyone can read cannot.
const SHARED_SECRET_METHODS = new Set(['client_secret_basic', 'client_secret_post', 'client_secret_jwt'])

const cache = new BoundedCache<MetadataDocumentClient>({ maxEntries: 100, minTtlSeconds: 30, maxTtlSeconds: 24 * 3600 })

/** Whether a client_id names a metadata document rather than a registered app. */
export function isMetadataDocumentClientId(clientId: string): boolean {
  return clientId.startsWith('https://') || (loopbackFetchAllowed() && clientId.startsWith('http://'))
}

/** Why this client_id cannot be a metadata-document URL, or null when it can. */
export function clientIdUrlProblem(clientId: string): string | null {
  if (clientId.length > MAX_CLIENT_ID_LENGTH) return 'client_id URL is too long'
  // Compared as a plain string with the document's client_id, so only the canonical spelling is
  // accepted: no default port, no upper-case host, no (encoded) dot segments, no bare origin.
  if (/[\s\\\u0000-\u001f\u007f]/.test(clientId)) return 'client_id URL contains whitespace, backslashes or control characters'
  let url: URL
  try {
    url = new URL(clientId)
  } catch {
    return 'client_id is not a URL'
  }
  if (url.href !== clientId) return 'client_id URL is not in canonical form (no dot segments, default port or upper-case host)'
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackFetchAllowed())) return 'client_id URL must use https'
  if (url.username || url.password) return 'client_id URL must not contain credentials'
  if (url.hash || clientId.includes('#')) return 'client_id URL must not contain a fragment'
  if (url.pathname === '/') return 'client_id URL must contain a path'
  return null
}

function urlMember(doc: Record<string, unknown>, name: string): string | null {
  const value = doc[name]
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || value.length > 2000 || !URL.canParse(value)) throw new ClientMetadataError(`${name} must be a URL`)
  if (new URL(value).protocol !== 'https:' && !(loopbackFetchAllowed() && new URL(value).protocol === 'http:')) throw new ClientMetadataError(`${name} must be an https URL`)
  return value
}

/** Checks a fetched document against the draft's rules and the Hub's (SPEC.md area B). */
export function parseClientMetadataDocument(clientId: string, body: Buffer, contentType: string | null): MetadataDocumentClient {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (mediaType && mediaType !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) {
    throw new ClientMetadataError(`The metadata document must be JSON (got ${mediaType.slice(0, 60)})`)
  }
  let doc: unknown
  try {
    doc = JSON.parse(body.toString('utf8'))
  } catch {
    throw new ClientMetadataError('The metadata document is not valid JSON')
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ClientMetadataError('The metadata document must be a JSON object')
  const d = doc as Record<string, unknown>

  if (d.client_id !== clientId) throw new ClientMetadataError('The document\'s client_id does not equal its URL')
  if ('client_secret' in d || 'client_secret_expires_at' in d) throw new ClientMetadataError('A metadata document must not contain a client secret')
  const method = d.token_endpoint_auth_method
  if (typeof method === 'string' && SHARED_SECRET_METHODS.has(method)) throw new ClientMetadataError(`token_endpoint_auth_method ${method} uses a shared secret, which metadata-document clients cannot have`)
  if (method !== 'none') throw new ClientMetadataError('token_endpoint_auth_method must be "none"')

  const name = typeof d.client_name === 'string' ? d.client_name.trim() : ''
  if (!name) throw new ClientMetadataError('client_name is required')
  const nameProblem = displayText(MAX_NAME_LENGTH).safeParse(name)
  if (!nameProblem.success) throw new ClientMetadataError(`client_name ${nameProblem.error.issues[0]!.message}`)

  const uris = d.redirect_uris
  if (!Array.isArray(uris) || uris.length === 0) throw new ClientMetadataError('redirect_uris must be a non-empty array')
  if (uris.length > MAX_REDIRECT_URIS) throw new ClientMetadataError(`At most ${MAX_REDIRECT_URIS} redirect_uris`)
  for (const uri of uris) {
    if (typeof uri !== 'string') throw new ClientMetadataError('redirect_uris must be strings')
    const problem = registrableRedirectUriProblem(uri)
    if (problem) throw new ClientMetadataError(`redirect_uris: ${problem}`)
  }

  return {
    clientId,
    name,
    host: new URL(clientId).hostname,
    redirectUris: [...new Set(uris as string[])],
    logoUri: urlMember(d, 'logo_uri'),
    clientUri: urlMember(d, 'client_uri'),
    tokenEndpointAuthMethod: 'none',
  }
}

/**
 * The client a metadata-document client_id describes. Fetches (or reuses a cached copy of) the
 * document; throws ClientMetadataError when the URL, the fetch or the document breaks a rule.
 * Invalid documents and failed fetches are never cached.
 */
export async function resolveMetadataDocumentClient(clientId: string): Promise<MetadataDocumentClient> {
  const problem = clientIdUrlProblem(clientId)
  if (problem) throw new ClientMetadataError(problem)
  return cache.get(clientId, async () => {
    let response
    try {
      response = await fetchOutbound(clientId, { maxBytes: MAX_DOCUMENT_BYTES, accept: 'application/json' })
    } catch (e) {
      if (e instanceof OutboundFetchError) throw new ClientMetadataError(`Cannot fetch the client metadata document: ${e.message}`)
      throw e
    }
    return {
      value: parseClientMetadataDocument(clientId, response.body, response.contentType),
      freshSeconds: freshnessSeconds(response.cacheControl, response.expires),
    }
  })
}

/** Drops a cached document, e.g. when an operator blocks a client or in tests. */
export function forgetMetadataDocument(clientId: string): void {
  cache.delete(clientId)
}
