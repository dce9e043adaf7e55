// Organization token exchange (RFC 8693; SPEC.md area B, 6-8): an organization-bound app with
// the token-exchange privilege trades a member's e-mail address for a short-lived token that
// reaches only the organization (lib/policy keeps exchange tokens inside it and under the
// member's role). No consent, no refresh token, and every exchange lands in the audit log.
//
// The token endpoint authenticates the app (HTTP Basic) and lib/oauth/grants/token-exchange passes
// its row here; this module decides everything after that.
import { db, lockRow, readList, statementsIn, type Tx } from '@/lib/db'
import { setting } from '@/lib/config'
import { issueToken } from '@/lib/auth/tokens'
import { recordAudit } from '@/lib/hub/audit'
import { EXCHANGE_LIFETIME_MAX_SECONDS } from '@/lib/hub/org-apps'
import { invalidClient, invalidGrant, invalidRequest, invalidScope } from '@/lib/oauth/errors'
import { signIdToken } from '@/lib/oauth/tokens'

export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange'
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token'
/** The Hugging Face Hub's URN, accepted as an alias so scripts written for it work unchanged. */
export const HF_USER_EMAIL_TOKEN_TYPE = 'urn:huggingface:token-type:user-email'

/** The hub's own subject token type (SPEC.md: urn:hub:token-type:user-email), configurable. */
export function userEmailTokenType(): string {
  return setting('OAUTH_USER_EMAIL_TOKEN_TYPE')
}

export function isUserEmailTokenType(type: string): boolean {
  return type === userEmailTokenType() || type === HF_USER_EMAIL_TOKEN_TYPE
}

type AppRow = NonNullable<Awaited<ReturnType<typeof db.oAuthApp.findUnique>>>

export type MemberExchangeRequest = {
  /** The authenticated app (client authentication is the token endpoint's job). */
  app: AppRow
  subjectToken: string
  subjectTokenType: string
  /** The scope parameter as sent (space-separated), or undefined for all of the app's scopes. */
  scope: string | undefined
  ip: string | null
}

export type ExchangeTokenResponse = {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  scope: string
  id_token?: string
  issued_token_type: typeof ACCESS_TOKEN_TYPE
}

// Deliberately loose: the member lookup is what decides; this only refuses what cannot be an address.
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/

function requestedScopes(scope: string | undefined, appScopes: string[]): string[] {
  if (scope === undefined || scope.trim() === '') return appScopes
  const requested = [...new Set(scope.split(' ').filter(Boolean))]
  const missing = requested.filter((s) => !appScopes.includes(s))
  if (missing.length) throw invalidScope(`The app is not configured for: ${missing.slice(0, 5).join(' ').slice(0, 200)}`)
  return appScopes.filter((s) => requested.includes(s))
}

/** Exchanges a member's e-mail for an organization-scoped access token (RFC 8693 2.2.1 response). */
export async function exchangeForMember(request: MemberExchangeRequest): Promise<ExchangeTokenResponse> {
  const { app } = request
  // The app authenticated with Basic, so invalid_client carries the Basic challenge (RFC 6749 5.2).
  if (!app.ownerOrgId) throw invalidClient('This app is not bound to an organization', true)
  if (!app.tokenExchange) throw invalidClient('This app is not allowed to use token exchange', true)
  const org = await db.org.findUnique({ where: { id: app.ownerOrgId } })
  if (!org || org.plan !== 'enterprise') throw invalidClient('Token exchange needs an Enterprise-plan organization', true)

  if (!isUserEmailTokenType(request.subjectTokenType)) {
    throw invalidRequest(`Unsupported subject_token_type; use ${userEmailTokenType()}`)
  }
  const email = request.subjectToken.trim().toLowerCase()
  if (!EMAIL.test(email)) throw invalidRequest('subject_token must be an e-mail address')
  const scopes = requestedScopes(request.scope, readList(app.scopes))
  if (scopes.length === 0) throw invalidScope('The app has no scopes configured')

  const member = await db.user.findUnique({ where: { email }, include: { memberships: { where: { orgId: org.id } } } })
  const membership = member?.memberships[0]
  if (!member || !membership) throw invalidGrant('The user is not a member of the organization')
  if (member.disabledAt) throw invalidGrant('The member\'s account is disabled')
  // Anyone may type any unused address into their profile: only a verified one names a member.
  if (!member.emailVerified) throw invalidGrant('The member has not verified this e-mail address')

  const lifetime = Math.min(app.exchangeTokenLifetime, EXCHANGE_LIFETIME_MAX_SECONDS)
  const issued = await db.$transaction(async (tx: Tx) => {
    // The privilege is read again under the app's row lock: an operator revoking it (or the app's
    // secret being deleted) since the app was read above has ended every exchange token, and the
    // one issued here would have outlived that; one committed before this lock is ended by them.
    await lockRow(statementsIn(tx), 'OAuthApp', app.id)
    const current = await tx.oAuthApp.findUnique({ where: { id: app.id }, select: { tokenExchange: true } })
    if (!current?.tokenExchange) throw invalidClient('This app is not allowed to use token exchange', true)
    const token = await issueToken(
      {
        kind: 'exchange',
        userId: member.id,
        displayName: app.name,
        role: 'scoped',
        scopes,
        orgIds: [org.id],
        appId: app.id,
        expiresAt: new Date(Date.now() + lifetime * 1000),
      },
      statementsIn(tx),
    )
    await recordAudit(
      {
        orgId: org.id,
        action: 'token.exchange',
        appId: app.id,
        userId: member.id,
        data: { clientId: app.clientId, member: member.username, role: membership.role, scopes, tokenId: token.id, expiresIn: lifetime },
        ip: request.ip,
      },
      tx,
    )
    return token
  })

  const response: ExchangeTokenResponse = {
    access_token: issued.token,
    token_type: 'bearer',
    expires_in: lifetime,
    scope: scopes.join(' '),
    issued_token_type: ACCESS_TOKEN_TYPE,
  }
  if (scopes.includes('openid')) {
    response.id_token = await signIdToken({ userId: member.id, clientId: app.clientId, scopes, orgIds: [org.id] })
  }
  return response
}
