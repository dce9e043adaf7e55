// POST /oauth/token: reads the body (form or JSON), rate-limits, dispatches on grant_type, and
// answers with Cache-Control: no-store.
//
// Three budgets: every request counts against its address; failed client authentications count
// against their address too, with a smaller budget (secret guessing); and a confidential client's
// own budget counts only requests that proved its secret, so nobody can exhaust it by naming the
// client with wrong secrets. A public client proves nothing (anyone may send its id), so it has no
// budget of its own to exhaust: its requests are limited per address only. The budgets are counted
// in slices (lib/ratelimit's SlicedLimiter), so most requests spend budget from memory and none is
// exceeded across instances.
import { setting } from '@/lib/config'
import { addressKey, clientIp, sliced } from '@/lib/ratelimit'
import { credentialsFrom } from '@/lib/oauth/clients/authenticate'
import { authenticateClientCountingFailures, refuseAddressWithFailedAuthentications, tooManyRequests } from '@/lib/oauth/clients/auth-failures'
import { OAuthError } from '@/lib/oauth/errors'
import { GRANTS } from '@/lib/oauth/grants'
import { bodyParams, required } from '@/lib/oauth/request'

const WINDOW_SECONDS = 60

async function limit(key: string, max: number) {
  const result = await sliced.hit(key, max, WINDOW_SECONDS)
  if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds)
}

export async function tokenEndpoint(request: Request): Promise<Response> {
  const ip = clientIp(request.headers)
  await limit(`oauth-token:ip:${addressKey(ip)}`, setting('OAUTH_TOKEN_LIMIT_PER_IP'))

  const params = await bodyParams(request)
  const credentials = credentialsFrom(request, params)
  // Only a request with a secret can guess one: a public client's device poll from an address that
  // guessed wrong (a shared NAT) goes on, and huggingface_hub's login is not aborted by a 429.
  if (credentials.secret !== null) await refuseAddressWithFailedAuthentications(ip)
  const grantType = required(params, 'grant_type')
  const grant = GRANTS.get(grantType)
  if (!grant) throw new OAuthError('unsupported_grant_type', `Unsupported grant_type: ${grantType.slice(0, 100)}`)
  for (const name of grant.required) required(params, name)

  const authenticate = async (clientId = credentials.clientId) => {
    const client = await authenticateClientCountingFailures(credentials, ip, clientId)
    if (!client.isPublic) await limit(`oauth-token:client:${client.clientId}`, setting('OAUTH_TOKEN_LIMIT_PER_CLIENT'))
    return client
  }
  const body = await grant.exchange({ params, credentials, ip, authenticate })
  // RFC 6749 5.1: no-store (oauthHandler) and Pragma: no-cache.
  return Response.json(body, { headers: { Pragma: 'no-cache' } })
}
