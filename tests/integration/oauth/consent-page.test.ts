// The authorization endpoint and the consent page it sends the browser to: the page reaches the
// verdict the endpoint reached (an error the endpoint shows never turns into a consent form or a
// code on the way), and id_token_hint names who must be signed in. The browser session is stubbed;
// the page and its actions are the real ones.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose'
import type { Caller } from '@/lib/policy'

const session = vi.hoisted(() => ({ caller: null as Caller, authTime: null as number | null }))
vi.mock('@/lib/auth/caller', () => ({
  sessionCaller: async () => session.caller,
  sessionSignIn: async () => (session.caller ? { caller: session.caller, authTime: session.authTime } : null),
}))

import { GET, POST } from '@/app/oauth/authorize/route'
import ConsentPage from '@/app/oauth/authorize/consent/page'
import { approveAction } from '@/app/oauth/authorize/consent/actions'
import { hubUrl } from '@/lib/config'
import { signJwt } from '@/lib/oauth/keys'
import { signIdToken } from '@/lib/oauth/tokens'
import { readAuthorizationRequest } from '@/lib/oauth/authorize'
import { saveConsent } from '@/lib/oauth/consent'
import { forgetMetadataDocument } from '@/lib/oauth/clients/metadata-document'
import { CHALLENGE, createFixture, type Fixture } from './setup'

let f: Fixture
let server: http.Server
let cimdClientId: string

beforeAll(async () => {
  vi.stubEnv('OAUTH_ALLOW_LOOPBACK_FETCH', '1')
  f = await createFixture('cpage')
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ client_id: `http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`, client_name: 'Page CIMD', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' }))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  cimdClientId = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/oauth-cimd`
  forgetMetadataDocument(cimdClientId)
  // A remembered consent: a request the endpoint lets through answers with a code at once.
  await saveConsent(f.user.id, f.confidential.app.clientId, ['openid', 'profile'], [])
})
afterAll(() => {
  vi.unstubAllEnvs()
  server.closeAllConnections()
  server.close()
})
beforeEach(() => {
  session.caller = { userId: f.user.id, principal: null }
  session.authTime = Math.floor(Date.now() / 1000)
})

const registered = () => `client_id=${encodeURIComponent(f.confidential.app.clientId)}&redirect_uri=${encodeURIComponent('https://app.example/cb')}&scope=openid&state=x`
const cimd = () =>
  `client_id=${encodeURIComponent(cimdClientId)}&redirect_uri=${encodeURIComponent('http://127.0.0.1:4000/callback')}&scope=openid&state=x&code_challenge=${CHALLENGE}&code_challenge_method=S256`

/** The searchParams Next gives a page: a repeated name as a list. */
function searchOf(url: URL): Record<string, string | string[]> {
  const search: Record<string, string | string[]> = {}
  for (const [name, value] of url.searchParams) {
    const had = search[name]
    search[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value]
  }
  return search
}

type PageAnswer = { redirect: string } | { html: string }

/** The consent page at a URL: where it redirects (next/navigation's redirect throws), or what it shows. */
async function consentPage(location: string): Promise<PageAnswer> {
  const url = new URL(location, 'http://hub.test')
  expect(url.pathname).toBe('/oauth/authorize/consent')
  try {
    return { html: renderToStaticMarkup(await ConsentPage({ searchParams: Promise.resolve(searchOf(url)) })) }
  } catch (error) {
    const digest = (error as { digest?: string }).digest
    if (typeof digest === 'string' && digest.startsWith('NEXT_REDIRECT;')) return { redirect: digest.split(';')[2]! }
    throw error
  }
}

/** Through the endpoint to the consent page; the endpoint must send the browser there. */
async function endpointThenPage(query: string, init?: RequestInit): Promise<PageAnswer> {
  const res = await (init?.method === 'POST' ? POST : GET)(new Request(`http://hub.test/oauth/authorize?${query}`, init))
  expect(res.status).toBe(303)
  return consentPage(res.headers.get('location')!)
}

function expectShown(answer: PageAnswer, code: string, text?: string) {
  expect(answer, JSON.stringify(answer)).toHaveProperty('html')
  const { html } = answer as { html: string }
  expect(html).toContain('This sign-in request cannot be completed')
  expect(html).toContain(`<code>${code}</code>`)
  if (text) expect(html).toContain(text)
}

describe('errors the endpoint shows on its own page', () => {
  it('reach the consent page for a metadata-document client: request, request_uri and response_mode', async () => {
    expect(await endpointThenPage(cimd())).toHaveProperty('html', expect.stringContaining('Page CIMD')) // the plain request is fine
    for (const [extra, code] of [
      ['request=eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im9wZW5pZCJ9.', 'request_not_supported'],
      ['request_uri=https%3A%2F%2Fx.example%2Fr', 'request_uri_not_supported'],
      ['response_mode=form_post', 'invalid_request'],
      ['response_mode=fragment', 'invalid_request'],
    ] as const) {
      expectShown(await endpointThenPage(`${cimd()}&${extra}`), code)
    }
  })

  it('reach the consent page for a registered app with a remembered consent: repeated or oversized parameters give no code', async () => {
    const plain = await GET(new Request(`http://hub.test/oauth/authorize?${registered()}`))
    expect(plain.headers.get('location')).toMatch(/^https:\/\/app\.example\/cb\?code=/)
    for (const [extra, text] of [
      ['foo=1&foo=2', 'Parameter foo is repeated'],
      ['request=a&request=b', 'Parameter request is repeated'],
      ['response_mode=query&response_mode=query', 'Parameter response_mode is repeated'],
      [`utm_source=${'x'.repeat(4097)}`, 'Parameter utm_source is too long'],
    ] as const) {
      const answer = await endpointThenPage(`${registered()}&${extra}`)
      expectShown(answer, 'invalid_request', text)
      // The endpoint's own verdict, word for word.
      const verdict = await readAuthorizationRequest(new URLSearchParams(`${registered()}&${extra}`))
      expect(verdict.kind === 'show-error' && (answer as { html: string }).html.includes(verdict.error.text)).toBe(true)
    }
  })

  it('keeps a form post too large to read from becoming the request its URL alone would be', async () => {
    const body = new URLSearchParams({ padding: 'x'.repeat(17 * 1024) }).toString()
    expectShown(await endpointThenPage(registered(), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }), 'invalid_request')
  })

  it('shows only the hub\'s own verdicts: one written into the URL by anyone else is not shown', async () => {
    const forged = await consentPage(`/oauth/authorize/consent?error=access_denied&error_description=${encodeURIComponent('Your account is locked: call +1 555 0100')}&error_mark=forged`)
    expect(JSON.stringify(forged)).not.toContain('call +1 555 0100')
  })
})

describe('id_token_hint (OIDC Core 3.1.2.1)', () => {
  const hinted = (hint: string, extra = '') => `${registered()}&id_token_hint=${encodeURIComponent(hint)}${extra}`
  const endpoint = async (query: string) => {
    const res = await GET(new Request(`http://hub.test/oauth/authorize?${query}`))
    expect(res.status).toBe(303)
    return new URL(res.headers.get('location')!)
  }
  const idTokenOf = (userId: string) => signIdToken({ userId, clientId: f.confidential.app.clientId, scopes: ['openid'], orgIds: [] })

  it('answers for the user it names: an ID token of the signed-in user, expired ones too', async () => {
    const own = await endpoint(hinted(await idTokenOf(f.user.id), '&prompt=none'))
    expect(own.searchParams.get('code')).toBeTruthy()
    const now = Math.floor(Date.now() / 1000)
    const expired = await signJwt({ iss: hubUrl(), sub: f.user.id, aud: f.confidential.app.clientId, iat: now - 7200, exp: now - 3600 })
    expect((await endpoint(hinted(expired, '&prompt=none'))).searchParams.get('code')).toBeTruthy()
  })

  it('never answers for another user than the one it names: login_required with prompt=none, else a sign-in', async () => {
    const others = await idTokenOf(f.other.id)
    const none = await endpoint(hinted(others, '&prompt=none'))
    expect(none.origin + none.pathname).toBe('https://app.example/cb')
    expect(none.searchParams.get('error')).toBe('login_required')
    expect(none.searchParams.has('code')).toBe(false)
    const interactive = await endpoint(hinted(others))
    expect(interactive.pathname).toBe('/login')
    expect(interactive.searchParams.get('reauth')).toBe('1')
    // Signed in as that user on the way: the consent page answers (remembered consent) for them only.
    const next = interactive.searchParams.get('next')!
    expect(await consentPage(next)).toMatchObject({ redirect: expect.stringMatching(/^\/login\?reauth=1/) }) // still the wrong user
    await saveConsent(f.other.id, f.confidential.app.clientId, ['openid', 'profile'], [])
    session.caller = { userId: f.other.id, principal: null }
    expect(await consentPage(next)).toMatchObject({ redirect: expect.stringMatching(/^https:\/\/app\.example\/cb\?code=/) })
  })

  it('a signed-out browser signs in, and the consent page and its approve action hold to the hinted user', async () => {
    session.caller = null
    const login = await endpoint(hinted(await idTokenOf(f.other.id)))
    expect(login.pathname).toBe('/login')
    const next = login.searchParams.get('next')!
    session.caller = { userId: f.user.id, principal: null } // signed in as someone else
    expect(await consentPage(next)).toMatchObject({ redirect: expect.stringMatching(/^\/login\?reauth=1/) })
    // The approve action checks the request again: no code for the wrong user.
    const form = new FormData()
    form.set('request', new URL(next, 'http://hub.test').searchParams.toString())
    const approved = await approveAction({}, form).then(
      (state) => ({ state }),
      (error: { digest?: string }) => ({ redirect: error.digest }),
    )
    expect(JSON.stringify(approved)).not.toContain('code=')
    expect(approved).toMatchObject({ state: { error: expect.any(String) } })
  })

  it('must be an ID token this hub issued: anything else is invalid_request', async () => {
    const now = Math.floor(Date.now() / 1000)
    const { privateKey } = await generateKeyPair('RS256')
    const foreignKey = await new SignJWT({ sub: f.user.id }).setProtectedHeader({ alg: 'RS256', kid: decodeProtectedHeader(await idTokenOf(f.user.id)).kid }).setIssuer(hubUrl()).setIssuedAt().setExpirationTime('5m').sign(privateKey)
    const foreignIssuer = await signJwt({ iss: 'https://elsewhere.example', sub: f.user.id, aud: f.confidential.app.clientId, iat: now, exp: now + 60 })
    const own = (await idTokenOf(f.user.id)).split('.')
    const tampered = [own[0], Buffer.from(JSON.stringify({ ...decodeJwt(own.join('.')), sub: f.other.id })).toString('base64url'), own[2]].join('.')
    for (const hint of ['garbage', 'a.b.c', foreignKey, foreignIssuer, tampered, 'eyJhbGciOiJub25lIn0.' + Buffer.from(JSON.stringify({ iss: hubUrl(), sub: f.user.id })).toString('base64url') + '.']) {
      const back = await endpoint(hinted(hint, '&prompt=none'))
      expect([back.origin + back.pathname, back.searchParams.get('error')], hint.slice(0, 40)).toEqual(['https://app.example/cb', 'invalid_request'])
    }
    // A metadata-document client's error is shown on the hub's page.
    expectShown(await endpointThenPage(`${cimd()}&id_token_hint=garbage`), 'invalid_request', 'id_token_hint')
  })
})
