// The attack run's findings (issue 12, "Security"), each replayed against the real route handlers
// and database: the request that got through before, and what the hub answers now.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createUser } from '@/lib/hub/users'
import { createApp } from '@/lib/oauth/clients/apps'
import { VERIFIER, authorizationCode, basic, createFixture, token, type Fixture } from '../oauth/setup'
import { GET as authGET, POST as authPOST } from '@/app/api/auth/[...nextauth]/route'
import { POST as devicePOST } from '@/app/oauth/device/route'
import { principalFromToken } from '@/lib/auth/tokens'
import { listConsents, revokeConsent } from '@/lib/oauth/consent'
import { decideDeviceRequest, findPendingRequest } from '@/lib/oauth/device-authorization'
import { DEVICE_GRANT_TYPE } from '@/lib/oauth/grants/device-code'
import { NextRequest } from 'next/server'
import { proxy } from '@/proxy'

const HUB = 'http://localhost:3000'

// Limits count in clock-aligned windows (lib/ratelimit, 1 and 15 minutes). Each test runs with the
// clock stopped at the start of a window no other test used, so no boundary falls inside a test.
const WINDOW_MS = 15 * 60_000
let clock = Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  clock += WINDOW_MS
  vi.setSystemTime(clock + 1000)
})
afterEach(() => vi.useRealTimers())

/** Signs in through next-auth's own credentials endpoint (CSRF token and all), as a browser would. */
async function signIn(login: string, password: string, ip: string): Promise<'ok' | 'wrong' | 'rate_limited'> {
  const csrf = await authGET(new Request(`${HUB}/api/auth/csrf`, { headers: { 'x-forwarded-for': ip } }) as never)
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const res = await authPOST(
    new Request(`${HUB}/api/auth/callback/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'x-forwarded-for': ip, origin: HUB },
      body: new URLSearchParams({ login, password, csrfToken, callbackUrl: HUB }),
    }) as never,
  )
  if (res.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))) return 'ok'
  const location = new URL(res.headers.get('location') ?? '', HUB)
  return location.searchParams.get('code') === 'rate_limited' ? 'rate_limited' : 'wrong'
}

describe('1. account lockout', () => {
  beforeAll(async () => {
    await createUser({ username: 'dave', email: 'dave@modhub.test', password: 'dave-demo-pass' })
  })

  it('locks the guessing address out of the account however the login is spelled, and not the owner elsewhere', async () => {
    expect(await signIn('dave', 'dave-demo-pass', '198.51.100.1')).toBe('ok')
    // Ten wrong passwords from one address, in every spelling of the account.
    const spellings = ['dave', ' dave', 'dave ', 'dave@modhub.test', 'dave@modhub.test ', 'DAVE@modhub.test']
    for (let i = 0; i < 10; i++) expect(await signIn(spellings[i % spellings.length]!, 'wrong-password', '198.51.100.10')).toBe('wrong')
    for (const spelling of spellings) {
      expect([spelling, await signIn(spelling, 'dave-demo-pass', '198.51.100.10')]).toEqual([spelling, 'rate_limited'])
    }
    // Dave, from his own address, is not locked out by a stranger's guesses.
    expect(await signIn('dave', 'dave-demo-pass', '198.51.100.99')).toBe('ok')
  })

  it('closes the account everywhere once guesses from many addresses reach SIGN_IN_ATTEMPTS_PER_ACCOUNT_TOTAL', async () => {
    vi.stubEnv('SIGN_IN_ATTEMPTS_PER_ACCOUNT_TOTAL', '12')
    try {
      await createUser({ username: 'erin', email: 'erin@modhub.test', password: 'erin-demo-pass' })
      for (let i = 0; i < 12; i++) expect(await signIn(i % 2 ? 'erin' : 'erin@modhub.test', 'wrong-password', `198.51.104.${i}`)).toBe('wrong')
      expect(await signIn('erin', 'erin-demo-pass', '198.51.104.200')).toBe('rate_limited')
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('counts unknown logins under their normalised spelling', async () => {
    for (let i = 0; i < 10; i++) expect(await signIn(i % 2 ? ' nobody-here' : 'NOBODY-HERE ', 'whatever-pass', '198.51.101.7')).toBe('wrong')
    expect(await signIn('nobody-here', 'whatever-pass', '198.51.101.7')).toBe('rate_limited')
  })
})

describe('2. the per-address sign-in limit and X-Forwarded-For', () => {
  afterEach(() => vi.unstubAllEnvs())
  // The header as scripts/serve.mjs hands it over: what the client wrote, then the TCP peer (the e2e
  // test hardening.spec.ts checks that the server appends it).
  const forgedThenPeer = (i: number, peer: string) => `10.${i % 250}.${i % 7}.1, ${peer}`

  it('is not reset by a new client-written value (no proxy in front, the default)', async () => {
    for (let i = 0; i < 50; i++) expect(await signIn(`stranger-${i}`, 'whatever-pass', forgedThenPeer(i, '198.51.102.1'))).toBe('wrong')
    expect(await signIn('stranger-x', 'whatever-pass', forgedThenPeer(99, '198.51.102.1'))).toBe('rate_limited')
  })

  it('counts the client a trusted proxy names, not the proxy, with TRUST_PROXY_HOPS=1', async () => {
    vi.stubEnv('TRUST_PROXY_HOPS', '1')
    const proxyAddress = '192.0.2.254'
    for (let i = 0; i < 50; i++) expect(await signIn(`walker-${i}`, 'whatever-pass', `6.6.6.6, 198.51.103.1, ${proxyAddress}`)).toBe('wrong')
    expect(await signIn('walker-x', 'whatever-pass', `7.7.7.7, 198.51.103.1, ${proxyAddress}`)).toBe('rate_limited')
    // Another client behind the same proxy has its own budget.
    expect(await signIn('walker-y', 'whatever-pass', `198.51.103.2, ${proxyAddress}`)).toBe('wrong')
  })
})

describe('3. locking a client out of the token endpoint', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await createFixture('atk3')
  })
  afterEach(() => vi.unstubAllEnvs())

  it('counts wrong secrets against the address, not the client they name', async () => {
    vi.stubEnv('OAUTH_TOKEN_LIMIT_PER_CLIENT', '20')
    vi.stubEnv('OAUTH_TOKEN_AUTH_FAILURES_PER_IP', '10')
    const clientId = f.confidential.app.clientId
    const attack = (ip: string) => token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic(clientId, 'guessed-secret'), ip })
    // Far more wrong-secret requests than the client's budget, from one address and then from many.
    const fromOne = []
    for (let i = 0; i < 15; i++) fromOne.push((await attack('203.0.113.66')).res.status)
    expect(fromOne).toEqual([...Array(10).fill(401), ...Array(5).fill(429)])
    for (let i = 0; i < 30; i++) expect((await attack(`203.0.113.${100 + i}`)).res.status).toBe(401)
    // The attacker's first address stays limited, even with the right secret it does not have.
    const limited = await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic(clientId, f.confidential.secret), ip: '203.0.113.66' })
    expect([limited.res.status, limited.body.error, limited.res.headers.get('retry-after')]).toEqual([429, 'temporarily_unavailable', expect.stringMatching(/^\d+$/)])
    // The real client still gets its tokens.
    const code = await authorizationCode(f.user.id, { clientId, redirectUri: 'https://app.example/cb' })
    const real = await token(
      { grant_type: 'authorization_code', code, redirect_uri: 'https://app.example/cb', code_verifier: VERIFIER },
      { authorization: basic(clientId, f.confidential.secret), ip: '192.0.2.10' },
    )
    expect([real.res.status, real.body.access_token]).toEqual([200, expect.stringMatching(/^hf_oauth_/)])
  })

  it('holds the failure budget against a burst of concurrent wrong secrets', async () => {
    vi.stubEnv('OAUTH_TOKEN_AUTH_FAILURES_PER_IP', '4')
    const clientId = f.confidential.app.clientId
    // All sent at once: each passes the check at the top of the endpoint before any has failed.
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic(clientId, `burst-guess-${i}`), ip: '203.0.113.88' })),
    )
    const statuses = burst.map((b) => b.res.status).sort()
    expect(statuses).toEqual([...Array(4).fill(401), ...Array(8).fill(429)])
    // The budget is spent: the next one is refused before its secret is checked.
    expect((await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic(clientId, f.confidential.secret), ip: '203.0.113.88' })).res.status).toBe(429)
    // Another address is not held by this one's burst.
    expect((await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic(clientId, f.confidential.secret), ip: '203.0.113.89' })).res.status).toBe(400)
  })

  it('counts wrong secrets at the device authorization endpoint against the same address budget', async () => {
    vi.stubEnv('OAUTH_TOKEN_AUTH_FAILURES_PER_IP', '5')
    const clientId = f.confidential.app.clientId
    const start = (secret: string) =>
      devicePOST(
        new Request('http://hub.test/oauth/device', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(clientId, secret), 'x-forwarded-for': '203.0.113.77' },
          body: new URLSearchParams({ client_id: clientId }).toString(),
        }),
      )
    const statuses = []
    for (let i = 0; i < 7; i++) statuses.push((await start(`guess-${i}`)).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429])
    // The token endpoint shares the budget: the same address is refused there too.
    expect((await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic(clientId, 'guess'), ip: '203.0.113.77' })).res.status).toBe(429)
    // A public client's request carries no secret to guess: it goes on from that address (a shared NAT),
    // and a device poll is answered as RFC 8628 says, not with a 429 that ends huggingface_hub's login.
    const poll = await token({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'not-a-code', client_id: f.pub.clientId }, { ip: '203.0.113.77' })
    expect([poll.res.status, poll.body.error]).toEqual([400, 'invalid_grant'])
  })

  it('still limits a client by the requests that authenticated as it', async () => {
    vi.stubEnv('OAUTH_TOKEN_LIMIT_PER_CLIENT', '3')
    const { app, secret } = await createApp({ kind: 'user', userId: f.other.id }, { name: 'Budget', redirectUris: ['https://app.example/cb'], scopes: [] }, true)
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic(app.clientId, secret!) })).res.status)
    expect(statuses).toEqual([400, 400, 400, 429])
  })
})

describe('4. device-flow approvals', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await createFixture('atk4')
  })

  /** A device login approved by the user: what the app holds afterwards. */
  async function approvedDevice() {
    const start = await devicePOST(
      new Request('http://hub.test/oauth/device', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: f.pub.clientId, scope: 'openid profile read-repos' }) }),
    )
    const { device_code, user_code } = (await start.json()) as Record<string, string>
    const pending = await findPendingRequest(user_code, f.user.id, '192.0.2.40')
    expect(await decideDeviceRequest(pending, f.user.id, true, [f.org.id])).toBe(true)
    const { res, body } = await token({ grant_type: DEVICE_GRANT_TYPE, device_code, client_id: f.pub.clientId })
    expect(res.status).toBe(200)
    return body as { access_token: string; refresh_token: string }
  }

  it('are listed as authorized apps, and revoking one ends every token the device grants produced', async () => {
    const first = await approvedDevice()
    const second = await approvedDevice()
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token, client_id: f.pub.clientId })
    expect(rotated.res.status).toBe(200)

    const listed = await listConsents(f.user.id)
    expect(listed.map((c) => [c.clientId, c.scopes, c.orgs.map((o) => o.name)])).toEqual([[f.pub.clientId, ['openid', 'profile', 'read-repos'], ['atk4org']]])

    expect(await revokeConsent(f.user.id, f.pub.clientId)).toBe(true)
    for (const accessToken of [first.access_token, second.access_token, rotated.body.access_token!]) expect(await principalFromToken(accessToken)).toBeNull()
    for (const refreshToken of [first.refresh_token, rotated.body.refresh_token!]) {
      expect((await token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: f.pub.clientId })).body.error).toBe('invalid_grant')
    }
    expect(await listConsents(f.user.id)).toEqual([])
  })
})

describe('5. malformed and cross-origin server-action posts', () => {
  /** A server-action POST as the hub's request filter receives it. */
  const actionPost = (headers: Record<string, string>) =>
    proxy(new NextRequest('http://localhost:3000/settings/tokens', { method: 'POST', headers: { host: 'localhost:3000', 'next-action': '7f00', 'content-type': 'text/plain;charset=UTF-8', ...headers }, body: '[]' }))

  it.each([
    ['an Origin that is not a URL', { origin: 'not a url' }, 400],
    ['an Origin with a broken host', { origin: 'http://[::1' }, 400],
    ['an Origin of only a scheme', { origin: 'https://' }, 400],
    ['another site', { origin: 'https://evil.example' }, 403],
    ['another port of this host', { origin: 'http://localhost:3001' }, 403],
    ['an opaque origin (sandboxed frame, file:)', { origin: 'null' }, 403],
    ['a forwarded host the Origin does not match', { origin: 'http://localhost:3000', 'x-forwarded-host': 'hub.example' }, 403],
    ['a multipart form post (no JavaScript) from another site', { origin: 'https://evil.example', 'next-action': '', 'content-type': 'multipart/form-data; boundary=x' }, 403],
  ])('answers %s with %i, before Next sees it', async (_, headers, status) => {
    const res = actionPost(headers)
    expect(res.status).toBe(status)
    expect(((await res.json()) as { error: string }).error).toMatch(/Origin|Cross-origin/)
  })

  it('lets same-origin actions and requests without an Origin through', () => {
    const allowed: Record<string, string>[] = [{ origin: 'http://localhost:3000' }, { origin: 'http://hub.example', 'x-forwarded-host': 'hub.example' }, {}]
    for (const headers of allowed) {
      expect(actionPost(headers).headers.get('x-middleware-next')).toBe('1')
    }
  })
})
