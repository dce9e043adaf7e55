// The authorization endpoint: redirect-URI rules, errors shown on our page vs sent back to the app,
// scopes, PKCE, sign-in and remembered consent. The browser session is stubbed; e2e tests use a real one.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { Caller } from '@/lib/policy'

const session = vi.hoisted(() => ({ caller: null as Caller, authTime: null as number | null }))
vi.mock('@/lib/auth/caller', () => ({
  sessionCaller: async () => session.caller,
  sessionSignIn: async () => (session.caller ? { caller: session.caller, authTime: session.authTime } : null),
}))

import { GET, POST } from '@/app/oauth/authorize/route'
import { GET as dialogGET } from '@/app/api/oauth/dialog/route'
import { approve, checkAuthorizationRequest, readAuthorizationRequest } from '@/lib/oauth/authorize'
import { findConsent, saveConsent } from '@/lib/oauth/consent'
import { db, readList } from '@/lib/db'
import { sha256Hex } from '@/lib/auth/secrets'
import { createUser } from '@/lib/hub/users'
import { addMember } from '@/lib/hub/orgs'
import { paramsFrom } from '@/lib/oauth/request'
import { redirectUriAllowed } from '@/lib/oauth/redirect-uri'
import { hubUrl } from '@/lib/config'
import { createApp } from '@/lib/oauth/clients/apps'
import { CHALLENGE, createFixture, type Fixture } from './setup'

/** Redirects to the hub's own pages are absolute URLs on HUB_URL (clients parse them with new URL). */
const CONSENT = new RegExp(`^${hubUrl().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/oauth/authorize/consent\\?`)

let f: Fixture
beforeAll(async () => {
  f = await createFixture('authz')
})

describe('redirect URI rules', () => {
  const registered = ['https://app.example/cb', 'http://127.0.0.1/cb', 'http://localhost:8080/cb?mode=a', 'com.example.app:/oauth', 'http://[::1]/x']
  const cases: [string, boolean][] = [
    ['https://app.example/cb', true],
    ['https://app.example/cb/', false],
    ['https://app.example:8443/cb', false],
    ['https://APP.example/cb', false],
    ['https://app.example/cb?x=1', false],
    ['https://app.example/cb#frag', false],
    ['http://app.example/cb', false],
    ['http://127.0.0.1/cb', true],
    ['http://127.0.0.1:49152/cb', true],
    ['http://127.0.0.1:49152/cb2', false],
    ['http://127.0.0.1:49152/cb?x', false],
    ['http://localhost:49152/cb', false], // hosts are matched individually
    ['http://localhost:1234/cb?mode=a', true],
    ['http://localhost:1234/cb?mode=b', false],
    ['http://localhost:1234/cb?mode=a#f', false],
    ['http://user@127.0.0.1:1/cb', false],
    ['https://127.0.0.1:443/cb', false], // the port rule is for http only
    ['com.example.app:/oauth', true],
    ['com.example.app:/oauth2', false],
    ['http://[::1]:5000/x', true],
    ['not a url', false],
  ]
  for (const [uri, allowed] of cases) it(`${uri} -> ${allowed}`, () => expect(redirectUriAllowed(uri, registered)).toBe(allowed))
})

function authorizeUrl(params: Record<string, string>, path = '/oauth/authorize') {
  return `http://hub.test${path}?${new URLSearchParams(params)}`
}

const confParams = () => ({ client_id: f.confidential.app.clientId, redirect_uri: 'https://app.example/cb', scope: 'openid profile', state: '{"nonce":"n","redirectUri":"x","state":"a b&c=d"}' })

describe('checking a request', () => {
  const check = (params: Record<string, string>) => checkAuthorizationRequest(paramsFrom(Object.entries(params)))

  it('shows errors on our page when the client or redirect URI cannot be trusted', async () => {
    expect((await check({ redirect_uri: 'https://app.example/cb' })).kind).toBe('show-error')
    expect((await check({ client_id: 'unknown', redirect_uri: 'https://app.example/cb' })).kind).toBe('show-error')
    expect((await check({ ...confParams(), redirect_uri: 'https://evil.example/cb' })).kind).toBe('show-error')
    expect((await check({ ...confParams(), redirect_uri: 'https://app.example/cb#x' })).kind).toBe('show-error')
    const { redirect_uri: _, ...noRedirect } = confParams()
    expect((await check(noRedirect)).kind).toBe('show-error')
  })

  it('sends other errors back with error, error_description, state (verbatim) and iss', async () => {
    const expectError = async (params: Record<string, string>, error: string) => {
      const checked = await check(params)
      expect(checked.kind).toBe('redirect')
      const url = new URL((checked as { location: string }).location)
      expect(`${url.origin}${url.pathname}`).toBe('https://app.example/cb')
      expect(url.searchParams.get('error')).toBe(error)
      expect(url.searchParams.get('error_description')).toEqual(expect.any(String))
      expect(url.searchParams.get('state')).toBe(confParams().state)
      expect(url.searchParams.get('iss')).toBe(hubUrl())
    }
    await expectError({ ...confParams(), response_type: 'token' }, 'unsupported_response_type')
    await expectError({ ...confParams(), request: 'eyJhbGciOiJub25lIn0.e30.' }, 'request_not_supported')
    await expectError({ ...confParams(), request_uri: 'urn:example:x' }, 'request_uri_not_supported')
    await expectError({ ...confParams(), response_mode: 'form_post' }, 'invalid_request')
    await expectError({ ...confParams(), scope: 'openid admin' }, 'invalid_scope')
    // OIDC's own values the hub does not grant are ignored (OIDC Core 3.1.2.1), not refused.
    const oidc = await readAuthorizationRequest(Object.entries({ ...confParams(), scope: 'openid offline_access profile phone' }))
    expect(oidc.kind === 'ok' && oidc.request.scopes).toEqual(['openid', 'profile'])
    // Scope escalation: a scope the app did not register.
    await expectError({ ...confParams(), scope: 'openid write-collections' }, 'invalid_scope')
    await expectError({ ...confParams(), code_challenge: CHALLENGE }, 'invalid_request') // plain (no method) is refused
    await expectError({ ...confParams(), code_challenge: CHALLENGE, code_challenge_method: 'plain' }, 'invalid_request')
    await expectError({ ...confParams(), code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request')
    // Public apps must use PKCE.
    const pub = await check({ client_id: f.pub.clientId, redirect_uri: 'https://spa.example/cb?x=1' })
    expect(pub.kind).toBe('redirect')
    const back = new URL((pub as { location: string }).location)
    expect(back.searchParams.get('error')).toBe('invalid_request')
    expect(back.searchParams.get('x')).toBe('1') // the registered query is kept
  })

  it('defaults response_type to code and scope to openid profile, and ignores unknown parameters', async () => {
    const checked = await check({ client_id: f.confidential.app.clientId, redirect_uri: 'https://app.example/cb', resource: 'https://x', whatever: '1' })
    expect(checked.kind).toBe('ok')
    expect(checked.kind === 'ok' && checked.request.scopes).toEqual(['openid', 'profile'])
  })
})

describe('the registered redirect URI\'s query', () => {
  it('is kept as registered, byte for byte, and the response parameters are appended to it (RFC 6749 3.1.2)', async () => {
    const registered = ['http://127.0.0.1/cb?x=a%20b&flag', 'https://q.example/cb2?a=1;b=2', 'https://q.example/cb3?', 'https://q.example/cb4?a=%7E~&']
    const { app } = await createApp({ kind: 'user', userId: f.other.id }, { name: 'Queries', redirectUris: registered, scopes: ['openid', 'profile'] }, true)
    const expected: [string, string][] = [
      ['http://127.0.0.1:4000/cb?x=a%20b&flag', 'http://127.0.0.1:4000/cb?x=a%20b&flag&'],
      ['https://q.example/cb2?a=1;b=2', 'https://q.example/cb2?a=1;b=2&'],
      ['https://q.example/cb3?', 'https://q.example/cb3?'],
      ['https://q.example/cb4?a=%7E~&', 'https://q.example/cb4?a=%7E~&'],
    ]
    for (const [redirect_uri, prefix] of expected) {
      // An error sent back to the app...
      const refused = await checkAuthorizationRequest(paramsFrom(Object.entries({ client_id: app.clientId, redirect_uri, state: 's t', response_type: 'token' })))
      const location = (refused as { location: string }).location
      expect(location.startsWith(prefix), location).toBe(true)
      expect(Object.fromEntries(new URLSearchParams(location.slice(prefix.length)))).toEqual({ error: 'unsupported_response_type', error_description: expect.any(String), state: 's t', iss: hubUrl() })
      expect(new URL(location).searchParams.get('state')).toBe('s t')
      // ...and a code.
      const checked = await checkAuthorizationRequest(paramsFrom(Object.entries({ client_id: app.clientId, redirect_uri, state: 's' })))
      if (checked.kind !== 'ok') throw new Error(JSON.stringify(checked))
      const approved = await approve(checked.request, f.user.id, [])
      expect(approved.startsWith(prefix), approved).toBe(true)
      expect([...new URLSearchParams(approved.slice(prefix.length)).keys()]).toEqual(['code', 'state', 'iss'])
    }
  })
})

describe('GET|POST /oauth/authorize', () => {
  it('sends a signed-out browser to sign in, then to the consent page', async () => {
    session.caller = null
    const res = await GET(new Request(authorizeUrl(confParams())))
    expect(res.status).toBe(303)
    const location = new URL(res.headers.get('location')!)
    expect(location.origin + location.pathname).toBe(`${hubUrl()}/login`)
    const next = location.searchParams.get('next')!
    expect(next.startsWith('/oauth/authorize/consent?')).toBe(true)
    expect(new URLSearchParams(next.split('?')[1]).get('state')).toBe(confParams().state)
  })

  it('answers prompt=none from a signed-out browser with login_required', async () => {
    session.caller = null
    const res = await GET(new Request(authorizeUrl({ ...confParams(), prompt: 'none' })))
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('login_required')
  })

  it('shows the consent page on first use, and passes without a prompt once consented', async () => {
    session.caller = { userId: f.user.id, principal: null }
    const first = await GET(new Request(authorizeUrl(confParams())))
    expect(first.headers.get('location')).toMatch(CONSENT)
    const none = await GET(new Request(authorizeUrl({ ...confParams(), prompt: 'none' })))
    expect(new URL(none.headers.get('location')!).searchParams.get('error')).toBe('consent_required')

    await saveConsent(f.user.id, f.confidential.app.clientId, ['openid', 'profile', 'email'], [f.org.id])
    // POST with the parameters in the URL (as @huggingface/hub's own tests do), and the alias path.
    for (const handler of [POST, dialogGET]) {
      const res = await handler(new Request(authorizeUrl(confParams(), handler === POST ? '/oauth/authorize' : '/api/oauth/dialog'), { method: handler === POST ? 'POST' : 'GET' }))
      expect(res.status).toBe(303)
      const url = new URL(res.headers.get('location')!)
      expect(url.origin + url.pathname).toBe('https://app.example/cb')
      expect(url.searchParams.get('code')).toMatch(/^[A-Za-z0-9]{40}$/)
      expect(url.searchParams.get('state')).toBe(confParams().state)
      expect(url.searchParams.get('iss')).toBe(hubUrl())
    }
    // Asking for more than was approved prompts again, as do orgs not approved and prompt=consent.
    const more = await GET(new Request(authorizeUrl({ ...confParams(), scope: 'openid read-repos' })))
    expect(more.headers.get('location')).toMatch(CONSENT)
    const otherOrg = await GET(new Request(authorizeUrl({ ...confParams(), orgIds: f.secondOrg.id })))
    expect(otherOrg.headers.get('location')).toMatch(CONSENT)
    const forced = await GET(new Request(authorizeUrl({ ...confParams(), prompt: 'consent' })))
    expect(forced.headers.get('location')).toMatch(CONSENT)
  })

  it('reads prompt as a list and max_age (OIDC Core 3.1.2.1): sign in again when asked or when the sign-in is too old; the code carries auth_time', async () => {
    session.caller = { userId: f.user.id, principal: null }
    const now = Math.floor(Date.now() / 1000)
    session.authTime = now - 600
    await saveConsent(f.user.id, f.confidential.app.clientId, ['openid', 'profile', 'email'], [f.org.id])
    const location = async (extra: Record<string, string>) => res303(await GET(new Request(authorizeUrl({ ...confParams(), ...extra }))))!
    // consent anywhere in the list forces the consent page; none with anything else is an error.
    expect(await location({ prompt: 'login consent' })).toMatch(/\/login\?reauth=1/)
    expect(await location({ prompt: 'consent select_account' })).toMatch(/\/login\?reauth=1/)
    expect(new URL(await location({ prompt: 'none login' })).searchParams.get('error')).toBe('invalid_request')
    expect(new URL(await location({ max_age: 'soon' })).searchParams.get('error')).toBe('invalid_request')
    // prompt=login: the sign-in page, then the consent page marked with when it asked.
    const login = new URL(await location({ prompt: 'login' }))
    expect(login.pathname).toBe('/login')
    const next = new URLSearchParams(login.searchParams.get('next')!.split('?')[1])
    const mark = next.get('signed_in_after')!
    expect(Number(mark.split('.')[0])).toBeGreaterThanOrEqual(now)
    // The mark is the hub's own: written into the URL by anyone else, it does not skip the sign-in.
    for (const forged of ['0', String(now + 60), `${now + 60}.${mark.split('.')[1]}`]) {
      expect(await location({ prompt: 'login', signed_in_after: forged })).toMatch(/\/login\?reauth=1/)
    }
    // Signed in since then: the remembered consent answers with a code, also for max_age=0.
    session.authTime = Number(mark.split('.')[0])
    const afterLogin = new URL(await location({ prompt: 'login', signed_in_after: mark }))
    expect(afterLogin.searchParams.get('code')).toBeTruthy()
    session.authTime = Number(mark.split('.')[0]) - 5
    expect(await location({ prompt: 'login', signed_in_after: mark })).toMatch(/\/login\?reauth=1/)
    session.authTime = Number(mark.split('.')[0])
    expect(new URL(await location({ max_age: '0', signed_in_after: mark })).searchParams.get('code')).toBeTruthy()
    // max_age: a sign-in older than it signs in again (with none: login_required); a recent one answers.
    session.authTime = now - 600
    expect(await location({ max_age: '300' })).toMatch(/\/login\?reauth=1/)
    expect(new URL(await location({ max_age: '300', prompt: 'none' })).searchParams.get('error')).toBe('login_required')
    const fresh = new URL(await location({ max_age: '3600' }))
    const code = await db.authorizationCode.findUnique({ where: { codeHash: sha256Hex(fresh.searchParams.get('code')!) } })
    expect(code?.authTime).toBe(now - 600)
    // A session from before sign-in times were kept has no age: max_age signs in again.
    session.authTime = null
    expect(await location({ max_age: '3600' })).toMatch(/\/login\?reauth=1/)
  })

  it('a signed-out browser asked for prompt=login signs in once: the way to sign-in is marked as asked', async () => {
    session.caller = null
    const res = await GET(new Request(authorizeUrl({ ...confParams(), prompt: 'login', max_age: '0' })))
    const next = new URL(res303(res)!).searchParams.get('next')!
    const mark = new URLSearchParams(next.split('?')[1]).get('signed_in_after')!
    // Signed in on the way (at the mark's second): the consent page does not ask again.
    session.caller = { userId: f.user.id, principal: null }
    session.authTime = Number(mark.split('.')[0])
    await saveConsent(f.user.id, f.confidential.app.clientId, ['openid', 'profile', 'email'], [f.org.id])
    const answered = new URL(res303(await GET(new Request(authorizeUrl({ ...confParams(), prompt: 'login', max_age: '0', signed_in_after: mark }))))!)
    expect(answered.searchParams.get('code')).toBeTruthy()
  })

  it('takes the parameters of a form POST too', async () => {
    session.caller = { userId: f.user.id, principal: null }
    const res = await POST(new Request('http://hub.test/oauth/authorize', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(confParams()).toString() }))
    expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy()
  })

  it('carries only the request\'s own parameters to the consent page, so a padded form post keeps the Location short', async () => {
    session.caller = null
    const padding = { ['['.repeat(1500)]: ']'.repeat(1500), utm_source: 'x'.repeat(3000) } // within the 16 KB a form post may have
    const body = new URLSearchParams({ ...confParams(), ...padding }).toString()
    const res = await POST(new Request('http://hub.test/oauth/authorize', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }))
    const location = res303(res)!
    expect(location.length).toBeLessThan(1000)
    const next = new URL(location).searchParams.get('next')!
    // (and the hub's mark of when it sent the browser to sign in)
    expect([...new URLSearchParams(next.split('?')[1]).keys()].sort()).toEqual([...Object.keys(confParams()), 'signed_in_after'].sort())
    // A refused request goes to the consent page as the endpoint's verdict, not as the request (consent-page.test.ts).
    const repeated = new URL(res303(await GET(new Request(`http://hub.test/oauth/authorize?client_id=a&client_id=b&junk=1`)))!)
    expect([...repeated.searchParams.keys()]).toEqual(['error', 'error_description', 'error_mark'])
    expect(repeated.searchParams.get('error_description')).toBe('Parameter client_id is repeated')
  })

  it('shows untrusted-redirect errors on our page, never redirecting to them', async () => {
    session.caller = { userId: f.user.id, principal: null }
    for (const redirect_uri of ['https://evil.example/cb', 'https://app.example/cb#x']) {
      const res = await GET(new Request(authorizeUrl({ ...confParams(), redirect_uri })))
      expect(res.headers.get('location')).toMatch(CONSENT)
    }
    const repeated = await GET(new Request(`http://hub.test/oauth/authorize?client_id=a&client_id=b`))
    expect(res303(repeated)).toMatch(CONSENT)
  })
})

function res303(res: Response) {
  expect(res.status).toBe(303)
  return res.headers.get('location')
}

describe('approving', () => {
  it('records the consent and issues the code together, for the organizations the user is in only', async () => {
    const user = await createUser({ username: 'authzapprover', email: 'authzapprover@test.dev', password: 'password-approver' })
    await addMember(f.org.id, user.username, 'read')
    const checked = await readAuthorizationRequest(Object.entries({ ...confParams(), scope: 'openid profile email' }))
    if (checked.kind !== 'ok') throw new Error('request refused')

    // Without remember (a remembered consent answering): a code, and no new consent row.
    const silent = new URL(await approve(checked.request, user.id, [f.org.id], { remember: false }))
    expect(silent.searchParams.get('code')).toBeTruthy()
    expect(await findConsent(user.id, f.confidential.app.clientId)).toBeNull()

    // Approving on the consent page: consent and code, and a foreign org id is dropped from both.
    const approved = new URL(await approve(checked.request, user.id, [f.org.id, f.secondOrg.id], { remember: true }))
    const code = await db.authorizationCode.findUniqueOrThrow({ where: { codeHash: sha256Hex(approved.searchParams.get('code')!) } })
    expect(readList(code.orgIds)).toEqual([f.org.id])
    expect(await findConsent(user.id, f.confidential.app.clientId)).toEqual({ scopes: ['openid', 'profile', 'email'], orgIds: [f.org.id] })
  })

  it('saves no consent when the code cannot be stored', async () => {
    const user = await createUser({ username: 'authzrollback', email: 'authzrollback@test.dev', password: 'password-rollback' })
    const checked = await readAuthorizationRequest(Object.entries(confParams()))
    if (checked.kind !== 'ok') throw new Error('request refused')
    // A code row the database refuses (its app does not exist) rolls the consent back with it.
    const broken = { ...checked.request, client: { ...checked.request.client, appId: 'no-such-app' } }
    await expect(approve(broken, user.id, [], { remember: true })).rejects.toThrow()
    expect(await findConsent(user.id, f.confidential.app.clientId)).toBeNull()
  })
})
