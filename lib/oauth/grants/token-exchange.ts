// grant_type=urn:ietf:params:oauth:grant-type:token-exchange (RFC 8693). Two uses share it, told
// apart by subject_token_type:
//   - a CI's OIDC id_token for a trusted publisher: no client authentication, `resource` names
//     the repo or user (./trusted-publisher);
//   - a member's e-mail for an organization-bound app with the exchange privilege: its client
//     secret, by HTTP Basic (as the spec's backends send it) or in the form (./member-exchange).
import { db } from '@/lib/db'
import { invalidClient } from '@/lib/oauth/errors'
import { required } from '@/lib/oauth/request'
import { exchangeForMember, TOKEN_EXCHANGE_GRANT_TYPE } from '@/lib/oauth/grants/member-exchange'
import { exchangeCiIdToken, ID_TOKEN_TYPE } from '@/lib/oauth/grants/trusted-publisher'
import type { Grant } from '@/lib/oauth/grants/types'

export const tokenExchangeGrant: Grant = {
  type: TOKEN_EXCHANGE_GRANT_TYPE,
  required: ['subject_token', 'subject_token_type'],
  async exchange({ params, credentials, ip, authenticate }) {
    const subjectToken = params.get('subject_token')!
    const subjectTokenType = params.get('subject_token_type')!
    if (subjectTokenType === ID_TOKEN_TYPE) return exchangeCiIdToken({ subjectToken, resource: required(params, 'resource') })

    // The app's secret, sent either way discovery lists (RFC 8693 2.1 takes the token endpoint's client authentication).
    if (credentials.method === 'none') throw invalidClient('Token exchange needs the app\'s client secret (HTTP Basic, or client_secret in the form)', false)
    const client = await authenticate()
    // A public app proves nothing with an empty Basic password: exchange needs a real secret.
    if (client.isPublic || !client.appId) throw invalidClient('Token exchange needs an organization app with a client secret', true)
    // The client may come from the short client cache after another instance deleted the app.
    const app = await db.oAuthApp.findUnique({ where: { id: client.appId } })
    if (!app) throw invalidClient('Unknown client', true)
    return exchangeForMember({ app, subjectToken, subjectTokenType, scope: params.get('scope'), ip })
  },
}
