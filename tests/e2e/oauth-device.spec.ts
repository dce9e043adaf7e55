// Device login end to end: openid-client's device functions poll while a person approves in
// Chromium, and a poller that behaves like the hf CLI (first poll at once, +5 s on slow_down,
// JSON parsing of 4xx answers) is answered as it expects.
import { expect, test } from '@playwright/test'
import * as oidc from 'openid-client'
import { DEMO, signIn } from './helpers'

const PUBLIC_APP = 'demo-browser-app' // seeded public app (scripts/seed.ts)

test('openid-client device flow, approved in the browser with an organization picked', async ({ page, baseURL }) => {
  test.setTimeout(90_000)
  const config = await oidc.discovery(new URL(baseURL!), PUBLIC_APP, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] })
  const device = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile read-repos' })
  expect(device.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/)
  const polling = oidc.pollDeviceAuthorizationGrant(config, device)

  await signIn(page, 'alice', DEMO.alice)
  await page.goto(device.verification_uri) // /oauth/device -> the page, where the person types the code
  await page.getByLabel('Code').fill(device.user_code.toLowerCase().replace('-', ' '))
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByTestId('app-name')).toHaveText('Demo Browser App')
  await expect(page.getByTestId('user-code')).toHaveText(device.user_code)
  await expect(page.getByTestId('scopes')).toContainText('read-repos')
  await expect(page.getByText(/signed in as alice/)).toBeVisible()
  await page.getByRole('checkbox', { name: /Acme AI/ }).check()
  await page.screenshot({ path: '.tmp/screens/device-verify.png', fullPage: true })
  await page.getByRole('button', { name: 'Approve' }).click()
  await expect(page.getByRole('heading', { name: 'Device connected' })).toBeVisible()
  // The page after an answer says what this user answered: a made-up link claims nothing.
  const answeredUrl = page.url()
  await page.goto('/oauth/device/verify?answered=not-a-request')
  await expect(page.getByRole('heading', { name: 'Connect a device' })).toBeVisible()
  await page.goto(answeredUrl)
  await expect(page.getByRole('heading', { name: 'Device connected' })).toBeVisible()

  const tokens = await polling
  expect(tokens.access_token).toMatch(/^hf_oauth_/)
  expect(tokens.refresh_token).toBeTruthy()
  const me = await (await fetch(`${baseURL}/api/whoami-v2`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).json()
  expect(me.name).toBe('alice')
  expect(me.orgs.map((o: { name: string }) => o.name)).toEqual(['acme-ai'])

  // The approval is an authorized app like any other: listed in settings, and revoking it ends the device's tokens.
  await page.goto('/settings/authorized-apps')
  const row = page.getByTestId('authorized-app').filter({ hasText: 'Demo Browser App' })
  await expect(row).toContainText('organizations: acme-ai')
  await row.getByRole('button', { name: /^Revoke / }).click()
  await row.getByRole('button', { name: 'Yes, revoke' }).click()
  await expect(row).toHaveCount(0)
  expect((await fetch(`${baseURL}/api/whoami-v2`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401)
  await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
})

test('an hf-CLI-style poller: immediate first poll, +5 s on slow_down, denied in the browser', async ({ page, baseURL }) => {
  test.setTimeout(90_000)
  const post = (path: string, body: Record<string, string>) =>
    fetch(`${baseURL}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) })
  const start = await (await post('/oauth/device', { client_id: PUBLIC_APP })).json()
  let interval: number = start.interval
  const seen: string[] = []
  const pollOnce = async () => {
    const res = await post('/oauth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: start.device_code, client_id: PUBLIC_APP })
    const body = await res.json() // 4xx answers are JSON too
    seen.push(body.error ?? 'tokens')
    return { res, body }
  }
  // First poll at once (never throttled), then a second right away, as a too-eager client would.
  expect((await pollOnce()).body.error).toBe('authorization_pending')
  expect((await pollOnce()).body.error).toBe('slow_down')
  interval += 5

  await signIn(page, 'bob', DEMO.bob)
  await page.goto(start.verification_uri_complete) // arrives with the code filled in
  await expect(page.getByTestId('user-code')).toHaveText(start.user_code)
  await page.getByRole('button', { name: 'Deny' }).click()
  await expect(page.getByRole('heading', { name: 'Request denied' })).toBeVisible()

  await new Promise((r) => setTimeout(r, interval * 1000))
  const final = await pollOnce()
  expect([final.res.status, final.body.error]).toEqual([400, 'access_denied'])
  expect(seen).toEqual(['authorization_pending', 'slow_down', 'access_denied'])
})

test('the verification page explains a wrong code and needs sign-in first', async ({ page }) => {
  await page.goto('/oauth/device?user_code=BCDF-GHJK')
  await expect(page).toHaveURL(/\/login\?next=/)
  await page.getByLabel('Username or e-mail').fill('carol')
  await page.getByLabel('Password').fill(DEMO.carol)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/oauth\/device\/verify\?user_code=BCDF-GHJK/)
  await expect(page.locator('form [role=alert]')).toHaveText(/unknown, was already used, or has expired/)
  await page.getByLabel('Code').fill('nope')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.locator('form [role=alert]')).toHaveText('That is not a code from this hub. Codes have 8 letters, like BCDF-GHJK, with no vowels or digits.')
  // Eight letters, one of them a vowel: the same message, which does not contradict what was typed.
  await page.getByLabel('Code').fill('BCDF-GHJA')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.locator('form [role=alert]')).toHaveText(/^That is not a code from this hub\. Codes have 8 letters/)
})

test('a link from another site only fills the code in: it spends none of the user\'s wrong-code budget', async ({ page }) => {
  await signIn(page, 'dave', DEMO.dave)
  // More than the user's budget of wrong codes (DEVICE_CODE_GUESSES_PER_USER, 20), as another site's links.
  for (let i = 0; i < 25; i++) {
    const html = await (await page.request.get('/oauth/device/verify?user_code=BCDF-GHJK', { headers: { 'sec-fetch-site': 'cross-site' } })).text()
    expect(html).toContain('value="BCDF-GHJK"')
    expect(html).not.toContain('unknown, was already used')
  }
  // The user presses Continue: looked up, and the budget is whole.
  await page.goto('/oauth/device/verify')
  await page.getByLabel('Code').fill('BCDF-GHJK')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.locator('form [role=alert]')).toHaveText(/unknown, was already used, or has expired/)
})
