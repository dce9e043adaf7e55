// Trusted publishers with a local OIDC issuer made here (its own RSA keys, discovery and JWKS on
// loopback, reachable only with the development setting): registration rules, audit entries, and
// the id_token exchange with every negative case.
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ZodError } from 'zod'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { changeMember, createOrg } from '@/lib/hub/orgs'
import { createRepo, repoContext } from '@/lib/hub/repos'
import { principalFromToken } from '@/lib/auth/tokens'
import { repoDecision } from '@/lib/policy'
import { addPublisher, listPublishers, removePublisher } from '@/lib/hub/publishers'
import { exchangeCiIdToken } from '@/lib/oauth/grants/trusted-publisher'
import { OAuthError } from '@/lib/oauth/errors'
import { HubError } from '@/lib/http/errors'

const HUB = 'http://hub.test'
let issuerServer: http.Server
let issuer: string
let issuerHits = 0
let signingKey: CryptoKey
let strangerKey: CryptoKey
const session = (userId: string) => ({ userId, principal: null })
let owner: { id: string }
let admin: { id: string }
let orgId: string

const CLAIMS = { repository: 'octo/model-repo', ref: 'refs/heads/main', workflow: 'release' }

async function idToken(over: JWTPayload = {}, options: { key?: CryptoKey; iss?: string } = {}) {
  // A jti of its own, as GitHub's, GitLab's and CircleCI's tokens carry: each token is traded once.
  return new SignJWT({ ...CLAIMS, sub: 'repo:octo/model-repo:ref:refs/heads/main', jti: crypto.randomUUID(), ...over })
    .setProtectedHeader({ alg: 'RS256', kid: 'ci-key-1' })
    .setIssuer(options.iss ?? issuer)
    .setAudience((over.aud as string) ?? HUB)
    .setIssuedAt()
    .setExpirationTime((over.exp as number) ?? Math.floor(Date.now() / 1000) + 300)
    .sign(options.key ?? signingKey)
}

async function grantFailure(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(OAuthError)
  return (error as OAuthError).code
}

beforeAll(async () => {
  const pair = await generateKeyPair('RS256')
  signingKey = pair.privateKey
  strangerKey = (await generateKeyPair('RS256')).privateKey
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'ci-key-1', alg: 'RS256', use: 'sig' }
  issuerServer = http.createServer((req, res) => {
    issuerHits++
    res.setHeader('content-type', 'application/json')
    if (req.url === '/.well-known/openid-configuration') return res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }))
    if (req.url === '/jwks') return res.end(JSON.stringify({ keys: [publicJwk] }))
    res.statusCode = 404
    res.end('{}')
  })
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve))
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`

  process.env.OAUTH_ALLOW_LOOPBACK_FETCH = '1'
  owner = await createUser({ username: 'pubowner', email: 'pubowner@test.dev', password: 'password-owner' })
  admin = await createUser({ username: 'pubadmin', email: 'pubadmin@test.dev', password: 'password-admin' })
  await createUser({ username: 'pubother', email: 'pubother@test.dev', password: 'password-other' })
  await createRepo(session(owner.id), { namespace: 'pubowner', name: 'model-repo' })
  await createRepo(session(owner.id), { namespace: 'pubowner', name: 'other-repo' })
  await createRepo(session(owner.id), { type: 'dataset', namespace: 'pubowner', name: 'data-repo' })
  orgId = (await createOrg(admin.id, { name: 'puborg' })).id
  await createRepo(session(admin.id), { namespace: 'puborg', name: 'org-model', private: true })
})

afterAll(async () => {
  issuerServer.closeAllConnections()
  await new Promise((resolve) => issuerServer.close(resolve))
})

beforeEach(() => {
  process.env.OAUTH_ALLOW_LOOPBACK_FETCH = '1'
  process.env.HUB_URL = HUB
})

describe('registering publishers', () => {
  it('refuses publishers that pin nothing, pin reserved claims, or miss a preset issuer\'s identity claim', async () => {
    const repo = { kind: 'repo', type: 'model', namespace: 'pubowner', name: 'model-repo' } as const
    const bad: { issuer: string; claims: Record<string, string> }[] = [
      { issuer, claims: {} },
      { issuer, claims: { aud: HUB } },
      { issuer, claims: { 'bad name!': 'x' } },
      { issuer, claims: { ref: '' } },
      { issuer: 'https://token.actions.githubusercontent.com', claims: { ref: 'refs/heads/main' } },
      { issuer: 'https://oidc.circleci.com/org/0b9c2f1e-2d36-4f4b-9c1f-3a1e2b3c4d5e', claims: { sub: 'x' } },
      { issuer: 'ftp://ci.example', claims: { sub: 'x' } },
      { issuer: 'https://ci.example/?q=1', claims: { sub: 'x' } },
    ]
    for (const input of bad) await expect(addPublisher(session(owner.id), repo, input), JSON.stringify(input)).rejects.toBeInstanceOf(ZodError)
  })

  it('accepts the GitHub preset with its claims and any OIDC issuer', async () => {
    const gh = await addPublisher(session(owner.id), { kind: 'repo', type: 'model', namespace: 'pubowner', name: 'other-repo' }, { issuer: 'https://token.actions.githubusercontent.com', claims: { repository: 'octo/other', workflow: 'ci' } })
    expect(gh.repoId).not.toBeNull()
    await removePublisher(session(owner.id), gh.id)
  })

  it('lets only the repo\'s managers add one, and only in a browser session', async () => {
    const repo = { kind: 'repo', type: 'model', namespace: 'pubowner', name: 'model-repo' } as const
    const other = await db.user.findUniqueOrThrow({ where: { username: 'pubother' } })
    await expect(addPublisher(session(other.id), repo, { issuer, claims: CLAIMS })).rejects.toMatchObject({ status: 403 })
    await expect(addPublisher({ userId: owner.id, principal: { tokenKind: 'personal', role: 'write' } as never }, repo, { issuer, claims: CLAIMS })).rejects.toBeInstanceOf(HubError)
    await expect(addPublisher(null, repo, { issuer, claims: CLAIMS })).rejects.toMatchObject({ status: 401 })
  })

  it('audit-logs adding and removing', async () => {
    const p = await addPublisher(session(admin.id), { kind: 'repo', type: 'model', namespace: 'puborg', name: 'org-model' }, { issuer, claims: { repository: 'acme/x' } }, '198.51.100.1')
    await removePublisher(session(admin.id), p.id, '198.51.100.1')
    const entries = await db.auditLogEntry.findMany({ where: { orgId, action: { in: ['publisher.add', 'publisher.remove'] } }, orderBy: { createdAt: 'asc' } })
    expect(entries.map((e) => e.action)).toEqual(['publisher.add', 'publisher.remove'])
    expect(entries[0]).toMatchObject({ actorUserId: admin.id, ip: '198.51.100.1' })
    expect(JSON.parse(entries[0]!.data)).toMatchObject({ publisherId: p.id, for: 'puborg/org-model', issuer, claims: { repository: 'acme/x' } })
  })
})

describe('exchanging a CI id_token', () => {
  let repoPublisherId: string
  beforeAll(async () => {
    process.env.OAUTH_ALLOW_LOOPBACK_FETCH = '1'
    repoPublisherId = (await addPublisher(session(owner.id), { kind: 'repo', type: 'model', namespace: 'pubowner', name: 'model-repo' }, { issuer, claims: CLAIMS })).id
    await addPublisher(session(owner.id), { kind: 'repo', type: 'dataset', namespace: 'pubowner', name: 'data-repo' }, { issuer, claims: { repository: 'octo/data' } })
    await addPublisher(session(owner.id), { kind: 'user' }, { issuer, claims: { repository: 'octo/model-repo' } })
    await addPublisher(session(admin.id), { kind: 'repo', type: 'model', namespace: 'puborg', name: 'org-model' }, { issuer, claims: CLAIMS })
  })

  it('issues a 1 h token that writes to that one repo', async () => {
    const res = await exchangeCiIdToken({ subjectToken: await idToken(), resource: 'pubowner/model-repo' })
    expect(res).toEqual({ access_token: expect.stringMatching(/^hf_/), token_type: 'bearer', expires_in: 3600, issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' })
    expect(res).not.toHaveProperty('refresh_token')
    const principal = (await principalFromToken(res.access_token))!
    expect(principal).toMatchObject({ tokenKind: 'publisher', userId: owner.id })
    const caller = { userId: principal.userId, principal }
    const target = await db.repo.findFirstOrThrow({ where: { namespace: 'pubowner', name: 'model-repo' } })
    const other = await db.repo.findFirstOrThrow({ where: { namespace: 'pubowner', name: 'other-repo' } })
    expect(repoDecision(caller, 'write', target, await repoContext(caller, target))).toBe('allow')
    expect(repoDecision(caller, 'manage', target, await repoContext(caller, target))).toBe('forbidden')
    expect(repoDecision(caller, 'write', other, await repoContext(caller, other))).toBe('forbidden')
  })

  it('names datasets and spaces with their prefix', async () => {
    expect((await exchangeCiIdToken({ subjectToken: await idToken({ repository: 'octo/data' }), resource: 'datasets/pubowner/data-repo' })).expires_in).toBe(3600)
    expect(await grantFailure(exchangeCiIdToken({ subjectToken: await idToken({ repository: 'octo/data' }), resource: 'pubowner/data-repo' }))).toBe('invalid_grant')
  })

  it('issues a read-only gated-repos token for a user resource', async () => {
    const res = await exchangeCiIdToken({ subjectToken: await idToken(), resource: 'pubowner' })
    expect(res.scope).toBe('gated-repos')
    const principal = (await principalFromToken(res.access_token))!
    expect(principal).toMatchObject({ tokenKind: 'publisher', repoId: null, scopes: ['gated-repos'] })
    const caller = { userId: principal.userId, principal }
    const own = await db.repo.findFirstOrThrow({ where: { namespace: 'pubowner', name: 'model-repo' } })
    expect(repoDecision(caller, 'write', own, await repoContext(caller, own))).toBe('forbidden')
  })

  it('acts as the registering admin for an organization repo, and stops when they lose write access', async () => {
    expect((await exchangeCiIdToken({ subjectToken: await idToken(), resource: 'puborg/org-model' })).expires_in).toBe(3600)
    const helper = await createUser({ username: 'pubhelper', email: 'pubhelper@test.dev', password: 'password-helper' })
    await db.membership.create({ data: { orgId, userId: helper.id, role: 'admin' } })
    await changeMember(orgId, admin.id, 'read')
    try {
      expect(await grantFailure(exchangeCiIdToken({ subjectToken: await idToken(), resource: 'puborg/org-model' }))).toBe('invalid_grant')
    } finally {
      await changeMember(orgId, admin.id, 'admin')
    }
  })

  it('accepts a token expired within the small clock skew', async () => {
    expect((await exchangeCiIdToken({ subjectToken: await idToken({ exp: Math.floor(Date.now() / 1000) - 10 }), resource: 'pubowner/model-repo' })).expires_in).toBe(3600)
  })

  const negatives: [string, () => Promise<string>, string, string][] = [
    ['wrong audience', () => idToken({ aud: 'https://huggingface.co' }), 'pubowner/model-repo', 'invalid_grant'],
    ['expired', () => idToken({ exp: Math.floor(Date.now() / 1000) - 120 }), 'pubowner/model-repo', 'invalid_grant'],
    ['not yet valid', () => idToken({ nbf: Math.floor(Date.now() / 1000) + 600 }), 'pubowner/model-repo', 'invalid_grant'],
    ['wrong signature', () => idToken({}, { key: strangerKey }), 'pubowner/model-repo', 'invalid_grant'],
    ['claim mismatch (branch)', () => idToken({ ref: 'refs/heads/feature' }), 'pubowner/model-repo', 'invalid_grant'],
    ['claim mismatch (type, not string)', () => idToken({ workflow: ['release'] }), 'pubowner/model-repo', 'invalid_grant'],
    ['claim missing', () => idToken({ workflow: undefined }), 'pubowner/model-repo', 'invalid_grant'],
    ['unknown issuer', () => idToken({}, { iss: 'https://ci.unknown.example' }), 'pubowner/model-repo', 'invalid_grant'],
    ['repo without publishers', () => idToken(), 'pubowner/other-repo', 'invalid_grant'],
    ['resource not found (repo)', () => idToken(), 'pubowner/no-such-repo', 'invalid_grant'],
    ['resource not found (user)', () => idToken(), 'no-such-user', 'invalid_grant'],
    ['malformed resource', () => idToken(), 'a/b/c/d', 'invalid_request'],
    ['not a JWT', async () => 'not-a-jwt', 'pubowner/model-repo', 'invalid_request'],
  ]
  for (const [name, token, resource, code] of negatives) {
    it(`refuses: ${name} (${code})`, async () => expect(await grantFailure(exchangeCiIdToken({ subjectToken: await token(), resource }))).toBe(code))
  }

  it('says the same of a private repo whatever the reason, as of a missing one: an anonymous request learns neither that it exists nor which CI it trusts', async () => {
    const said = async (token: Promise<string>, resource: string) => {
      const error = await exchangeCiIdToken({ subjectToken: await token, resource }).then(() => null, (e: unknown) => e)
      expect(error).toBeInstanceOf(OAuthError)
      return (error as OAuthError).message
    }
    const missing = await said(idToken(), 'puborg/no-such-model')
    expect(missing).toMatch(/No trusted publisher of this resource accepts this id_token/)
    for (const token of [idToken({}, { iss: 'https://ci.unknown.example' }), idToken({}, { key: strangerKey }), idToken({ ref: 'refs/heads/feature' }), idToken({ aud: 'https://huggingface.co' })]) {
      expect(await said(token, 'puborg/org-model')).toBe(missing)
    }
    // A public repo's refusals say why.
    expect(await said(idToken({ ref: 'refs/heads/feature' }), 'pubowner/model-repo')).toMatch(/does not match the claims/)
    expect(await said(idToken({}, { iss: 'https://ci.unknown.example' }), 'pubowner/model-repo')).toMatch(/uses that issuer/)
  })

  it('never contacts an issuer nobody registered', async () => {
    const before = issuerHits
    await grantFailure(exchangeCiIdToken({ subjectToken: await idToken({}, { iss: `${issuer}/elsewhere` }), resource: 'pubowner/model-repo' }))
    expect(issuerHits).toBe(before)
  })

  it('trades each id_token once: a copy of one already traded is refused', async () => {
    const token = await idToken()
    const first = await exchangeCiIdToken({ subjectToken: token, resource: 'pubowner/model-repo' })
    expect(first.access_token).toMatch(/^hf_/)
    await expect(exchangeCiIdToken({ subjectToken: token, resource: 'pubowner/model-repo' })).rejects.toMatchObject({ code: 'invalid_grant', description: expect.stringMatching(/exchanged already/) })
    // The same token with its signature spelled otherwise (base64url's spare bits in the last
    // character, which a JOSE library accepts): the same token, refused too.
    const last = token.at(-1)!
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const respelled = token.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1]
    await expect(exchangeCiIdToken({ subjectToken: respelled, resource: 'pubowner/model-repo' })).rejects.toMatchObject({ code: 'invalid_grant', description: expect.stringMatching(/exchanged already/) })
    const spent = await db.spentIdToken.findMany()
    expect(JSON.stringify(spent)).not.toContain(token.split('.')[1])
    // Kept until the token expires (plus the clock skew allowed), then swept.
    expect(spent.every((row) => row.expiresAt.getTime() > Date.now())).toBe(true)
  })

  it('caches the issuer keys', async () => {
    await exchangeCiIdToken({ subjectToken: await idToken(), resource: 'pubowner/model-repo' })
    const before = issuerHits
    await exchangeCiIdToken({ subjectToken: await idToken(), resource: 'pubowner/model-repo' })
    expect(issuerHits).toBe(before)
  })

  it('cannot reach a loopback issuer without the development setting', async () => {
    delete process.env.OAUTH_ALLOW_LOOPBACK_FETCH
    const fresh = `http://localhost:${new URL(issuer).port}`
    await db.trustedPublisher.create({ data: { repoId: (await db.repo.findFirstOrThrow({ where: { namespace: 'pubowner', name: 'model-repo' } })).id, issuer: fresh, claims: JSON.stringify(CLAIMS), createdById: owner.id } })
    expect(await grantFailure(exchangeCiIdToken({ subjectToken: await idToken({}, { iss: fresh }), resource: 'pubowner/model-repo' }))).toBe('invalid_grant')
  })

  it('lists the user\'s publishers, and removing one ends its tokens', async () => {
    const listed = await listPublishers(session(owner.id))
    expect(listed.map((p) => p.for).sort()).toEqual(['datasets/pubowner/data-repo', 'pubowner/model-repo', 'pubowner/model-repo', 'your account'])
    // An organization repo's publisher is listed to every admin of the organization (whoever added it), who may remove it; to nobody else.
    const orgPublishers = async (username: string) => (await listPublishers(session((await db.user.findUniqueOrThrow({ where: { username } })).id)))
      .filter((p) => p.for === 'puborg/org-model')
    expect(await orgPublishers('pubadmin')).toHaveLength(1)
    expect(await orgPublishers('pubhelper')).toHaveLength(1)
    expect(await listPublishers(session((await db.user.findUniqueOrThrow({ where: { username: 'pubother' } })).id))).toEqual([])
    const res = await exchangeCiIdToken({ subjectToken: await idToken(), resource: 'pubowner/model-repo' })
    await expect(removePublisher(session(admin.id), repoPublisherId)).rejects.toMatchObject({ status: 404 })
    await removePublisher(session(owner.id), repoPublisherId)
    expect(await principalFromToken(res.access_token)).toBeNull()
    expect(await grantFailure(exchangeCiIdToken({ subjectToken: await idToken(), resource: 'pubowner/model-repo' }))).toBe('invalid_grant')
  })
})

describe('an issuer whose documents are hostile or broken', () => {
  // Each path is an issuer of its own on one local server: discovery "null", a JWKS "null", a JWKS
  // whose only key is RSA-1024 (which jose refuses to use with a TypeError), an array for discovery.
  let hostile: http.Server
  let base: string
  const weak = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 })
  const weakJwk = { ...(weak.publicKey.export({ format: 'jwk' }) as Record<string, string>), kid: 'weak', alg: 'RS256', use: 'sig' }

  function rs256(payload: Record<string, unknown>, kid: string, key: crypto.KeyObject) {
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
    const input = `${part({ alg: 'RS256', kid })}.${part(payload)}`
    return `${input}.${crypto.sign('sha256', Buffer.from(input), key).toString('base64url')}`
  }

  beforeAll(async () => {
    hostile = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json')
      const [, name, ...rest] = (req.url ?? '').split('/')
      const iss = `${base}/${name}`
      if (rest.join('/') === '.well-known/openid-configuration') {
        if (name === 'null-discovery') return res.end('null')
        if (name === 'array-discovery') return res.end('[]')
        return res.end(JSON.stringify({ issuer: iss, jwks_uri: `${iss}/jwks` }))
      }
      if (rest.join('/') === 'jwks') return res.end(name === 'null-jwks' ? 'null' : JSON.stringify({ keys: [weakJwk] }))
      res.statusCode = 404
      res.end('{}')
    })
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`
    process.env.OAUTH_ALLOW_LOOPBACK_FETCH = '1'
  })
  afterAll(() => new Promise<void>((resolve) => hostile.close(() => resolve())))

  for (const name of ['null-discovery', 'array-discovery', 'null-jwks', 'weak-key']) {
    it(`answers invalid_grant, not a server error: ${name}`, async () => {
      const iss = `${base}/${name}`
      const repo = await db.repo.findFirstOrThrow({ where: { namespace: 'pubowner', name: 'other-repo' } })
      await db.trustedPublisher.create({ data: { repoId: repo.id, issuer: iss, claims: JSON.stringify(CLAIMS), createdById: owner.id } })
      const now = Math.floor(Date.now() / 1000)
      const token = rs256({ ...CLAIMS, iss, aud: HUB, sub: 'repo:octo/model-repo', iat: now, exp: now + 300 }, 'weak', weak.privateKey)
      expect(await grantFailure(exchangeCiIdToken({ subjectToken: token, resource: 'pubowner/other-repo' }))).toBe('invalid_grant')
    })
  }
})

describe('a publisher removed while its id_token is being exchanged', () => {
  it('issues nothing: the exchange finds the publisher gone when it would issue', async () => {
    // An issuer whose keys answer only when the test lets them: the exchange has found the
    // publisher and waits on the keys while the publisher is removed.
    const pair = await generateKeyPair('RS256')
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'slow-key', alg: 'RS256', use: 'sig' }
    let asked!: () => void
    const keysAsked = new Promise<void>((resolve) => (asked = resolve))
    let answer!: () => void
    const answered = new Promise<void>((resolve) => (answer = resolve))
    const slow = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json')
      if (req.url === '/.well-known/openid-configuration') return res.end(JSON.stringify({ issuer: slowIssuer, jwks_uri: `${slowIssuer}/jwks` }))
      asked()
      void answered.then(() => res.end(JSON.stringify({ keys: [jwk] })))
    })
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
    const slowIssuer = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`
    try {
      const publisher = await addPublisher(session(owner.id), { kind: 'repo', type: 'model', namespace: 'pubowner', name: 'other-repo' }, { issuer: slowIssuer, claims: CLAIMS })
      const subjectToken = await new SignJWT({ ...CLAIMS, sub: 'repo:octo/model-repo:ref:refs/heads/main', jti: crypto.randomUUID() })
        .setProtectedHeader({ alg: 'RS256', kid: 'slow-key' })
        .setIssuer(slowIssuer)
        .setAudience(HUB)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + 300)
        .sign(pair.privateKey)
      const exchanging = exchangeCiIdToken({ subjectToken, resource: 'pubowner/other-repo' })
      await keysAsked
      await removePublisher(session(owner.id), publisher.id)
      answer()
      expect(await grantFailure(exchanging)).toBe('invalid_grant')
      expect(await db.accessToken.count({ where: { kind: 'publisher', grantId: publisher.id, revokedAt: null } })).toBe(0)
    } finally {
      slow.closeAllConnections()
      await new Promise((resolve) => slow.close(resolve))
    }
  })
})
