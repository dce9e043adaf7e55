// Client authentication with a budget: failed attempts (unknown client, wrong or missing secret)
// count against the requesting address, so secrets cannot be guessed at speed, and nothing an
// unauthenticated request does counts against the client it names. Shared by the endpoints that
// authenticate clients: the token endpoint and the device authorization endpoint.
import { setting } from '@/lib/config'
import { processState } from '@/lib/config/process-state'
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

// Authentications under way, per address key, in this process. A failure is counted only once the
// secret has been checked, so without these a burst of concurrent wrong-secret requests would all
// pass the budget check before the first of them was counted; each in flight holds one unit of the
// budget until its outcome is known. Across instances the burst is bounded by the budget per instance.
const inFlight = processState('oauthClientAuthInFlight', () => new Map<string, number>())

/**
 * authenticateClient, counting an invalid_client against the address. Refused (429) when the
 * address's failures in the window, plus its authentications still being checked here, reach the budget.
 */
export async function authenticateClientCountingFailures(credentials: ClientCredentials, ip: string, clientId = credentials.clientId): Promise<Client> {
  // Without a secret nothing is being guessed (a public client, or a confidential one refused for sending none).
  if (credentials.secret === null) return authenticateClient(credentials, clientId)
  const key = failuresKey(ip)
  const budget = await sliced.peek(key, maxFailures(), WINDOW_SECONDS)
  // Read after the await and taken in the same turn: no other request can slip in between.
  const held = inFlight.get(key) ?? 0
  if (budget.remaining <= held) throw tooManyRequests(budget.retryAfterSeconds)
  inFlight.set(key, held + 1)
  try {
    return await authenticateClient(credentials, clientId)
  } catch (error) {
    // Counted before the unit held is given back, so the failure is never out of both.
    if (error instanceof OAuthError && error.code === 'invalid_client') await sliced.hit(key, maxFailures(), WINDOW_SECONDS)
    throw error
  } finally {
    const left = (inFlight.get(key) ?? 1) - 1
    if (left > 0) inFlight.set(key, left)
    else inFlight.delete(key)
  }
}
