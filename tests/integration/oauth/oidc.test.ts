// OpenID Connect: discovery, JWKS and key rotation, id_token claims, userinfo scope filtering,
// whoami for OAuth tokens, and what scopes and granted organizations let a token reach.
import { beforeAll, describe, expect, it } from 'vitest'
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, decodeJwt } from 'jose'
import { db } from '@/lib/db'
import { hubUrl } from '@/lib/config'
import { createRepo } from '@/lib/hub/repos'
import { principalFromToken } from '@/lib/auth/tokens'
import { rotateSigningKey } from '@/lib/oauth/keys'
import { deleteApp } from '@/lib/oauth/clients/apps'
import { revokeConsent } from '@/lib/oauth/consent'
import { GET as discoveryGET, OPTIONS as discoveryOPTIONS } from '@/app/.well-known/openid-configuration/route'
import { GET as asMetadataGET } from '@/app/.well-known/oauth-authorization-server/route'
import { GET as jwksGET } from '@/app/oauth/jwks/route'
import { GET as userinfoGET, OPTIONS as userinfoOPTIONS } from '@/app/oauth/userinfo/route'
import { GET as whoamiGET } from '@/app/api/whoami-v2/route'
import { GET as repoGET } from '@/app/api/[repoType]/[namespace]/[name]/[[...rest]]/route'
import { POST as createPOST } from '@/app/api/repos/create/route'
import { BASE, VERIFIER, authorizationCode, basic, createFixture, token, type Fixture } from './setup'

let f: Fixture
const REDIRECT = 'https://app.example/cb'

beforeAll(async () => {
  f = await createFixture('oidc')
  const owner = { userId: f.user.id, principal: null }
  await createRepo(owner, { type: 'model', namespace: f.user.username, name: 'mine-private', private: true })
  const orgOwner = { userId: f.other.id, principal: null }
  await createRepo(orgOwner, { type: 'model', namespace: f.org.name, name: 'org-private', private: true })
  await createRepo(orgOwner, { type: 'model', namespace: f.secondOrg.name, name: 'org2-private', private: true })
})

async function tokens(scope: string, orgIds: string[] = [], nonce?: string) {
  const code = await authorizationCode(f.user.id, { clientId: f.confidential.app.clientId, redirectUri: REDIRECT, scope, orgIds, nonce })
  const { body } = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, { authorization: basic(f.confidential.app.clientId, f.confidential.secret) })
  return body
}

const bearer = (path: string, accessToken: string) => new Request(BASE + path, { headers: { authorization: `Bearer ${accessToken}` } })
const userinfo = async (accessToken: string) => (await userinfoGET(bearer('/oauth/userinfo', accessToken))).json()

describe('discovery', () => {
  it('lists issuer, every endpoint, scopes, grants, auth methods and S256, with CORS', async () => {
    const res = await discoveryGET()
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const meta = await res.json()
    const base = hubUrl()
    expect(meta).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      userinfo_endpoint: `${base}/oauth/userinfo`,
      jwks_uri: `${base}/oauth/jwks`,
      response_types_supported: ['code'],
      grant_types_supported: expect.arrayContaining(['authorization_code', 'refresh_token']),
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256'],
      authorization_response_iss_parameter_supported: true,
    })
    expect(meta.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'read-repos', 'read-memberships', 'read:users', 'write:users']))
    expect(await (await asMetadataGET()).json()).toEqual(meta)
    expect(discoveryOPTIONS().status).toBe(204)
  })
})

describe('id_token', () => {
  it('is RS256 with a kid from the JWKS, and carries iss, sub, aud, exp, iat, nonce and the userinfo claims', async () => {
    const body = await tokens('openid profile email read-memberships', [f.org.id], 'nonce-123')
    const jwks = (await (await jwksGET()).json()) as JSONWebKeySet
    expect(jwks.keys.length).toBeGreaterThan(0)
    expect(jwks.keys[0]).not.toHaveProperty('d')
    const header = decodeProtectedHeader(body.id_token!)
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.any(String) })
    const { payload } = await jwtVerify(body.id_token!, createLocalJWKSet(jwks), { issuer: hubUrl(), audience: f.confidential.app.clientId })
    expect(payload).toMatchObject({ sub: f.user.id, nonce: 'nonce-123', preferred_username: f.user.username, name: 'Test User', email: f.user.email })
    expect(payload.exp! - payload.iat!).toBe(3600)
    const info = await userinfo(body.access_token!)
    const { iss: _i, aud: _a, exp: _e, iat: _t, nonce: _n, ...claims } = payload
    expect(claims).toEqual(info)
  })

  it('carries auth_time, the sign-in the code was approved with, and keeps it through refreshes (OIDC Core 2, 12.2)', async () => {
    const authTime = Math.floor(Date.now() / 1000) - 120
    const code = await authorizationCode(f.user.id, { clientId: f.confidential.app.clientId, redirectUri: REDIRECT, scope: 'openid profile', authTime })
    const auth = { authorization: basic(f.confidential.app.clientId, f.confidential.secret) }
    const first = (await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, auth)).body
    expect(decodeJwt(first.id_token!).auth_time).toBe(authTime)
    // A refresh that keeps the scopes (one statement) and one that narrows them (read first) both keep it.
    const kept = (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }, auth)).body
    expect(decodeJwt(kept.id_token!).auth_time).toBe(authTime)
    const narrowed = (await token({ grant_type: 'refresh_token', refresh_token: kept.refresh_token!, scope: 'openid' }, auth)).body
    expect(decodeJwt(narrowed.id_token!).auth_time).toBe(authTime)
    expect(decodeJwt((await tokens('openid')).id_token!)).not.toHaveProperty('auth_time')
  })

  it('is signed by a new key after rotation, and the old key stays published for verification', async () => {
    const before = await tokens('openid')
    const oldKid = decodeProtectedHeader(before.id_token!).kid
    const newKid = await rotateSigningKey()
    const after = await tokens('openid')
    expect(decodeProtectedHeader(after.id_token!).kid).toBe(newKid)
    const jwks = (await (await jwksGET()).json()) as JSONWebKeySet
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]))
    await jwtVerify(before.id_token!, createLocalJWKSet(jwks))
    const stored = await db.signingKey.findUniqueOrThrow({ where: { kid: newKid } })
    expect(stored.privateJwk).not.toContain('"d"')
  })
})

describe('userinfo', () => {
  it('shows each field only with its scope', async () => {
    const minimal = await userinfo((await tokens('openid')).access_token!)
    expect(minimal).toMatchObject({ sub: f.user.id, preferred_username: f.user.username, orgs: [] })
    expect(minimal).not.toHaveProperty('email')
    expect(minimal).not.toHaveProperty('canPay')

    const withEmail = await userinfo((await tokens('openid profile email')).access_token!)
    expect(withEmail).toMatchObject({ email: f.user.email, email_verified: false })

    // Granted org only, without read-memberships; every org with it; canPay with read-billing for granted orgs.
    const granted = await userinfo((await tokens('openid profile read-billing', [f.org.id])).access_token!)
    expect(granted.orgs).toEqual([{ sub: f.org.id, name: f.org.name, preferred_username: f.org.name, picture: expect.any(String), plan: 'free', canPay: false, roleInOrg: 'write' }])
    expect(granted.canPay).toBe(false)
    const all = await userinfo((await tokens('openid profile read-memberships')).access_token!)
    expect(all.orgs.map((o: { preferred_username: string }) => o.preferred_username).sort()).toEqual([f.org.name, f.secondOrg.name])
    expect(all.orgs[0]).not.toHaveProperty('canPay')
  })

  it('answers 401 without a valid token (a challenge without an error code when none was sent, RFC 6750 3.1), and preflights with CORS', async () => {
    const res = await userinfoGET(new Request(BASE + '/oauth/userinfo'))
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="hub"')
    // ...nor in the body: it says what is missing, with no error code of RFC 6750 3.1.
    const body = await res.json()
    expect(body).not.toHaveProperty('error')
    expect(body.error_description).toMatch(/bearer access token is required/i)
    const unknown = await userinfoGET(bearer('/oauth/userinfo', 'hf_oauth_unknown'))
    expect(unknown.status).toBe(401)
    expect(unknown.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
    expect((await unknown.json()).error).toBe('invalid_token')
    const pre = userinfoOPTIONS()
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization/i)
  })
})

describe('OAuth tokens on the resource API', () => {
  const repo = (ns: string, name: string, accessToken: string) =>
    repoGET(bearer(`/api/models/${ns}/${name}`, accessToken), { params: Promise.resolve({ repoType: 'models', namespace: ns, name }) })

  it('whoami-v2 answers for OAuth tokens, with auth.type oauth', async () => {
    const body = await tokens('openid profile', [f.org.id])
    const me = await (await whoamiGET(bearer('/api/whoami-v2', body.access_token!))).json()
    expect(me).toMatchObject({ type: 'user', name: f.user.username, auth: { type: 'oauth', scope: 'openid profile' } })
    expect(me.orgs.map((o: { name: string }) => o.name)).toEqual([f.org.name])
  })

  it('whoami-v2 and userinfo show canPay only of the organizations picked at consent, read-memberships listing the others', async () => {
    await db.org.updateMany({ where: { id: { in: [f.org.id, f.secondOrg.id] } }, data: { canPay: true } })
    try {
      const body = await tokens('openid read-memberships read-billing', [f.org.id])
      const me = await (await whoamiGET(bearer('/api/whoami-v2', body.access_token!))).json()
      const paying = (orgs: { name?: string; preferred_username?: string; canPay?: boolean }[]) => Object.fromEntries(orgs.map((o) => [o.name ?? o.preferred_username, o.canPay ?? false]))
      expect(paying(me.orgs)).toEqual({ [f.org.name]: true, [f.secondOrg.name]: false })
      expect(paying((await userinfo(body.access_token!)).orgs)).toEqual({ [f.org.name]: true, [f.secondOrg.name]: false })
    } finally {
      await db.org.updateMany({ where: { id: { in: [f.org.id, f.secondOrg.id] } }, data: { canPay: false } })
    }
  })

  it('reads a private repo only with read-repos', async () => {
    const without = await tokens('openid profile')
    expect((await repo(f.user.username, 'mine-private', without.access_token!)).status).toBe(404)
    const withScope = await tokens('openid read-repos')
    expect((await repo(f.user.username, 'mine-private', withScope.access_token!)).status).toBe(200)
  })

  it('reaches organization repos only for the organizations granted at consent', async () => {
    const body = await tokens('openid read-repos', [f.org.id])
    expect((await repo(f.org.name, 'org-private', body.access_token!)).status).toBe(200)
    expect((await repo(f.secondOrg.name, 'org2-private', body.access_token!)).status).toBe(404)
    const none = await tokens('openid read-repos')
    expect((await repo(f.org.name, 'org-private', none.access_token!)).status).toBe(404)
  })

  it('never grants an organization the user is not a member of', async () => {
    const stranger = await db.org.create({ data: { name: 'oidcstranger' } })
    const body = await tokens('openid read-repos', [stranger.id, f.org.id])
    const row = await principalFromToken(body.access_token!)
    expect(row?.orgIds).toEqual([f.org.id])
  })

  it('creates repos only with manage-repos (or contribute-repos)', async () => {
    const create = (accessToken: string, name: string) =>
      createPOST(new Request(BASE + '/api/repos/create', { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) }))
    expect((await create((await tokens('openid read-repos')).access_token!, 'by-reader')).status).toBe(403)
    expect((await create((await tokens('openid manage-repos')).access_token!, 'by-manager')).status).toBe(200)
  })
})

describe('revocation', () => {
  it('revoking an authorized app revokes its tokens and refresh tokens', async () => {
    const body = await tokens('openid profile')
    expect(await revokeConsent(f.user.id, f.confidential.app.clientId)).toBe(true)
    expect(await principalFromToken(body.access_token!)).toBeNull()
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token! }, { authorization: basic(f.confidential.app.clientId, f.confidential.secret) })
    expect(refresh.body.error).toBe('invalid_grant')
  })

  it('deleting an app revokes its tokens', async () => {
    const body = await tokens('openid profile')
    await deleteApp(f.confidential.app.id)
    expect(await principalFromToken(body.access_token!)).toBeNull()
    expect(await db.oAuthConsent.count({ where: { clientId: f.confidential.app.clientId } })).toBe(0)
  })
})
