// Who is calling the hub's APIs with a bearer token, and what that token carries.
/** session: the signed-in user's own pages calling the moderation API (lib/auth/session-credentials). */
export type TokenKind = 'personal' | 'oauth' | 'exchange' | 'publisher' | 'session'

export type Principal = {
  userId: string
  username: string
  tokenId: string
  tokenKind: TokenKind
  /** The name the token was given (personal tokens) or the app it was issued to. */
  displayName: string
  /** Personal tokens: read | write | fineGrained. Tokens of other kinds: null (their scopes decide). */
  role: 'read' | 'write' | 'fineGrained' | null
  scopes: string[]
  /** Organizations this token may reach: granted at consent (oauth) or the bound org (exchange). */
  orgIds: string[]
  /** OAuth app that the token was issued to (contribute-repos reaches only repos it created). */
  appId: string | null
  /** Trusted-publisher tokens are limited to one repo. */
  repoId: string | null
  createdAt: Date
  expiresAt: Date | null
}
