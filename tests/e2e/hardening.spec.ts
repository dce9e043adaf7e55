// Issue 12's findings that only the running server shows: which address the hub sees when a client
// writes X-Forwarded-For itself, what a malformed or cross-origin server-action post gets, and
// whether a client that follows redirects by hand can parse the authorization endpoint's Location.
import { expect, test } from '@playwright/test'
import { DEMO, signIn } from './helpers'

test('a client-written X-Forwarded-For is not the address the hub records (no proxy in front)', async ({ page, baseURL }) => {
  const forged = '203.0.113.66'
  const res = await fetch(`${baseURL}/oauth/token`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from('acme-backend:acme-backend-secret').toString('base64'), 'x-forwarded-for': forged, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', subject_token: 'carol@modhub.test', subject_token_type: 'urn:hub:token-type:user-email' }),
  })
  expect(res.status).toBe(200)
  await signIn(page, 'alice', DEMO.alice)
  const log = await page.request.get('/organizations/acme-ai/audit/export?action=token.exchange')
  const entries = (await log.text()).trim().split('\n').map((line) => JSON.parse(line) as { ip: string; member: string })
  const last = entries.filter((e) => e.member === 'carol').at(-1)!
  expect(last.ip).not.toBe(forged)
  expect(['127.0.0.1', '::1']).toContain(last.ip)
})

test.describe('server-action posts the framework would answer with 500', () => {
  const actionPost = (baseURL: string, origin: string) =>
    fetch(`${baseURL}/login`, { method: 'POST', headers: { origin, 'next-action': '7f0000000000000000000000000000000000000000', 'content-type': 'text/plain;charset=UTF-8' }, body: '[]' })

  for (const [origin, status] of [['not a url', 400], ['http://[::1', 400], ['https://evil.example', 403], ['null', 403]] as const) {
    test(`Origin ${JSON.stringify(origin)} gets ${status}`, async ({ baseURL }) => {
      const res = await actionPost(baseURL!, origin)
      expect(res.status).toBe(status)
      expect((await res.json()).error).toMatch(/Origin|Cross-origin/)
    })
  }

  test('a same-origin action still reaches Next (and signing in, a real action, works)', async ({ page, baseURL }) => {
    // An unknown action id from this origin is Next's to answer ("Server Action unavailable"), not the filter's.
    const unknown = await actionPost(baseURL!, new URL(baseURL!).origin)
    expect([unknown.status, unknown.headers.get('x-nextjs-action-not-found')]).toEqual([409, '1'])
    await signIn(page, 'bob', DEMO.bob)
  })
})

test('POST /oauth/authorize answers with an absolute Location on the hub, which new URL() parses', async ({ baseURL }) => {
  const query = new URLSearchParams({ client_id: 'demo-browser-app', redirect_uri: 'http://localhost/', response_type: 'code', scope: 'openid profile', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })
  for (const method of ['POST', 'GET']) {
    const res = await fetch(`${baseURL}/oauth/authorize?${query}`, { method, redirect: 'manual' })
    expect(res.status).toBe(303)
    const location = new URL(res.headers.get('location')!) // throws on a bare path
    expect(location.origin).toBe(new URL(baseURL!).origin)
    expect(location.pathname).toBe('/login')
  }
})

test('a page on another port of the same host cannot use the session cookie to change anything through the API; the hub\'s own pages can', async ({ page, baseURL }) => {
  await signIn(page, 'bob', DEMO.bob)
  // Another origin of the same site (localhost, another port): Chromium sends the SameSite=Lax cookie with its fetches.
  const { createServer } = await import('node:http')
  const other = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other</title>'))
  await new Promise<void>((resolve) => other.listen(0, 'localhost', resolve))
  const otherOrigin = `http://localhost:${(other.address() as { port: number }).port}`
  const hub = new URL(baseURL!)
  const name = `planted-${Date.now()}`
  try {
    await page.goto(otherOrigin)
    const statuses = await page.evaluate(
      async ({ hubOrigin, name }) => {
        const created = await fetch(`${hubOrigin}/api/repos/create`, { method: 'POST', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ name, private: true }) }).then((r) => r.status, () => 'blocked')
        const committed = await fetch(`${hubOrigin}/api/models/bob/${name}/commit/main`, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{"key":"header","value":{"summary":"planted"}}\n' }).then(() => 'sent')
        return { created, committed }
      },
      { hubOrigin: `http://localhost:${hub.port}`, name },
    )
    expect(statuses.committed).toBe('sent')
    // The answer is not readable from there (no CORS), so whether the repo was made is read as bob.
    await page.goto('/')
    const info = await page.request.get(`/api/models/bob/${name}`)
    expect(info.status(), `the other origin's fetch answered ${statuses.created}`).toBe(404)
    const refused = await page.request.post('/api/repos/create', { headers: { origin: otherOrigin, 'content-type': 'text/plain' }, data: JSON.stringify({ name }) })
    expect(refused.status()).toBe(403)
    expect((await refused.json()).error).toMatch(/^Cross-origin request refused/)
    const sameSiteFetch = await page.request.post('/api/repos/create', { headers: { 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' }, data: JSON.stringify({ name }) })
    expect(sameSiteFetch.status()).toBe(403)
    // From the hub's own origin the session still works.
    const own = await page.request.post('/api/repos/create', { headers: { origin: new URL(baseURL!).origin, 'content-type': 'application/json' }, data: { name, private: true } })
    expect(own.status()).toBe(200)
    expect((await page.request.delete('/api/repos/delete', { headers: { origin: new URL(baseURL!).origin }, data: { name, type: 'model' } })).status()).toBe(200)
  } finally {
    other.close()
  }
})

test('the authorization error page shows its words as written (quotes and letters of any script), not the protocol\'s ASCII-only form', async ({ page }) => {
  await signIn(page, 'alice', DEMO.alice)
  const query = new URLSearchParams({ client_id: 'demo-browser-app', redirect_uri: 'https://elsewhere.example/cb', response_type: 'code', scope: 'openid', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })
  await page.goto(`/oauth/authorize?${query}`)
  await expect(page.getByText('The redirect_uri is not registered for the app "Demo Browser App".')).toBeVisible()
})

test('signing out in the browser ends the session: a copy of its cookie taken before no longer signs in', async ({ page, browser, baseURL }) => {
  await signIn(page, 'carol', DEMO.carol)
  const copied = await page.context().cookies()
  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible()
  const elsewhere = await browser.newContext({ baseURL })
  await elsewhere.addCookies(copied)
  const res = await elsewhere.request.get('/api/whoami-v2')
  expect(res.status()).toBe(401)
  const profile = await elsewhere.newPage()
  await profile.goto('/settings/tokens')
  await expect(profile).toHaveURL(/\/login/)
  await elsewhere.close()
})

test('signing in on the way to an app says which app the account is for', async ({ page }) => {
  const query = new URLSearchParams({ client_id: 'demo-browser-app', redirect_uri: 'http://localhost/', response_type: 'code', scope: 'openid profile', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })
  await page.goto(`/oauth/authorize?${query}`)
  await expect(page).toHaveURL(/\/login\?next=/)
  await expect(page.getByTestId('signing-in-for')).toHaveText('to continue to Demo Browser App')
  await page.goto('/login?next=%2Fsettings%2Ftokens')
  await expect(page.getByTestId('signing-in-for')).toHaveCount(0)
  // A client_id that looks like a metadata document's URL but is none: no app named, and no 500.
  for (const clientId of ['https://', 'https://[x']) {
    const res = await page.goto(`/login?next=${encodeURIComponent(`/oauth/authorize?client_id=${encodeURIComponent(clientId)}`)}`)
    expect(res!.status()).toBe(200)
    await expect(page.getByTestId('signing-in-for')).toHaveCount(0)
  }
})
