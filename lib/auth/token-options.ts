// What a personal access token can be created with: plain data, shared by the server's checks
// (lib/auth/personal-tokens) and the settings form in the browser.

/** Scopes a fine-grained personal token may carry (the hub's OAuth scopes plus the moderation API's). */
export const FINE_GRAINED_SCOPES = [
  'read-repos', 'write-repos', 'manage-repos', 'gated-repos', 'read-collections', 'write-collections',
  'read-memberships', 'read-billing', 'email', 'profile', 'inference-api', 'write-discussions', 'read:users', 'write:users',
] as const

export type TokenRole = 'read' | 'write' | 'fineGrained'

/** The roles as people read them (the stored value `fineGrained` is the Hub's spelling). */
export const TOKEN_ROLE_LABELS: Record<TokenRole, string> = { read: 'read', write: 'write', fineGrained: 'fine-grained' }

/** How long a new token may live, in days; the form also offers "never" (until revoked). */
export const TOKEN_EXPIRY_DAYS = [7, 30, 90] as const
