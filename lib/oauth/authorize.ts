// The authorization endpoint's decisions (RFC 6749 4.1.1-4.1.2, RFC 9207): checking a request,
// remembered consent, issuing codes, and where to send the browser. A request arrives three times
// on its way to a code (the endpoint, the consent page, the approve action); each reads it with
// readAuthorizationRequest, so it is judged the same way wherever it arrives.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { db, writeList } from '@/lib/db'
import { authSecret, hubUrl } from '@/lib/config'
import { randomToken, sha256Hex } from '@/lib/auth/secrets'
import { findClient, type Client } from '@/lib/oauth/clients'
import { consentCovers, findConsent, saveConsent } from '@/lib/oauth/consent'
import { OAuthError, invalidRequest, type OAuthErrorCode } from '@/lib/oauth/errors'
import { isValidChallenge } from '@/lib/oauth/pkce'
import { hubSignedClaims } from '@/lib/oauth/keys'
import { parseScope, permittedScopes } from '@/lib/oauth/scopes'
import { redirectUriAllowed, withQuery } from '@/lib/oauth/redirect-uri'
import { paramsFrom, type Params } from '@/lib/oauth/request'
import { isMetadataDocumentClientId } from '@/lib/oauth/clients/metadata-document'
import { safeNextPath } from '@/lib/http/next-path'

export const CODE_SECONDS = 60
const DEFAULT_SCOPES = ['openid', 'profile']
const MAX_NONCE_LENGTH = 512

export type AuthorizationRequest = {
  client: Client
  redirectUri: string
  state: string | undefined
  scopes: string[]
  codeChallenge: string | null
  nonce: string | null
  /** Organizations the app asked for (orgIds): pre-selected on the consent page. */
  requestedOrgIds: string[]
  /** OIDC Core 3.1.2.1's prompt, a space-separated list: none, login, consent, select_account (others are ignored). */
  prompts: ReadonlySet<string>
  /** max_age: the most seconds since the user signed in; older sessions sign in again. */
  maxAge: number | null
  /**
   * signed_in_after (the hub's own): when the hub sent the user to sign in for this request (epoch
   * seconds, signed with the hub's secret for this client and state, so that no one can skip the
   * sign-in by writing it into the URL); a sign-in since then counts. Null when absent or not the hub's.
   */
  signedInAfter: number | null
  /**
   * The user an id_token_hint names (its sub; OIDC Core 3.1.2.1): the request is answered for that
   * user only, and sign-in is asked again while another one is signed in. Null without a hint.
   */
  hintedUserId: string | null
}

export type AuthorizeCheck =
  /** The client or redirect URI cannot be trusted: the error is shown on our own page. */
  | { kind: 'show-error'; error: OAuthError }
  /** The redirect URI is trusted: the error goes back to it. */
  | { kind: 'redirect'; location: string }
  | { kind: 'ok'; request: AuthorizationRequest }

export async function checkAuthorizationRequest(params: Params): Promise<AuthorizeCheck> {
  const clientId = params.get('client_id')
  if (!clientId) return { kind: 'show-error', error: invalidRequest('The request names no client (client_id is missing).') }
  let client
  try {
    client = await findClient(clientId)
  } catch (error) {
    // A metadata document that cannot be used: explain it here, never redirect to what it lists.
    if (error instanceof OAuthError) return { kind: 'show-error', error }
    throw error
  }
  if (!client) return { kind: 'show-error', error: new OAuthError('invalid_client', 'No app is registered with this client_id.') }
  const redirectUri = params.get('redirect_uri')
  if (!redirectUri) return { kind: 'show-error', error: invalidRequest('The request has no redirect_uri.') }
  if (redirectUri.includes('#')) return { kind: 'show-error', error: invalidRequest('The redirect_uri has a fragment, which is never allowed.') }
  if (!redirectUriAllowed(redirectUri, client.redirectUris)) {
    return { kind: 'show-error', error: invalidRequest(`The redirect_uri is not registered for the app "${client.name}".`) }
  }
  const state = params.get('state')
  // RFC 6749 4.1.2.1 sends these errors back to the app. A metadata-document client is anyone's
  // document naming any redirect URI, so doing that made the hub an open redirector (a link with a
  // bad parameter bounced straight to the page the document names, no sign-in, no click): its
  // errors are shown here instead, as RFC 9700 4.11.2 advises for redirect URIs the hub cannot
  // trust. Registered apps belong to an account, and keep the RFC's redirect.
  const back = (error: OAuthError): AuthorizeCheck =>
    client.viaMetadataDocument ? { kind: 'show-error', error } : { kind: 'redirect', location: errorLocation(redirectUri, state, error) }

  // Request objects (OIDC Core 6) are not read: saying so beats answering the plain parameters
  // beside one as if its claims had been honoured.
  if (params.has('request')) return back(new OAuthError('request_not_supported', 'Request objects (the request parameter) are not supported: send the parameters themselves'))
  if (params.has('request_uri')) return back(new OAuthError('request_uri_not_supported', 'request_uri is not supported: send the parameters themselves'))
  const responseMode = params.get('response_mode')
  if (responseMode && responseMode !== 'query') return back(invalidRequest(`response_mode ${responseMode.slice(0, 40)} is not supported: the code is sent in the query`))
  const responseType = params.get('response_type') || 'code'
  if (responseType !== 'code') return back(new OAuthError('unsupported_response_type', 'Only response_type=code is supported'))
  let scopes: string[]
  try {
    scopes = parseScope(params.get('scope'), DEFAULT_SCOPES)
  } catch (error) {
    return back(error as OAuthError)
  }
  const permitted = permittedScopes(client.scopes)
  const notPermitted = scopes.filter((s) => !permitted.has(s))
  if (notPermitted.length) return back(new OAuthError('invalid_scope', `The app is not registered for: ${notPermitted.join(' ')}`))

  const codeChallenge = params.get('code_challenge') || null
  if (codeChallenge) {
    if (params.get('code_challenge_method') !== 'S256') return back(invalidRequest('code_challenge_method must be S256'))
    if (!isValidChallenge(codeChallenge)) return back(invalidRequest('code_challenge must be 43 base64url characters'))
  } else if (client.isPublic) {
    return back(invalidRequest('Public apps must use PKCE (code_challenge with S256)'))
  }
  const nonce = params.get('nonce') || null
  if (nonce && nonce.length > MAX_NONCE_LENGTH) return back(invalidRequest('nonce is too long'))
  const prompts = new Set((params.get('prompt') ?? '').split(' ').filter(Boolean))
  if (prompts.has('none') && prompts.size > 1) return back(invalidRequest('prompt=none cannot be combined with other prompt values'))
  // Silent sign-in answers login_required or consent_required by redirect, with no page between:
  // for a metadata-document client that is the same open redirect, so it signs in interactively.
  if (prompts.has('none') && client.viaMetadataDocument) {
    return back(new OAuthError('interaction_required', 'Apps that register through a client metadata document cannot use prompt=none; sign in without it'))
  }
  const maxAge = seconds(params.get('max_age'))
  if (maxAge === undefined) return back(invalidRequest('max_age must be a whole number of seconds'))
  const signedInAfter = markedTime(params.get('signed_in_after'), client.clientId, state)
  // An ID token the hub issued (to any client; expired ones too, as OIDC Core 3.1.2.1 allows),
  // else the hint cannot be honoured and the request is refused rather than answered without it.
  let hintedUserId: string | null = null
  const hint = params.get('id_token_hint')
  if (hint) {
    const claims = await hubSignedClaims(hint)
    if (!claims || claims.iss !== hubUrl() || typeof claims.sub !== 'string' || !claims.sub) {
      return back(invalidRequest('id_token_hint is not an ID token this hub issued'))
    }
    hintedUserId = claims.sub
  }

  return {
    kind: 'ok',
    request: {
      client,
      redirectUri,
      state,
      scopes,
      codeChallenge,
      nonce,
      requestedOrgIds: (params.get('orgIds') ?? '').split(/[\s,]+/).filter(Boolean).slice(0, 50),
      prompts,
      maxAge,
      signedInAfter,
      hintedUserId,
    },
  }
}

/** The hub's MAC of a text it writes into a URL and reads back (keyed with its secret). */
function hubMac(text: string): string {
  return createHmac('sha256', authSecret()).update(text).digest('base64url')
}

function macMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The mark of the time the hub sent the user to sign in for this client and state. */
function signInMark(time: number, clientId: string, state: string | undefined): string {
  return `${time}.${hubMac(`signed_in_after|${time}|${clientId}|${state ?? ''}`)}`
}

/** The time a mark holds, when it is the hub's own for this client and state; else null. */
function markedTime(mark: string | undefined, clientId: string, state: string | undefined): number | null {
  const time = /^(\d{1,10})\./.exec(mark ?? '')?.[1]
  if (time === undefined) return null
  return macMatches(mark!, signInMark(Number(time), clientId, state)) ? Number(time) : null
}

const verdictMac = (code: string, text: string) => hubMac(`shown_error|${code}|${text}`)

/**
 * Where the endpoint shows an error it judged must not go back to the app (show-error): the consent
 * page with that verdict itself, not the request again. The request could not carry it: the query
 * carried onwards keeps only the parameters an accepted request needs (authorizationQuery), a body
 * too large to read has none, and the page judging what is left would proceed where the endpoint
 * refused. The verdict is marked with the hub's MAC, so that the page shows no one else's words.
 */
export function shownErrorLocation(error: OAuthError): string {
  const query = new URLSearchParams({ error: error.code, error_description: error.text, error_mark: verdictMac(error.code, error.text) })
  return `/oauth/authorize/consent?${query}`
}

/** The verdict of shownErrorLocation that a query carries, when it is the hub's own; else null. */
function shownError(params: Params): OAuthError | null {
  const code = params.get('error')
  const text = params.get('error_description')
  const mark = params.get('error_mark')
  if (code === undefined || text === undefined || mark === undefined || !macMatches(mark, verdictMac(code, text))) return null
  return new OAuthError(code as OAuthErrorCode, text)
}

/** The request's own query with a fresh mark: the consent page after the sign-in the hub sends the user to. */
export function consentAfterSignIn(request: AuthorizationRequest, query: string, now = Math.floor(Date.now() / 1000)): string {
  const params = new URLSearchParams(query)
  params.set('signed_in_after', signInMark(now, request.client.clientId, request.state))
  return `/oauth/authorize/consent?${params}`
}

/** A parameter in whole seconds: null when absent, undefined when not a whole number. */
function seconds(value: string | undefined): number | null | undefined {
  if (value === undefined || value === '') return null
  return /^\d{1,10}$/.test(value) ? Number(value) : undefined
}

/** Whether the signed-in user may be answered for: the one id_token_hint names, when it names one. */
export function isHintedUser(request: AuthorizationRequest, userId: string): boolean {
  return request.hintedUserId === null || request.hintedUserId === userId
}

/**
 * Where the browser goes when this request needs the user to sign in again (OIDC Core 3.1.2.1):
 * prompt=login or select_account (once: the sign-in it asks for is marked with signed_in_after), a
 * sign-in older than max_age (or of unknown age), or another user signed in than id_token_hint names
 * (until that one is). With prompt=none, login_required goes back to the app. Null: the session the
 * user has will do. `query` is the request's own (authorizationQuery).
 */
export function signInAgainLocation(
  request: AuthorizationRequest,
  query: string,
  signedIn: { userId: string; authTime: number | null },
  now = Math.floor(Date.now() / 1000),
): string | null {
  const { authTime } = signedIn
  const asksToSignIn = request.prompts.has('login') || request.prompts.has('select_account')
  // A sign-in since the hub asked for one answers prompt=login and max_age alike (max_age=0 would
  // otherwise send the user back as soon as a second has passed).
  const signedInSinceAsked = request.signedInAfter !== null && authTime !== null && authTime >= request.signedInAfter
  const tooOld = request.maxAge !== null && !signedInSinceAsked && (authTime === null || now - authTime > request.maxAge)
  const otherUser = !isHintedUser(request, signedIn.userId)
  if (!(asksToSignIn && !signedInSinceAsked) && !tooOld && !otherUser) return null
  if (request.prompts.has('none')) return loginRequiredLocation(request, otherUser ? 'The user signed in is not the one id_token_hint names' : undefined)
  return `/login?reauth=1&next=${encodeURIComponent(consentAfterSignIn(request, query, now))}`
}

/**
 * The parameters an accepted authorization request carries from one arrival to the next (to the
 * sign-in and consent pages): all that checkAuthorizationRequest reads, but request, request_uri and
 * response_mode, which it reads only to refuse (an accepted request has none, or response_mode=query).
 * A refused request goes on as its verdict (shownErrorLocation), never as this query.
 */
export const AUTHORIZATION_PARAMETERS: ReadonlySet<string> = new Set([
  'client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'nonce', 'prompt', 'orgIds',
  'max_age', 'signed_in_after', 'id_token_hint',
])

/**
 * The query an accepted request is sent to the consent page (and the sign-in page on the way to it)
 * with: the request's own parameters (repeats included, should a caller pass a refused request) and
 * nothing else, so that a request padded with other fields does not grow the Location header past
 * what browsers and clients read.
 */
export function authorizationQuery(entries: Iterable<[string, string]>): string {
  return new URLSearchParams([...entries].filter(([name]) => AUTHORIZATION_PARAMETERS.has(name))).toString()
}

/**
 * Reads and checks a request from any of its arrivals; malformed parameters are shown, never
 * redirected. A verdict the endpoint marked (shownErrorLocation) is that verdict again.
 */
export async function readAuthorizationRequest(entries: Iterable<[string, unknown]>): Promise<AuthorizeCheck> {
  try {
    const params = paramsFrom(entries)
    const shown = shownError(params)
    if (shown) return { kind: 'show-error', error: shown }
    return await checkAuthorizationRequest(params)
  } catch (error) {
    if (error instanceof OAuthError) return { kind: 'show-error', error }
    throw error
  }
}

function errorLocation(redirectUri: string, state: string | undefined, error: OAuthError): string {
  return withQuery(redirectUri, { error: error.code, error_description: error.description, state, iss: hubUrl() })
}

export function deniedLocation(request: AuthorizationRequest): string {
  return errorLocation(request.redirectUri, request.state, new OAuthError('access_denied', 'The user denied the request'))
}

/** The user's organizations among the given ids (a grant never reaches an org the user is not in). */
export async function memberOrgIds(userId: string, orgIds: readonly string[]): Promise<string[]> {
  if (orgIds.length === 0) return []
  const rows = await db.membership.findMany({ where: { userId, orgId: { in: [...orgIds] } }, select: { orgId: true } })
  return orgIds.filter((id) => rows.some((r) => r.orgId === id))
}

/**
 * Issues a single-use code for the user's organizations among `orgIds` and returns where to send
 * the browser with it. With `remember` (the user approved on the consent page), the consent is
 * saved in the same transaction as the code: either both exist or neither.
 */
export async function approve(
  request: AuthorizationRequest,
  userId: string,
  orgIds: readonly string[],
  /** authTime: when the user signed in (the ID token's auth_time), when known. */
  options: { remember: boolean; orgsChecked?: boolean; authTime?: number | null } = { remember: false },
): Promise<string> {
  const granted = options.orgsChecked ? [...orgIds] : await memberOrgIds(userId, orgIds)
  const code = randomToken(40)
  await db.$transaction(async (tx) => {
    if (options.remember) await saveConsent(userId, request.client.clientId, request.scopes, granted, tx)
    await tx.authorizationCode.create({
      data: {
        codeHash: sha256Hex(code),
        clientId: request.client.clientId,
        appId: request.client.appId,
        userId,
        redirectUri: request.redirectUri,
        scopes: writeList(request.scopes),
        orgIds: writeList(granted),
        codeChallenge: request.codeChallenge,
        nonce: request.nonce,
        authTime: options.authTime ?? null,
        expiresAt: new Date(Date.now() + CODE_SECONDS * 1000),
      },
    })
  })
  return withQuery(request.redirectUri, { code, state: request.state, iss: hubUrl() })
}

/** Where to go without asking: a remembered consent approves, prompt=none fails; null means ask. */
export async function decideWithoutPrompt(request: AuthorizationRequest, userId: string, authTime: number | null): Promise<string | null> {
  const consent = await findConsent(userId, request.client.clientId)
  // One membership read for both the organizations asked for and those remembered.
  const member = new Set(await memberOrgIds(userId, [...request.requestedOrgIds, ...(consent?.orgIds ?? [])]))
  const requestedOrgs = request.requestedOrgIds.filter((id) => member.has(id))
  if (!request.prompts.has('consent') && consentCovers(consent, request.scopes, requestedOrgs)) {
    return approve(request, userId, consent!.orgIds.filter((id) => member.has(id)), { remember: false, orgsChecked: true, authTime })
  }
  if (request.prompts.has('none')) return errorLocation(request.redirectUri, request.state, new OAuthError('consent_required', 'The user has not approved this app yet'))
  return null
}

/** For a prompt=none request from a signed-out browser (or one signed in as another user than id_token_hint names). */
export function loginRequiredLocation(request: AuthorizationRequest, description = 'The user is not signed in'): string {
  return errorLocation(request.redirectUri, request.state, new OAuthError('login_required', description))
}

/** The user's organizations, for the consent page's picker. */
export async function pickableOrgs(userId: string) {
  const memberships = await db.membership.findMany({ where: { userId }, include: { org: true }, orderBy: { createdAt: 'asc' } })
  return memberships.map((m) => ({ id: m.org.id, name: m.org.name, fullname: m.org.fullname, role: m.role }))
}

/** The authorization request a sign-in page's ?next= leads to (the request or its consent page), or null. */
function authorizationRequestIn(next: string): URLSearchParams | null {
  let url: URL
  try {
    url = new URL(safeNextPath(next), 'http://hub.invalid')
  } catch {
    return null
  }
  return url.pathname === '/oauth/authorize' || url.pathname === '/oauth/authorize/consent' ? url.searchParams : null
}

/**
 * Who a sign-in page is on the way to (its ?next= an authorization request): the registered app's
 * name, or the host of a metadata-document client (named by its URL; its document is not fetched
 * for this). Null when the path is no authorization request or names no client.
 */
export async function appAwaitingSignIn(next: string): Promise<string | null> {
  const clientId = authorizationRequestIn(next)?.get('client_id')
  if (!clientId) return null
  if (isMetadataDocumentClientId(clientId)) return URL.canParse(clientId) ? `an app at ${new URL(clientId).host}` : null
  return (await findClient(clientId))?.name ?? null
}

/**
 * The account that request's id_token_hint names (its username), which the sign-in page asks for:
 * the request is answered for no other. Null without a hint this hub signed, or for an account gone.
 */
export async function accountAwaitingSignIn(next: string): Promise<string | null> {
  const hint = authorizationRequestIn(next)?.get('id_token_hint')
  if (!hint) return null
  const claims = await hubSignedClaims(hint)
  if (!claims || claims.iss !== hubUrl() || typeof claims.sub !== 'string') return null
  return (await db.user.findUnique({ where: { id: claims.sub }, select: { username: true } }))?.username ?? null
}
