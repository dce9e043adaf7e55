// grant_type=urn:ietf:params:oauth:grant-type:token-exchange (RFC 8693). Two uses share it, told
// apart by subject_token_type:
//   - a CI's OIDC id_token for a trusted publisher: no client authentication, `resource` names
//     the repo or user (./trusted-publisher);
//   - a member's e-mail for an organization-bound app with the exchange privilege: HTTP Basic
//     client authentication (./member-exchange).
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

    if (credentials.method !== 'client_secret_basic') throw invalidClient('Token exchange needs HTTP Basic client authentication', false)
    const client = await authenticate()
    // A public app proves nothing with an empty Basic password: exchange needs a real secret.
    if (client.isPublic || !client.appId) throw invalidClient('Token exchange needs an organization app with a client secret', true)
    // The client may come from the short client cache after another instance deleted the app.
    const app = await db.oAuthApp.findUnique({ where: { id: client.appId } })
    if (!app) throw invalidClient('Unknown client', true)
    return exchangeForMember({ app, subjectToken, subjectTokenType, scope: params.get('scope'), ip })
  },
}
