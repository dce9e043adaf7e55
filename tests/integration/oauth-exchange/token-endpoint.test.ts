// Token exchange through POST /oauth/token: client authentication, the RFC 6749 5.2 answers, the
// response fields, and dispatch of CI id_tokens to trusted publishers.
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeJwt } from 'jose'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg, setBilling } from '@/lib/hub/orgs'
import { createApp } from '@/lib/oauth/clients/apps'
import { TOKEN_EXCHANGE_GRANT_TYPE, HF_USER_EMAIL_TOKEN_TYPE } from '@/lib/oauth/grants/member-exchange'
import { ID_TOKEN_TYPE } from '@/lib/oauth/grants/trusted-publisher'
import { basic, token } from '../oauth/setup'

const HUB_URN = 'urn:hub:token-type:user-email'
let clientId: string
let secret: string
let unprivileged: { clientId: string; secret: string }
let orgId: string

beforeAll(async () => {
  const admin = await createUser({ username: 'teadmin', email: 'teadmin@test.dev', password: 'password-admin' })
  await createUser({ username: 'temember', email: 'temember@test.dev', password: 'password-member' }, { emailVerified: true })
  await createUser({ username: 'teunverified', email: 'teunverified@test.dev', password: 'password-unverified' })
  await createUser({ username: 'tenobody', email: 'tenobody@test.dev', password: 'password-nobody' })
  const org = await createOrg(admin.id, { name: 'teorg' })
  orgId = org.id
  await setBilling(org.id, { plan: 'enterprise', canPay: true })
  await addMember(org.id, 'temember', 'read')
  await addMember(org.id, 'teunverified', 'read')
  const scopes = ['openid', 'profile', 'read-repos', 'write-repos']
  const app = await createApp({ kind: 'org', orgId: org.id }, { name: 'TE backend', redirectUris: ['https://te.example/cb'], scopes }, true)
  await db.oAuthApp.update({ where: { id: app.app.id }, data: { tokenExchange: true } })
  clientId = app.app.clientId
  secret = app.secret!
  const plain = await createApp({ kind: 'org', orgId: org.id }, { name: 'TE plain', redirectUris: ['https://te.example/cb'], scopes }, true)
  unprivileged = { clientId: plain.app.clientId, secret: plain.secret! }
})

const exchange = (body: Record<string, string>, authorization?: string) =>
  token({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token_type: HUB_URN, subject_token: 'temember@test.dev', ...body }, { authorization })

describe('organization token exchange at the token endpoint', () => {
  it('answers the RFC 8693 response with no refresh token, and an id_token only with openid', async () => {
    const { res, body } = await exchange({ scope: 'openid read-repos' }, basic(clientId, secret))
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 28800, scope: 'openid read-repos', issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', access_token: expect.stringMatching(/^hf_oauth_/) })
    expect(body.refresh_token).toBeUndefined()
    expect(decodeJwt(body.id_token!)).toMatchObject({ aud: clientId, preferred_username: 'temember' })
    const noOpenid = await exchange({ scope: 'read-repos' }, basic(clientId, secret))
    expect(noOpenid.body.id_token).toBeUndefined()
    // Scope omitted: every scope of the app; the Hugging Face URN is an alias.
    const all = await exchange({ subject_token_type: HF_USER_EMAIL_TOKEN_TYPE }, basic(clientId, secret))
    expect(all.body.scope).toBe('openid profile read-repos write-repos')
  })

  it('records every exchange with the client address in the audit log', async () => {
    const entries = await db.auditLogEntry.findMany({ where: { action: 'token.exchange', orgId } })
    expect(entries.length).toBeGreaterThanOrEqual(3)
    expect(entries.every((e) => e.ip && e.ip.startsWith('10.0.0.'))).toBe(true)
  })

  it('answers the spec errors with RFC 6749 status codes', async () => {
    const cases: [Record<string, string>, string | undefined, number, string][] = [
      [{}, undefined, 401, 'invalid_client'], // no client authentication
      [{ client_id: clientId, client_secret: 'wrong' }, undefined, 401, 'invalid_client'], // a wrong secret in the form
      [{ client_id: clientId }, undefined, 401, 'invalid_client'], // a client id and no secret
      [{}, basic(clientId, 'wrong'), 401, 'invalid_client'],
      [{}, basic(unprivileged.clientId, unprivileged.secret), 401, 'invalid_client'], // no privilege
      [{ subject_token: 'tenobody@test.dev' }, basic(clientId, secret), 400, 'invalid_grant'], // not a member
      [{ subject_token: 'teunverified@test.dev' }, basic(clientId, secret), 400, 'invalid_grant'], // e-mail not verified
      [{ scope: 'manage-repos' }, basic(clientId, secret), 400, 'invalid_scope'],
      [{ subject_token_type: 'urn:other' }, basic(clientId, secret), 400, 'invalid_request'],
      [{ subject_token: 'not-an-email' }, basic(clientId, secret), 400, 'invalid_request'],
    ]
    for (const [body, auth, status, error] of cases) {
      const r = await exchange(body, auth)
      expect([r.res.status, r.body.error], JSON.stringify(body)).toEqual([status, error])
    }
    // The right secret in the form (client_secret_post, which discovery lists) is client authentication too.
    const posted = await exchange({ client_id: clientId, client_secret: secret }, undefined)
    expect([posted.res.status, typeof posted.body.access_token]).toEqual([200, 'string'])
    // A public app (no secret) gets nothing, even with an empty Basic password and the privilege set.
    await db.oAuthApp.update({ where: { clientId: unprivileged.clientId }, data: { secretHash: null, tokenExchange: true } })
    const publicApp = await exchange({}, basic(unprivileged.clientId, ''))
    expect([publicApp.res.status, publicApp.body.error]).toEqual([401, 'invalid_client'])
    const missing = await token({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token_type: HUB_URN }, { authorization: basic(clientId, secret) })
    expect([missing.res.status, missing.body.error]).toEqual([400, 'invalid_request'])
  })
})

describe('trusted publishers at the token endpoint', () => {
  it('takes a JSON body with no client authentication and needs a resource', async () => {
    const noResource = await token({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token_type: ID_TOKEN_TYPE, subject_token: 'x.y.z' }, { json: true })
    expect([noResource.res.status, noResource.body.error]).toEqual([400, 'invalid_request'])
    const garbage = await token({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token_type: ID_TOKEN_TYPE, subject_token: 'not-a-jwt', resource: 'teadmin/some-model' }, { json: true })
    expect(garbage.res.status).toBe(400)
    expect(['invalid_grant', 'invalid_request']).toContain(garbage.body.error)
  })
})

describe('organization token exchange with an app deleted elsewhere', () => {
  it('answers invalid_client, not a 500, when another instance deleted the app while this one still knew it', async () => {
    const org = await db.org.findUniqueOrThrow({ where: { name: 'teorg' } })
    const gone = await createApp({ kind: 'org', orgId: org.id }, { name: 'TE gone', redirectUris: ['https://te.example/cb'], scopes: ['read-repos'] }, true)
    await db.oAuthApp.update({ where: { id: gone.app.id }, data: { tokenExchange: true } })
    expect((await exchange({ scope: 'read-repos' }, basic(gone.app.clientId, gone.secret!))).res.status).toBe(200) // now in the client cache
    await db.oAuthApp.delete({ where: { id: gone.app.id } }) // as another instance would: this process's cache still has it
    const after = await exchange({ scope: 'read-repos' }, basic(gone.app.clientId, gone.secret!))
    expect([after.res.status, after.body.error]).toEqual([401, 'invalid_client'])
  })
})
