// Verifying a CI provider's id_token: the issuer's OpenID discovery document names its JWKS;
// both are fetched through lib/net (SSRF defence, size cap, deadline) and cached within bounds.
// A token signed with a key the cached JWKS lacks triggers one refetch (the provider rotated its
// keys), at most once a minute per issuer.
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose'
import { fetchOutbound, OutboundFetchError } from '@/lib/net/outbound'
import { BoundedCache, freshnessSeconds } from '@/lib/net/cache'

export class IssuerKeysError extends Error {}

const MAX_DOCUMENT_BYTES = 64 * 1024
const BOUNDS = { maxEntries: 50, minTtlSeconds: 60, maxTtlSeconds: 3600 }
const REFETCH_COOLDOWN_MS = 60_000
// Asymmetric algorithms only: a public JWKS can never verify an HMAC ('none' is refused by jose).
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']
export const CLOCK_SKEW_SECONDS = 30

const jwksUris = new BoundedCache<string>(BOUNDS)
const keySets = new BoundedCache<JSONWebKeySet>(BOUNDS)

/** A JSON object from `url` (the issuer's documents are objects; `null`, arrays and numbers are refused). */
async function fetchJson(url: string): Promise<{ json: Record<string, unknown>; freshSeconds: number | null }> {
  try {
    const response = await fetchOutbound(url, { maxBytes: MAX_DOCUMENT_BYTES })
    const json: unknown = JSON.parse(response.body.toString('utf8'))
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new IssuerKeysError(`${url} is not a JSON object`)
    return { json: json as Record<string, unknown>, freshSeconds: freshnessSeconds(response.cacheControl, response.expires) }
  } catch (e) {
    if (e instanceof OutboundFetchError) throw new IssuerKeysError(`Cannot fetch ${url}: ${e.message}`)
    if (e instanceof SyntaxError) throw new IssuerKeysError(`${url} is not JSON`)
    throw e
  }
}

function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
}

function jwksUriOf(issuer: string): Promise<string> {
  return jwksUris.get(issuer, async () => {
    const { json, freshSeconds } = await fetchJson(discoveryUrl(issuer))
    const doc = json
    if (doc.issuer !== issuer) throw new IssuerKeysError('The discovery document names another issuer')
    if (typeof doc.jwks_uri !== 'string') throw new IssuerKeysError('The discovery document has no jwks_uri')
    return { value: doc.jwks_uri, freshSeconds }
  })
}

function keySetOf(jwksUri: string): Promise<JSONWebKeySet> {
  return keySets.get(jwksUri, async () => {
    const { json, freshSeconds } = await fetchJson(jwksUri)
    const keys = json.keys
    if (!Array.isArray(keys)) throw new IssuerKeysError('The JWKS has no keys array')
    return { value: { keys }, freshSeconds }
  })
}

export type VerifyExpectations = { issuer: string; audience: string }

/**
 * The token's verified claims: signature by the issuer's published keys, iss, aud, exp (required)
 * and nbf with a small clock skew. Throws jose's JOSEError subclasses for invalid tokens and
 * IssuerKeysError when the issuer's keys cannot be obtained.
 */
export async function verifyIssuerToken(token: string, expected: VerifyExpectations): Promise<JWTPayload> {
  const jwksUri = await jwksUriOf(expected.issuer)
  const options = { issuer: expected.issuer, audience: expected.audience, algorithms: ALGORITHMS, clockTolerance: CLOCK_SKEW_SECONDS, requiredClaims: ['exp'] }
  const verify = async () => {
    try {
      return (await jwtVerify(token, createLocalJWKSet(await keySetOf(jwksUri)), options)).payload
    } catch (e) {
      if (e instanceof joseErrors.JOSEError || e instanceof IssuerKeysError) throw e
      // jose throws plain TypeErrors for keys it cannot use (an RSA key under 2048 bits, a key
      // that is no JWK): the issuer's published keys are at fault, not the hub.
      throw new IssuerKeysError(`The issuer's keys cannot be used: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  try {
    return await verify()
  } catch (e) {
    const age = keySets.ageOf(jwksUri)
    if (!(e instanceof joseErrors.JWKSNoMatchingKey) || age === null || age < REFETCH_COOLDOWN_MS) throw e
    keySets.delete(jwksUri)
    return verify()
  }
}
