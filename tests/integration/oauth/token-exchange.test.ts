// Token exchange (RFC 8693) at POST /oauth/token: the optional parameters the hub does not honour
// are refused, never silently ignored (actor tokens, other token types, other audiences), and
// client credentials that were sent are checked even where the trusted-publisher exchange needs none.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { hubUrl } from '@/lib/config'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg, setBilling } from '@/lib/hub/orgs'
import { createApp } from '@/lib/oauth/clients/apps'
import { TOKEN_EXCHANGE_GRANT_TYPE } from '@/lib/oauth/grants/member-exchange'
import { ID_TOKEN_TYPE } from '@/lib/oauth/grants/trusted-publisher'
import { basic, token } from './setup'

const USER_EMAIL = 'urn:hub:token-type:user-email'
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token'
let backend: { clientId: string; secret: string }

beforeAll(async () => {
  const admin = await createUser({ username: 'txadmin', email: 'txadmin@test.dev', password: 'password-admin' })
  await createUser({ username: 'txmember', email: 'txmember@test.dev', password: 'password-member' }, { emailVerified: true })
  const org = await createOrg(admin.id, { name: 'txorg' })
  await setBilling(org.id, { plan: 'enterprise', canPay: true })
  await addMember(org.id, 'txmember', 'read')
  const app = await createApp({ kind: 'org', orgId: org.id }, { name: 'TX backend', redirectUris: ['https://tx.example/cb'], scopes: ['openid', 'read-repos'] }, true)
  await db.oAuthApp.update({ where: { id: app.app.id }, data: { tokenExchange: true } })
  backend = { clientId: app.app.clientId, secret: app.secret! }
})

afterEach(() => {
  delete process.env.OAUTH_TOKEN_AUTH_FAILURES_PER_IP
})

const memberExchange = (extra: Record<string, string>) =>
  token({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token: 'txmember@test.dev', subject_token_type: USER_EMAIL, ...extra }, { authorization: basic(backend.clientId, backend.secret) })

const ciExchange = (extra: Record<string, string>, init: { authorization?: string; ip?: string } = {}) =>
  token({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token: 'abc', subject_token_type: ID_TOKEN_TYPE, resource: 'txadmin/some-model', ...extra }, init)

describe('token exchange parameters the hub does not honour', () => {
  it('refuses actor tokens: actor_token_type is required with one (RFC 8693 2.1), and delegation is not supported', async () => {
    for (const exchange of [memberExchange, ciExchange]) {
      const untyped = await exchange({ actor_token: 'x' })
      expect([untyped.res.status, untyped.body.error]).toEqual([400, 'invalid_request'])
      expect(untyped.body.error_description).toMatch(/actor_token_type/)
      const typed = await exchange({ actor_token: 'x', actor_token_type: ACCESS_TOKEN })
      expect([typed.res.status, typed.body.error]).toEqual([400, 'invalid_request'])
      expect(typed.body.error_description).toMatch(/actor tokens are not supported/i)
      const typeAlone = await exchange({ actor_token_type: ACCESS_TOKEN })
      expect([typeAlone.res.status, typeAlone.body.error]).toEqual([400, 'invalid_request'])
    }
  })

  it('issues access tokens only: another requested_token_type is invalid_request', async () => {
    for (const exchange of [memberExchange, ciExchange]) {
      for (const type of ['urn:ietf:params:oauth:token-type:refresh_token', 'urn:ietf:params:oauth:token-type:jwt', 'urn:ietf:params:oauth:token-type:id_token']) {
        const refused = await exchange({ requested_token_type: type })
        expect([refused.res.status, refused.body.error], type).toEqual([400, 'invalid_request'])
      }
    }
    const accessToken = await memberExchange({ requested_token_type: ACCESS_TOKEN })
    expect([accessToken.res.status, accessToken.body.issued_token_type]).toEqual([200, ACCESS_TOKEN])
  })

  it('answers invalid_target for an audience or resource other than this hub (RFC 8693 2.2.2), and takes one that names it', async () => {
    for (const extra of [{ audience: 'https://other.example' }, { resource: 'https://other.example/api' }, { audience: 'acme-backend' }] as Record<string, string>[]) {
      const refused = await memberExchange(extra)
      expect([refused.res.status, refused.body.error], JSON.stringify(extra)).toEqual([400, 'invalid_target'])
    }
    for (const extra of [{ audience: hubUrl() }, { audience: `${hubUrl()}/` }, { resource: hubUrl() }] as Record<string, string>[]) {
      const taken = await memberExchange(extra)
      expect(taken.res.status, JSON.stringify(extra)).toBe(200)
    }
    // The trusted-publisher exchange names the repo in resource; a foreign audience is refused there too.
    const ciAudience = await ciExchange({ audience: 'https://other.example' })
    expect([ciAudience.res.status, ciAudience.body.error]).toEqual([400, 'invalid_target'])
    const ciHub = await ciExchange({ audience: hubUrl() })
    expect([ciHub.res.status, ciHub.body.error_description]).toEqual([400, expect.stringMatching(/JWT/)])
  })
})

describe('trusted-publisher exchange with client credentials', () => {
  it('authenticates credentials that were sent: a wrong secret is 401 invalid_client with the Basic challenge', async () => {
    const wrong = await ciExchange({}, { authorization: basic(backend.clientId, 'wrong') })
    expect([wrong.res.status, wrong.body.error]).toEqual([401, 'invalid_client'])
    expect(wrong.res.headers.get('www-authenticate')).toMatch(/^Basic /)
    const wrongPost = await ciExchange({ client_id: backend.clientId, client_secret: 'wrong' })
    expect([wrongPost.res.status, wrongPost.body.error]).toEqual([401, 'invalid_client'])
    // The right secret, or none at all, goes on to the id_token (here not a JWT).
    const right = await ciExchange({}, { authorization: basic(backend.clientId, backend.secret) })
    expect([right.res.status, right.body.error_description]).toEqual([400, expect.stringMatching(/JWT/)])
    const none = await ciExchange({})
    expect([none.res.status, none.body.error_description]).toEqual([400, expect.stringMatching(/JWT/)])
  })

  it('counts a wrong secret against the address like any other failed client authentication', async () => {
    process.env.OAUTH_TOKEN_AUTH_FAILURES_PER_IP = '2'
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await ciExchange({}, { authorization: basic(backend.clientId, 'wrong'), ip: '10.77.0.1' })).res.status)
    expect(statuses).toEqual([401, 401, 429])
  })
})
