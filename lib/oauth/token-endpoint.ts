// POST /oauth/token: reads the body (form or JSON), rate-limits per address and per client,
// dispatches on grant_type, and answers with Cache-Control: no-store.
import { setting } from '@/lib/config'
import { clientIp, hit } from '@/lib/ratelimit'
import { credentialsFrom } from '@/lib/oauth/clients/authenticate'
import { OAuthError } from '@/lib/oauth/errors'
import { GRANTS } from '@/lib/oauth/grants'
import { bodyParams, required } from '@/lib/oauth/request'

const WINDOW_SECONDS = 60

async function limit(key: string, max: number) {
  const result = await hit(key, max, WINDOW_SECONDS)
  if (!result.allowed) {
    throw new OAuthError('temporarily_unavailable', 'Too many token requests; slow down', 429, { 'Retry-After': String(result.retryAfterSeconds) })
  }
}

export async function tokenEndpoint(request: Request): Promise<Response> {
  await limit(`oauth-token:ip:${clientIp(request.headers)}`, setting('OAUTH_TOKEN_LIMIT_PER_IP'))
  const params = await bodyParams(request)
  const credentials = credentialsFrom(request, params)
  if (credentials.clientId) await limit(`oauth-token:client:${credentials.clientId.slice(0, 200)}`, setting('OAUTH_TOKEN_LIMIT_PER_CLIENT'))
  const grantType = required(params, 'grant_type')
  const grant = GRANTS.get(grantType)
  if (!grant) throw new OAuthError('unsupported_grant_type', `Unsupported grant_type: ${grantType.slice(0, 100)}`)
  for (const name of grant.required) required(params, name)
  const body = await grant.exchange({ params, credentials, ip: clientIp(request.headers) })
  // RFC 6749 5.1: no-store (oauthHandler) and Pragma: no-cache.
  return Response.json(body, { headers: { Pragma: 'no-cache' } })
}
