// openid-client (v6) as a confidential client of an app alice registers in settings: discovery,
// PKCE, code exchange, id_token validation (nonce, iss, aud, JWKS signature), userinfo, refresh rotation.
import { expect, test, type Page } from '@playwright/test'
import * as oidc from 'openid-client'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { startThirdPartySite, type ThirdPartySite } from '../fixtures/oauth-spa/server'
import { DEMO, signIn, signOut } from './helpers'

let site: ThirdPartySite
test.beforeAll(async () => {
  site = await startThirdPartySite()
})
test.afterAll(async () => {
  await site.close()
})

test('openid-client signs alice in with a confidential app and rotates refresh tokens', async ({ page, baseURL }) => {
  const hubUrl = baseURL!
  await signIn(page, 'alice', DEMO.alice)

  // Register the app: the secret is shown once.
  await page.goto('/settings/applications')
  await page.getByLabel('Name', { exact: true }).fill('E2E OIDC client')
  await page.getByLabel('Homepage').fill('https://oidc-client.example')
  await page.getByLabel('Redirect URIs').fill('http://127.0.0.1/cb')
  await page.locator('input[name=scopes][value=email]').check()
  await page.getByRole('button', { name: 'Create app' }).click()
  const status = page.getByRole('status')
  await expect(status).toContainText('Client ID:')
  const clientId = /Client ID: ([0-9a-f-]{36})/.exec((await status.textContent())!)![1]!
  const secret = (await page.getByTestId('secret').textContent())!.trim()
  await expect(page.getByTestId('app-row').filter({ hasText: 'E2E OIDC client' })).toContainText('confidential')
  await page.screenshot({ path: '.tmp/screens/oauth-apps.png', fullPage: true })

  const config = await oidc.discovery(new URL(hubUrl), clientId, undefined, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] })
  expect(config.serverMetadata().issuer).toBe(hubUrl)
  const verifier = oidc.randomPKCECodeVerifier()
  const nonce = oidc.randomNonce()
  const state = oidc.randomState()
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${site.origin}/cb`,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
  })
  await page.goto(url.href)
  await expect(page.getByTestId('app-name')).toHaveText('E2E OIDC client')
  await page.getByRole('button', { name: 'Authorize' }).click()
  await page.waitForURL(`${site.origin}/cb?**`)

  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state, idTokenExpected: true })
  expect(tokens.access_token).toMatch(/^hf_oauth_/)
  const claims = tokens.claims()!
  expect(claims).toMatchObject({ iss: hubUrl, aud: clientId, nonce, preferred_username: 'alice', email: 'alice@modhub.test' })
  // openid-client trusts an id_token from the token endpoint without checking its signature; check it against the JWKS.
  const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)), { issuer: hubUrl, audience: clientId })
  expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: expect.any(String) })
  expect(payload.nonce).toBe(nonce)

  const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)
  expect(info).toMatchObject({ sub: claims.sub, preferred_username: 'alice', email: 'alice@modhub.test', name: 'Alice Martin' })

  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!)
  expect(refreshed.refresh_token).toEqual(expect.any(String))
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
  expect((await oidc.fetchUserInfo(config, refreshed.access_token, claims.sub)).sub).toBe(claims.sub)
  // Reusing the rotated refresh token revokes the whole family.
  await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  await expect(oidc.fetchUserInfo(config, refreshed.access_token, claims.sub)).rejects.toThrow()

  // Manage the app: rotate the secret (the old one stops working), then make it public.
  await page.goto('/settings/applications')
  await page.getByTestId('app-row').filter({ hasText: 'E2E OIDC client' }).getByRole('link', { name: 'Manage' }).click()
  await expect(page.getByRole('heading', { name: 'E2E OIDC client' })).toBeVisible()
  await page.getByRole('button', { name: 'Rotate secret' }).click()
  await expect(page.getByTestId('secret')).toHaveText(/^[A-Za-z0-9]{48}$/)
  await page.screenshot({ path: '.tmp/screens/oauth-app-detail.png', fullPage: true })
  // 401 invalid_client with a Basic challenge, which openid-client reports as a WWW-Authenticate challenge.
  await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ status: 401, cause: [expect.objectContaining({ scheme: 'basic' })] })
  await page.getByRole('button', { name: 'Delete secret' }).click()
  await expect(page.getByText('This app has no secret: it is public')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Create secret' })).toBeVisible()
})

/** Registers a confidential app (redirect URI on the third-party site) as the signed-in user; openid-client's configuration for it. */
async function registerApp(page: Page, hubUrl: string, name: string) {
  await page.goto('/settings/applications')
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Redirect URIs').fill(`${site.origin}/cb`)
  await page.getByRole('button', { name: 'Create app' }).click()
  const status = page.getByRole('status')
  await expect(status).toContainText('Client ID:')
  const clientId = /Client ID: ([0-9a-f-]{36})/.exec((await status.textContent())!)![1]!
  const secret = (await page.getByTestId('secret').textContent())!.trim()
  return oidc.discovery(new URL(hubUrl), clientId, undefined, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] })
}

test('prompt=login asks a signed-in user to sign in again; max_age is met and auth_time checked by openid-client', async ({ page, baseURL }) => {
  const hubUrl = baseURL!
  await signIn(page, 'alice', DEMO.alice)
  const config = await registerApp(page, hubUrl, 'E2E step-up client')
  expect(config.serverMetadata().prompt_values_supported).toEqual(expect.arrayContaining(['login', 'consent']))
  const verifier = oidc.randomPKCECodeVerifier()
  const state = oidc.randomState()
  const nonce = oidc.randomNonce()
  const asked = Math.floor(Date.now() / 1000)
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${site.origin}/cb`,
    scope: 'openid profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    prompt: 'login',
    max_age: '600',
  })
  await page.goto(url.href)
  // Already signed in, and asked to sign in again: the form, with the account filled in.
  await expect(page.getByRole('heading', { name: 'Sign in again to continue' })).toBeVisible()
  await expect(page.getByLabel('Username or e-mail')).toHaveValue('alice')
  await page.getByLabel('Password').fill(DEMO.alice)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByTestId('app-name')).toHaveText('E2E step-up client')
  await page.getByRole('button', { name: 'Authorize' }).click()
  await page.waitForURL(`${site.origin}/cb?**`)
  // maxAge makes openid-client require auth_time and check it against max_age.
  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, maxAge: 600, idTokenExpected: true })
  expect(tokens.claims()!.auth_time).toBeGreaterThanOrEqual(asked)
})

test('id_token_hint: the sign-in page asks for the account the app named, also of someone signed in as another', async ({ page, baseURL }) => {
  const hubUrl = baseURL!
  await signIn(page, 'alice', DEMO.alice)
  const config = await registerApp(page, hubUrl, 'E2E hinting client')
  const request = async (extra: Record<string, string> = {}) => {
    const verifier = oidc.randomPKCECodeVerifier()
    const state = oidc.randomState()
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: `${site.origin}/cb`, scope: 'openid profile', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, ...extra })
    return { url, verifier, state }
  }
  const first = await request()
  await page.goto(first.url.href)
  await page.getByRole('button', { name: 'Authorize' }).click()
  await page.waitForURL(`${site.origin}/cb?**`)
  const firstTokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: first.verifier, expectedState: first.state, idTokenExpected: true })
  const idToken = firstTokens.id_token!

  // Signed out: the page names the app and the account, filled in; the password field has the focus.
  await page.goto('/')
  await signOut(page)
  const hinted = await request({ id_token_hint: idToken })
  await page.goto(hinted.url.href)
  await expect(page.getByTestId('signing-in-for')).toHaveText('to continue to E2E hinting client as alice')
  await expect(page.getByLabel('Username or e-mail')).toHaveValue('alice')
  await expect(page.getByLabel('Password')).toBeFocused()

  // Signed in as bob instead: asked again, for alice, saying who is signed in.
  await page.getByLabel('Username or e-mail').fill('bob')
  await page.getByLabel('Password').fill(DEMO.bob)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in again to continue' })).toBeVisible()
  await expect(page.getByTestId('signing-in-for')).toHaveText('E2E hinting client asks you to sign in as alice; you are signed in as bob.')
  await expect(page.getByLabel('Username or e-mail')).toHaveValue('alice')
  await page.screenshot({ path: test.info().outputPath('id-token-hint.png'), fullPage: true })
  await page.getByLabel('Password').fill(DEMO.alice)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(`${site.origin}/cb?**`)
  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: hinted.verifier, expectedState: hinted.state, idTokenExpected: true })
  // Answered for alice, the account the hint named.
  expect(tokens.claims()!.sub).toBe(firstTokens.claims()!.sub)
})
