// Client authentication with a budget: failed attempts (unknown client, wrong or missing secret)
// count against the requesting address, so secrets cannot be guessed at speed, and nothing an
// unauthenticated request does counts against the client it names. Shared by the endpoints that
// authenticate clients: the token endpoint and the device authorization endpoint.
import { setting } from '@/lib/config'
import { addressKey, sliced } from '@/lib/ratelimit'
import { authenticateClient, type ClientCredentials } from '@/lib/oauth/clients/authenticate'
import { OAuthError } from '@/lib/oauth/errors'
import type { Client } from '@/lib/oauth/clients'

const WINDOW_SECONDS = 60

const failuresKey = (ip: string) => `oauth-client-auth-failures:ip:${addressKey(ip)}`
const maxFailures = () => setting('OAUTH_TOKEN_AUTH_FAILURES_PER_IP')

export function tooManyRequests(retryAfterSeconds: number): OAuthError {
  return new OAuthError('temporarily_unavailable', 'Too many requests; slow down', 429, { 'Retry-After': String(retryAfterSeconds) })
}

/** 429 for an address whose client authentications failed too often in the current window. */
export async function refuseAddressWithFailedAuthentications(ip: string): Promise<void> {
  const failures = await sliced.peek(failuresKey(ip), maxFailures(), WINDOW_SECONDS)
  if (!failures.allowed) throw tooManyRequests(failures.retryAfterSeconds)
}

/** authenticateClient, counting an invalid_client against the address. */
export async function authenticateClientCountingFailures(credentials: ClientCredentials, ip: string, clientId = credentials.clientId): Promise<Client> {
  try {
    return await authenticateClient(credentials, clientId)
  } catch (error) {
    if (error instanceof OAuthError && error.code === 'invalid_client') await sliced.hit(failuresKey(ip), maxFailures(), WINDOW_SECONDS)
    throw error
  }
}
