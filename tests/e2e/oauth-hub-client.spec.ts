// @huggingface/hub's OAuth helpers, unmodified, in the browser: a static page on another loopback
// origin signs alice in through our consent page and shows the userinfo it got.
import { expect, test } from '@playwright/test'
import { whoAmI } from '@huggingface/hub'
import { startThirdPartySite, type ThirdPartySite } from '../fixtures/oauth-spa/server'
import { DEMO, signIn, watchErrors } from './helpers'

let site: ThirdPartySite
test.beforeAll(async () => {
  site = await startThirdPartySite()
})
test.afterAll(async () => {
  await site.close()
})

test('oauthLoginUrl + oauthHandleRedirectIfPresent sign alice in; whoAmI takes the token; revoking ends it', async ({ page, baseURL }) => {
  const hubUrl = baseURL!
  const errors = watchErrors(page)
  site.setConfig({ hubUrl, clientId: 'demo-browser-app', scopes: 'openid profile email read-repos' })

  await page.goto(`${site.origin}/`)
  await page.getByRole('button', { name: 'Sign in with ModHub' }).click()
  // Not signed in at the hub yet: its sign-in page, then back to the authorization request.
  await page.waitForURL(/\/login\?next=%2Foauth%2Fauthorize%2Fconsent/)
  await page.getByLabel('Username or e-mail').fill('alice')
  await page.getByLabel('Password').fill(DEMO.alice)
  await page.getByRole('button', { name: 'Sign in' }).click()

  await page.waitForURL(/\/oauth\/authorize\/consent\?/)
  await expect(page.getByTestId('app-name')).toHaveText('Demo Browser App')
  await expect(page.getByTestId('redirect-host')).toHaveText(new URL(site.origin).host)
  await expect(page.getByTestId('scopes')).toContainText('See your e-mail address')
  await expect(page.getByTestId('scopes')).toContainText('Read your repositories, including private ones')
  await page.getByRole('checkbox', { name: /Acme AI/ }).check()
  await page.screenshot({ path: '.tmp/screens/oauth-consent.png', fullPage: true })
  await page.getByRole('button', { name: 'Authorize' }).click()

  await page.waitForURL(`${site.origin}/?**`)
  await expect(page.locator('#status')).toHaveText('Signed in as alice')
  const result = JSON.parse((await page.locator('#userinfo').textContent())!)
  expect(result.state).toBe('spa-state')
  expect(result.scope).toBe('openid profile email read-repos')
  expect(result.accessToken).toMatch(/^hf_oauth_/)
  expect(result.userInfo).toMatchObject({
    preferred_username: 'alice',
    name: 'Alice Martin',
    email: 'alice@modhub.test',
    email_verified: true,
    isPro: true,
    profile: `${hubUrl}/alice`,
    orgs: [expect.objectContaining({ preferred_username: 'acme-ai', roleInOrg: 'admin', plan: 'enterprise' })],
  })
  expect(result.userInfo).not.toHaveProperty('canPay')

  const me = await whoAmI({ accessToken: result.accessToken, hubUrl })
  expect(me).toMatchObject({ type: 'user', name: 'alice', auth: { type: 'oauth' } })

  // Consent is remembered: signing in again goes straight back to the app.
  await page.goto(`${site.origin}/`)
  await page.getByRole('button', { name: 'Sign in with ModHub' }).click()
  await page.waitForURL(`${site.origin}/?**`)
  await expect(page.locator('#status')).toHaveText('Signed in as alice')
  expect(errors).toEqual([])

  // Revoking the app in settings ends its tokens.
  await page.goto('/settings/authorized-apps')
  const row = page.getByTestId('authorized-app').filter({ hasText: 'Demo Browser App' })
  await expect(row).toContainText('organizations: acme-ai')
  await page.screenshot({ path: '.tmp/screens/oauth-authorized-apps.png', fullPage: true })
  await row.getByRole('button', { name: /^Revoke / }).click()
  await row.getByRole('button', { name: 'Yes, revoke' }).click()
  await expect(row).toHaveCount(0)
  await expect(page.getByText('You have not authorized any app.')).toBeVisible()
  await expect(whoAmI({ accessToken: result.accessToken, hubUrl })).rejects.toMatchObject({ statusCode: 401 })
})

test('an untrusted redirect_uri is explained on the hub, never followed', async ({ page }) => {
  await page.goto('/oauth/authorize?client_id=demo-browser-app&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&scope=openid')
  await expect(page.getByRole('heading', { name: 'This sign-in request cannot be completed' })).toBeVisible()
  await expect(page.getByText('The redirect_uri is not registered')).toBeVisible()
  await page.screenshot({ path: '.tmp/screens/oauth-error.png', fullPage: true })
})

test('denying sends access_denied back to the app with its state and our issuer', async ({ page, baseURL }) => {
  await signIn(page, 'bob', DEMO.bob)
  const redirectUri = `${site.origin}/callback` // registered as http://127.0.0.1/callback: any loopback port
  await page.goto(`/oauth/authorize?${new URLSearchParams({ client_id: 'demo-notes-app', redirect_uri: redirectUri, scope: 'openid email', state: 'keep me' })}`)
  await expect(page.getByTestId('app-name')).toHaveText('Demo Notes')
  await page.getByRole('button', { name: 'Deny' }).click()
  await page.waitForURL(`${redirectUri}?**`)
  const back = new URL(page.url())
  expect(back.searchParams.get('error')).toBe('access_denied')
  expect(back.searchParams.get('state')).toBe('keep me')
  expect(back.searchParams.get('iss')).toBe(baseURL)
  expect(back.searchParams.get('code')).toBeNull()
})
