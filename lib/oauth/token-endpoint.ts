// POST /oauth/token: reads the body (form or JSON), rate-limits, dispatches on grant_type, and
// answers with Cache-Control: no-store.
//
// Three budgets: every request counts against its address; failed client authentications count
// against their address too, with a smaller budget (secret guessing); and a client's own budget
// counts only requests that authenticated as that client, so nobody can exhaust it by naming the
// client with wrong secrets. All three are counted in slices (lib/ratelimit's SlicedLimiter), so
// most requests spend budget from memory and none is exceeded across instances.
import { setting } from '@/lib/config'
import { clientIp, sliced, type Limit } from '@/lib/ratelimit'
import { authenticateClient, credentialsFrom } from '@/lib/oauth/clients/authenticate'
import { OAuthError } from '@/lib/oauth/errors'
import { GRANTS } from '@/lib/oauth/grants'
import { bodyParams, required } from '@/lib/oauth/request'

const WINDOW_SECONDS = 60

function tooMany(result: Limit): OAuthError {
  return new OAuthError('temporarily_unavailable', 'Too many token requests; slow down', 429, { 'Retry-After': String(result.retryAfterSeconds) })
}

async function limit(key: string, max: number) {
  const result = await sliced.hit(key, max, WINDOW_SECONDS)
  if (!result.allowed) throw tooMany(result)
}

export async function tokenEndpoint(request: Request): Promise<Response> {
  const ip = clientIp(request.headers)
  await limit(`oauth-token:ip:${ip}`, setting('OAUTH_TOKEN_LIMIT_PER_IP'))
  const failuresKey = `oauth-token:auth-failures:ip:${ip}`
  const maxFailures = setting('OAUTH_TOKEN_AUTH_FAILURES_PER_IP')
  const failures = await sliced.peek(failuresKey, maxFailures, WINDOW_SECONDS)
  if (!failures.allowed) throw tooMany(failures)

  const params = await bodyParams(request)
  const credentials = credentialsFrom(request, params)
  const grantType = required(params, 'grant_type')
  const grant = GRANTS.get(grantType)
  if (!grant) throw new OAuthError('unsupported_grant_type', `Unsupported grant_type: ${grantType.slice(0, 100)}`)
  for (const name of grant.required) required(params, name)

  const authenticate = async (clientId = credentials.clientId) => {
    try {
      const client = await authenticateClient(credentials, clientId)
      await limit(`oauth-token:client:${client.clientId}`, setting('OAUTH_TOKEN_LIMIT_PER_CLIENT'))
      return client
    } catch (error) {
      if (error instanceof OAuthError && error.code === 'invalid_client') await sliced.hit(failuresKey, maxFailures, WINDOW_SECONDS)
      throw error
    }
  }
  const body = await grant.exchange({ params, credentials, ip, authenticate })
  // RFC 6749 5.1: no-store (oauthHandler) and Pragma: no-cache.
  return Response.json(body, { headers: { Pragma: 'no-cache' } })
}
