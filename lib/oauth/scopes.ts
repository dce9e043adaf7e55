// The scopes an OAuth app may request (SPEC.md area B, plus the moderation API's two), each with the
// plain words the consent page shows. The registry is data: a new scope is one more row.
import { invalidScope } from '@/lib/oauth/errors'

export type ScopeInfo = { name: string; description: string }

export const SCOPES: readonly ScopeInfo[] = [
  { name: 'openid', description: 'Sign you in and know who you are' },
  { name: 'profile', description: 'See your username, full name, avatar and website' },
  { name: 'email', description: 'See your e-mail address' },
  { name: 'read-billing', description: 'Know whether you (and the organizations you pick) have a payment method' },
  { name: 'read-memberships', description: 'See which organizations you belong to and your role in each' },
  { name: 'read-repos', description: 'Read your repositories, including private ones' },
  { name: 'gated-repos', description: 'Read public gated repositories you were given access to' },
  { name: 'contribute-repos', description: 'Create repositories and manage the ones this app created' },
  { name: 'write-repos', description: 'Read and change your repositories' },
  { name: 'manage-repos', description: 'Fully manage your repositories, including creating and deleting them' },
  { name: 'read-collections', description: 'Read your collections, including private ones' },
  { name: 'write-collections', description: 'Create, change and delete your collections' },
  { name: 'inference-api', description: 'Make inference requests on your behalf' },
  { name: 'read-endpoints', description: 'See and call your inference endpoints' },
  { name: 'write-endpoints', description: 'Manage your inference endpoints, including creating and deleting them' },
  { name: 'jobs', description: 'Run jobs on your behalf' },
  { name: 'webhooks', description: 'Manage your webhooks' },
  { name: 'write-discussions', description: 'Open discussions and pull requests and take part in them' },
  { name: 'read:users', description: 'Read user profiles through the moderation API' },
  { name: 'write:users', description: 'Use the moderation API on your behalf' },
]

const BY_NAME = new Map(SCOPES.map((s) => [s.name, s]))
export const SCOPE_NAMES = SCOPES.map((s) => s.name)

/** Scopes every app may request whatever it registered: signing in is what OAuth apps are for. */
export const ALWAYS_ALLOWED = ['openid', 'profile']

export function describeScope(name: string): string {
  return BY_NAME.get(name)?.description ?? name
}

export function isScope(name: string): boolean {
  return BY_NAME.has(name)
}

/**
 * OpenID Connect's own scope values that the hub does not grant as such, which generic OIDC clients
 * send: ignored, as OIDC Core 3.1.2.1 asks of scope values an OP does not understand
 * (`offline_access` asks for refresh tokens, which every grant here has; there is no address or
 * phone number to give). Any other unknown value is a mistake worth telling: invalid_scope.
 */
const IGNORED_OIDC_SCOPES = new Set(['offline_access', 'address', 'phone'])

/** A space-separated scope parameter as a list in registry order; unknown scopes are invalid_scope. */
export function parseScope(value: string | undefined, fallback: readonly string[]): string[] {
  if (value === undefined || value.trim() === '') return [...fallback]
  const requested = new Set(value.split(/[ ]+/).filter((s) => s && !IGNORED_OIDC_SCOPES.has(s)))
  if (requested.size === 0) return [...fallback]
  const unknown = [...requested].filter((s) => !BY_NAME.has(s))
  if (unknown.length) throw invalidScope(`Unknown scope: ${unknown.slice(0, 5).join(' ').slice(0, 200)}`)
  return SCOPE_NAMES.filter((s) => requested.has(s))
}

/** The scopes a registered app may be granted: those it registered and the sign-in ones. */
export function permittedScopes(appScopes: readonly string[]): Set<string> {
  return new Set([...ALWAYS_ALLOWED, ...appScopes])
}
