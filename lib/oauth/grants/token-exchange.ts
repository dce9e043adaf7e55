// grant_type=urn:ietf:params:oauth:grant-type:token-exchange (RFC 8693). Two uses share it, told
// apart by subject_token_type:
//   - a CI's OIDC id_token for a trusted publisher: no client authentication, `resource` names
//     the repo or user (./trusted-publisher);
//   - a member's e-mail for an organization-bound app with the exchange privilege: its client
//     secret, by HTTP Basic (as the spec's backends send it) or in the form (./member-exchange).
//
// Neither use delegates, issues anything but an access token, or serves another audience than the
// hub itself: RFC 8693 2.1's optional parameters that would ask for that are refused
// (refuseUnsupportedParameters), never silently ignored.
import { db } from '@/lib/db'
import { hubUrl } from '@/lib/config'
import { invalidClient, invalidRequest, OAuthError } from '@/lib/oauth/errors'
import { required, type Params } from '@/lib/oauth/request'
import { ACCESS_TOKEN_TYPE, exchangeForMember, TOKEN_EXCHANGE_GRANT_TYPE } from '@/lib/oauth/grants/member-exchange'
import { exchangeCiIdToken, ID_TOKEN_TYPE } from '@/lib/oauth/grants/trusted-publisher'
import type { Grant } from '@/lib/oauth/grants/types'

export const tokenExchangeGrant: Grant = {
  type: TOKEN_EXCHANGE_GRANT_TYPE,
  required: ['subject_token', 'subject_token_type'],
  async exchange({ params, credentials, ip, authenticate }) {
    const subjectToken = params.get('subject_token')!
    const subjectTokenType = params.get('subject_token_type')!
    if (subjectTokenType === ID_TOKEN_TYPE) {
      // No client authentication is needed, but credentials that were sent are checked (RFC 6749
      // 3.2.1), and a wrong secret is counted like any other.
      if (credentials.method !== 'none') await authenticate()
      // resource names the repo or user here (./trusted-publisher), not an audience.
      refuseUnsupportedParameters(params, { resourceIsAudience: false })
      return exchangeCiIdToken({ subjectToken, resource: required(params, 'resource') })
    }

    // The app's secret, sent either way discovery lists (RFC 8693 2.1 takes the token endpoint's client authentication).
    if (credentials.method === 'none') throw invalidClient('Token exchange needs the app\'s client secret (HTTP Basic, or client_secret in the form)', false)
    const client = await authenticate()
    // A public app proves nothing with an empty Basic password: exchange needs a real secret.
    if (client.isPublic || !client.appId) throw invalidClient('Token exchange needs an organization app with a client secret', true)
    // The client may come from the short client cache after another instance deleted the app.
    const app = await db.oAuthApp.findUnique({ where: { id: client.appId } })
    if (!app) throw invalidClient('Unknown client', true)
    refuseUnsupportedParameters(params, { resourceIsAudience: true })
    return exchangeForMember({ app, subjectToken, subjectTokenType, scope: params.get('scope'), ip })
  },
}

/** Whether a resource or audience names this hub (its issuer URL), the only target its tokens serve. */
function namesThisHub(target: string): boolean {
  const hub = hubUrl().replace(/\/+$/, '')
  return target === hub || target === `${hub}/`
}

/** RFC 8693 2.1's optional parameters that ask for what the hub does not do: invalid_request, or invalid_target (2.2.2). */
function refuseUnsupportedParameters(params: Params, options: { resourceIsAudience: boolean }): void {
  // RFC 6749 3.1: a parameter sent without a value is treated as omitted.
  const get = (name: string) => params.get(name) || undefined
  const actorToken = get('actor_token')
  const actorTokenType = get('actor_token_type')
  if (actorToken !== undefined && actorTokenType === undefined) throw invalidRequest('actor_token_type is required with actor_token')
  if (actorToken === undefined && actorTokenType !== undefined) throw invalidRequest('actor_token_type is only sent with an actor_token')
  if (actorToken !== undefined) throw invalidRequest('Actor tokens are not supported: the hub does not issue delegated tokens')
  const requested = get('requested_token_type')
  if (requested && requested !== ACCESS_TOKEN_TYPE) throw invalidRequest(`Only access tokens are issued: requested_token_type must be ${ACCESS_TOKEN_TYPE}`)
  const audience = get('audience')
  if (audience !== undefined && !namesThisHub(audience)) throw new OAuthError('invalid_target', 'The hub issues tokens for itself only: audience must be its URL, or absent')
  const resource = get('resource')
  if (options.resourceIsAudience && resource !== undefined && !namesThisHub(resource)) {
    throw new OAuthError('invalid_target', 'The hub issues tokens for itself only: resource must be its URL, or absent')
  }
}
