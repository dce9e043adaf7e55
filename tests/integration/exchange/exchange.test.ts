// Organization token exchange against the real database: preconditions and RFC errors, scopes,
// lifetime, the audit entry, and a table of what an exchanged token reaches through the hub's
// own API route handlers.
import { beforeAll, describe, expect, it } from 'vitest'
import { ZodError } from 'zod'
import { decodeJwt } from 'jose'
import { hubUrl } from '@/lib/config'
import { db, readList } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg, setBilling } from '@/lib/hub/orgs'
import { createRepo } from '@/lib/hub/repos'
import { createCollection } from '@/lib/hub/collections'
import { createApp } from '@/lib/oauth/clients/apps'
import { grantTokenExchange, revokeTokenExchange, setExchangeTokenLifetime } from '@/lib/hub/org-apps'
import { exchangeForMember, HF_USER_EMAIL_TOKEN_TYPE, type MemberExchangeRequest } from '@/lib/oauth/grants/member-exchange'
import { OAuthError } from '@/lib/oauth/errors'
import { revokeConsent } from '@/lib/oauth/consent'
import { sha256Hex } from '@/lib/auth/secrets'
import { GET as repoGET } from '@/app/api/[repoType]/[namespace]/[name]/[[...rest]]/route'
import { POST as createPOST } from '@/app/api/repos/create/route'
import { DELETE as deleteDELETE } from '@/app/api/repos/delete/route'
import { GET as collectionGET } from '@/app/api/collections/[namespace]/[slug]/route'
import { GET as whoamiGET } from '@/app/api/whoami-v2/route'
import { GET as userinfoGET } from '@/app/oauth/userinfo/route'

const HUB_URN = 'urn:hub:token-type:user-email'
const APP_SCOPES = ['openid', 'profile', 'read-repos', 'write-repos', 'manage-repos', 'read-collections']
const session = (userId: string) => ({ userId, principal: null })

let app: NonNullable<Awaited<ReturnType<typeof db.oAuthApp.findUnique>>>
let orgId: string
const users: Record<string, { id: string; email: string }> = {}
let publicCollectionSlug: string
let privateCollectionSlug: string

function exchange(over: Partial<MemberExchangeRequest> = {}) {
  return exchangeForMember({ app, subjectToken: 'xwriter@test.dev', subjectTokenType: HUB_URN, scope: undefined, ip: '203.0.113.7', ...over })
}

async function oauthFailure(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(OAuthError)
  return error as OAuthError
}

beforeAll(async () => {
  for (const name of ['xadmin', 'xwriter', 'xreader', 'xoutsider', 'xops']) {
    const u = await createUser({ username: name, email: `${name}@test.dev`, password: `password-${name}` }, { isOperator: name === 'xops', emailVerified: true })
    users[name] = { id: u.id, email: u.email }
  }
  const org = await createOrg(users.xadmin!.id, { name: 'xorg' })
  orgId = org.id
  await setBilling(orgId, { plan: 'enterprise', canPay: true })
  await addMember(orgId, 'xwriter', 'write')
  await addMember(orgId, 'xreader', 'read')
  const other = await createOrg(users.xoutsider!.id, { name: 'yorg' })
  await addMember(other.id, 'xwriter', 'admin')

  const admin = session(users.xadmin!.id)
  await createRepo(admin, { namespace: 'xorg', name: 'org-private', private: true })
  await createRepo(admin, { namespace: 'xorg', name: 'org-public' })
  await createRepo(admin, { namespace: 'xorg', name: 'org-doomed', private: true })
  await createRepo(session(users.xwriter!.id), { namespace: 'xwriter', name: 'own-private', private: true })
  await createRepo(session(users.xwriter!.id), { namespace: 'xwriter', name: 'own-public' })
  await createRepo(session(users.xoutsider!.id), { namespace: 'yorg', name: 'other-org-private', private: true })
  await createRepo(session(users.xoutsider!.id), { namespace: 'xoutsider', name: 'outsider-public' })
  const gated = await createRepo(session(users.xoutsider!.id), { namespace: 'xoutsider', name: 'outsider-gated', gated: true })
  await createRepo(session(users.xoutsider!.id), { namespace: 'xoutsider', name: 'outsider-gated-denied', gated: true })
  await db.gatedAccess.create({ data: { repoId: gated.id, userId: users.xwriter!.id, status: 'accepted' } })
  publicCollectionSlug = (await createCollection(session(users.xoutsider!.id), { namespace: 'xoutsider', title: 'Public picks' })).slug
  privateCollectionSlug = (await createCollection(session(users.xwriter!.id), { namespace: 'xwriter', title: 'My secrets', private: true })).slug

  const created = await createApp({ kind: 'org', orgId }, { name: 'Xorg backend', redirectUris: ['https://xorg.example/cb'], scopes: APP_SCOPES }, true)
  app = created.app
})

describe('preconditions (invalid_client)', () => {
  it('refuses an app without the privilege', async () => {
    const e = await oauthFailure(exchange())
    expect([e.code, e.status]).toEqual(['invalid_client', 401])
    expect(e.headers['WWW-Authenticate']).toMatch(/^Basic/)
  })

  it('refuses an app not bound to an organization, even with the flag set', async () => {
    const { app: userApp } = await createApp({ kind: 'user', userId: users.xadmin!.id }, { name: 'Personal', redirectUris: ['https://p.example/cb'], scopes: APP_SCOPES }, true)
    const flagged = await db.oAuthApp.update({ where: { id: userApp.id }, data: { tokenExchange: true } })
    expect((await oauthFailure(exchange({ app: flagged }))).code).toBe('invalid_client')
  })

  it('is granted by an operator, after which exchanges work', async () => {
    app = await grantTokenExchange(session(users.xops!.id), app.id)
    expect(app.tokenExchange).toBe(true)
    expect((await exchange()).access_token).toMatch(/^hf_oauth_/)
  })

  it('issues nothing once an operator revoked the privilege, even to a request that read the app before (a race)', async () => {
    const readBefore = app
    try {
      await revokeTokenExchange(session(users.xops!.id), app.id)
      const e = await oauthFailure(exchange({ app: readBefore }))
      expect([e.code, e.message]).toEqual(['invalid_client', 'invalid_client: This app is not allowed to use token exchange'])
      expect(await db.accessToken.count({ where: { appId: app.id, kind: 'exchange', revokedAt: null } })).toBe(0)
    } finally {
      app = await grantTokenExchange(session(users.xops!.id), app.id)
    }
  })

  it('stops when the organization leaves the Enterprise plan', async () => {
    await setBilling(orgId, { plan: 'team', canPay: true })
    try {
      expect((await oauthFailure(exchange())).code).toBe('invalid_client')
    } finally {
      await setBilling(orgId, { plan: 'enterprise', canPay: true })
    }
  })
})

describe('request checks', () => {
  it('accepts the hub URN and the Hugging Face alias, and a configured URN', async () => {
    expect((await exchange({ subjectTokenType: HF_USER_EMAIL_TOKEN_TYPE })).token_type).toBe('bearer')
    process.env.OAUTH_USER_EMAIL_TOKEN_TYPE = 'urn:modhub:token-type:user-email'
    try {
      expect((await exchange({ subjectTokenType: 'urn:modhub:token-type:user-email' })).token_type).toBe('bearer')
      expect((await oauthFailure(exchange({ subjectTokenType: HUB_URN }))).code).toBe('invalid_request')
    } finally {
      delete process.env.OAUTH_USER_EMAIL_TOKEN_TYPE
    }
  })

  it('answers invalid_request for another token type or something that is not an e-mail', async () => {
    for (const over of [{ subjectTokenType: 'urn:ietf:params:oauth:token-type:access_token' }, { subjectToken: 'xwriter' }, { subjectToken: 'a b@test.dev' }]) {
      const e = await oauthFailure(exchange(over))
      expect([e.code, e.status], JSON.stringify(over)).toEqual(['invalid_request', 400])
    }
  })

  it('answers invalid_grant for a user outside the organization or no user at all', async () => {
    for (const subjectToken of ['xoutsider@test.dev', 'nobody@test.dev']) {
      const e = await oauthFailure(exchange({ subjectToken }))
      expect([e.code, e.status, e.description]).toEqual(['invalid_grant', 400, 'The user is not a member of the organization'])
    }
  })

  it('finds the member whatever the e-mail case', async () => {
    expect((await exchange({ subjectToken: 'XWriter@Test.dev' })).access_token).toMatch(/^hf_oauth_/)
  })

  it('answers invalid_scope for a scope the app lacks', async () => {
    for (const scope of ['write-collections', 'read-repos email', 'no-such-scope']) {
      expect((await oauthFailure(exchange({ scope }))).code, scope).toBe('invalid_scope')
    }
  })
})

describe('the token response', () => {
  it('carries all the app scopes when scope is omitted, an id_token with openid, and never a refresh token', async () => {
    const res = await exchange()
    expect(res).toEqual({
      access_token: expect.stringMatching(/^hf_oauth_/),
      token_type: 'bearer',
      expires_in: 28800,
      scope: APP_SCOPES.join(' '),
      id_token: expect.any(String),
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    })
    expect(res).not.toHaveProperty('refresh_token')
    // The hub's own signed id_token, for the member and the app.
    const claims = decodeJwt(res.id_token!)
    expect({ sub: claims.sub, aud: claims.aud, iss: claims.iss }).toEqual({ sub: users.xwriter!.id, aud: app.clientId, iss: hubUrl() })
  })

  it('narrows to the requested scopes, without id_token when openid is not asked for', async () => {
    const res = await exchange({ scope: 'read-repos  profile' })
    expect(res.scope).toBe('profile read-repos')
    expect(res).not.toHaveProperty('id_token')
    const row = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(res.access_token) } })
    expect({ kind: row.kind, userId: row.userId, appId: row.appId, orgIds: readList(row.orgIds), scopes: readList(row.scopes) }).toEqual({
      kind: 'exchange', userId: users.xwriter!.id, appId: app.id, orgIds: [orgId], scopes: ['profile', 'read-repos'],
    })
  })

  it('lives as long as the organization admins set (at most 30 days)', async () => {
    await expect(setExchangeTokenLifetime(session(users.xwriter!.id), app.id, 3600)).rejects.toMatchObject({ status: 403 })
    await expect(setExchangeTokenLifetime(session(users.xadmin!.id), app.id, 31 * 24 * 3600)).rejects.toBeInstanceOf(ZodError)
    app = await setExchangeTokenLifetime(session(users.xadmin!.id), app.id, 3600)
    const res = await exchange({ scope: 'read-repos' })
    expect(res.expires_in).toBe(3600)
    const row = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(res.access_token) } })
    expect(Math.abs(row.expiresAt!.getTime() - Date.now() - 3600_000)).toBeLessThan(10_000)
    app = await setExchangeTokenLifetime(session(users.xadmin!.id), app.id, 28800)
  })

  it('is written to the organization audit log with app, member, scopes, token id and IP', async () => {
    const res = await exchange({ scope: 'read-repos' })
    const row = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(res.access_token) } })
    const entry = await db.auditLogEntry.findFirstOrThrow({ where: { orgId, action: 'token.exchange' }, orderBy: { createdAt: 'desc' } })
    expect(entry).toMatchObject({ appId: app.id, userId: users.xwriter!.id, actorUserId: null, ip: '203.0.113.7' })
    expect(JSON.parse(entry.data)).toMatchObject({ clientId: app.clientId, member: 'xwriter', role: 'write', scopes: ['read-repos'], tokenId: row.id })
  })
})

describe('what an exchanged token reaches through the API', () => {
  const BASE = 'http://hub.test'
  const tokens: Record<string, string> = {}
  beforeAll(async () => {
    tokens.writer = (await exchange()).access_token
    tokens.reader = (await exchange({ subjectToken: 'xreader@test.dev' })).access_token
    tokens.admin = (await exchange({ subjectToken: 'xadmin@test.dev' })).access_token
    tokens.writerNoRepoScope = (await exchange({ scope: 'openid profile' })).access_token
  })
  const auth = (who: string) => ({ authorization: `Bearer ${tokens[who]}` })
  const info = (who: string, path: string) => {
    const [repoType, namespace, name] = path.split('/') as [string, string, string]
    return repoGET(new Request(`${BASE}/api/${path}`, { headers: auth(who) }), { params: Promise.resolve({ repoType, namespace, name }) })
  }
  const create = (who: string, body: object) =>
    createPOST(new Request(`${BASE}/api/repos/create`, { method: 'POST', headers: { ...auth(who), 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  const remove = (who: string, body: object) => deleteDELETE(new Request(`${BASE}/api/repos/delete`, { method: 'DELETE', headers: auth(who), body: JSON.stringify(body) }))
  const collection = (who: string, slug: string) => {
    const [namespace, rest] = [slug.split('/')[0]!, slug.split('/').slice(1).join('/')]
    return collectionGET(new Request(`${BASE}/api/collections/${slug}`, { headers: auth(who) }), { params: Promise.resolve({ namespace, slug: rest }) })
  }

  const table: [string, string, () => Promise<Response>, number][] = [
    ['writer', 'reads a private repo of the organization', () => info('writer', 'models/xorg/org-private'), 200],
    ['writer', 'reads a public repo of the organization', () => info('writer', 'models/xorg/org-public'), 200],
    ['writer', 'cannot see their own private repo', () => info('writer', 'models/xwriter/own-private'), 404],
    ['writer', 'reads their own public repo (as anyone may)', () => info('writer', 'models/xwriter/own-public'), 200],
    ['writer', 'cannot see a private repo of another organization they administer', () => info('writer', 'models/yorg/other-org-private'), 404],
    ['writer', 'reads a public repo outside the organization', () => info('writer', 'models/xoutsider/outsider-public'), 200],
    ['writer', 'reads a public gated repo they were granted', () => info('writer', 'models/xoutsider/outsider-gated'), 200],
    ['writer', 'reads a public collection outside the organization', () => collection('writer', publicCollectionSlug), 200],
    ['writer', 'cannot see their own private collection', () => collection('writer', privateCollectionSlug), 404],
    ['writer', 'creates a repo in the organization', () => create('writer', { name: 'made-by-exchange', organization: 'xorg', private: true }), 200],
    ['writer', 'cannot create a repo in their own namespace', () => create('writer', { name: 'personal-by-exchange' }), 403],
    ['writer', 'cannot delete an organization repo (write role, not admin)', () => remove('writer', { name: 'org-doomed', organization: 'xorg' }), 403],
    ['reader', 'reads a private repo of the organization', () => info('reader', 'models/xorg/org-private'), 200],
    ['reader', 'cannot create a repo (read role, despite manage-repos)', () => create('reader', { name: 'made-by-reader', organization: 'xorg' }), 403],
    ['writerNoRepoScope', 'cannot see a private org repo without a repo scope', () => info('writerNoRepoScope', 'models/xorg/org-private'), 404],
    ['admin', 'deletes an organization repo (admin role and manage-repos)', () => remove('admin', { name: 'org-doomed', organization: 'xorg' }), 200],
  ]
  for (const [who, what, call, status] of table) it(`${who} ${what}: ${status}`, async () => expect((await call()).status).toBe(status))

  it('hides gated content the member was not granted', async () => {
    const granted = await (await info('writer', 'models/xoutsider/outsider-gated')).json()
    const denied = await (await info('writer', 'models/xoutsider/outsider-gated-denied')).json()
    expect(granted).toHaveProperty('siblings')
    expect(denied).not.toHaveProperty('siblings')
  })

  it('lists no other organization of the member and not their own billing, whatever the app\'s scopes (SPEC B rule 8)', async () => {
    const wide = await createApp({ kind: 'org', orgId }, { name: 'Xorg wide', redirectUris: ['https://xorg.example/cb'], scopes: ['openid', 'profile', 'read-memberships', 'read-billing'] }, true)
    const wideApp = await db.oAuthApp.update({ where: { id: wide.app.id }, data: { tokenExchange: true } })
    const { access_token } = await exchange({ app: wideApp, scope: 'openid profile read-memberships read-billing' })
    const headers = { authorization: `Bearer ${access_token}` }
    const who = await (await whoamiGET(new Request(`${BASE}/api/whoami-v2`, { headers }))).json()
    expect(who.orgs.map((o: { name: string }) => o.name)).toEqual(['xorg'])
    expect(who.orgs[0].canPay).toBe(true)
    expect(who.canPay).toBe(false)
    const info = await (await userinfoGET(new Request(`${BASE}/oauth/userinfo`, { headers }))).json()
    expect(info.orgs.map((o: { preferred_username: string }) => o.preferred_username)).toEqual(['xorg'])
    expect(info.canPay).toBeUndefined()
  })

  it('whoami names the member and the token kind', async () => {
    const body = await (await whoamiGET(new Request(`${BASE}/api/whoami-v2`, { headers: auth('writer') }))).json()
    expect(body.name).toBe('xwriter')
    expect(body.auth).toEqual(expect.any(Object))
  })
})

describe('the member revoking the app (Settings → Authorized apps)', () => {
  it('ends the exchanged tokens that act as them and says so; with nothing left, says there is nothing to revoke', async () => {
    const { access_token } = await exchange()
    const stored = () => db.accessToken.findUnique({ where: { tokenHash: sha256Hex(access_token) }, select: { revokedAt: true } })
    expect((await stored())!.revokedAt).toBeNull()
    // No consent row stands behind an exchange; the revocation still happened and is reported as done.
    expect(await revokeConsent(users.xwriter!.id, app.clientId)).toBe(true)
    expect((await stored())!.revokedAt).not.toBeNull()
    expect(await revokeConsent(users.xwriter!.id, app.clientId)).toBe(false)
  })
})
