// next-auth as a relying party: @auth/core's Auth() (the engine of next-auth) with a generic OIDC
// provider pointing at ModHub, driven from the test; the browser walks through our consent page.
import { expect, test } from '@playwright/test'
import { Auth, type AuthConfig } from '@auth/core'
import { startThirdPartySite, type ThirdPartySite } from '../fixtures/oauth-spa/server'
import { DEMO, signIn } from './helpers'

let site: ThirdPartySite
test.beforeAll(async () => {
  site = await startThirdPartySite()
})
test.afterAll(async () => {
  await site.close()
})

/** A cookie jar for the relying party's own cookies (state, PKCE verifier, nonce, session). */
class Jar {
  private cookies = new Map<string, string>()
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair!.indexOf('=')
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1))
    }
    return res
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

test('next-auth signs alice in through ModHub with an organization app', async ({ page, baseURL }) => {
  await signIn(page, 'alice', DEMO.alice)
  // alice administers acme-ai: the relying party is one of its apps.
  await page.goto('/organizations/acme-ai/apps')
  await page.getByLabel('Name', { exact: true }).fill('Acme portal')
  await page.getByLabel('Redirect URIs').fill('http://127.0.0.1/api/auth/callback/modhub')
  await page.locator('input[name=scopes][value=email]').check()
  await page.getByRole('button', { name: 'Create app' }).click()
  await expect(page.getByRole('status')).toContainText('Client ID:')
  const clientId = /Client ID: ([0-9a-f-]{36})/.exec((await page.getByRole('status').textContent())!)![1]!
  const clientSecret = (await page.getByTestId('secret').textContent())!.trim()
  await page.screenshot({ path: '.tmp/screens/oauth-org-apps.png', fullPage: true })

  const rp = site.origin
  const config: AuthConfig = {
    secret: 'e2e-relying-party-secret',
    trustHost: true,
    basePath: '/api/auth',
    providers: [
      { id: 'modhub', name: 'ModHub', type: 'oidc', issuer: baseURL!, clientId, clientSecret, checks: ['pkce', 'state', 'nonce'], authorization: { params: { scope: 'openid profile email' } } },
    ],
  }
  const jar = new Jar()
  const csrf = jar.take(await Auth(new Request(`${rp}/api/auth/csrf`), config))
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const signin = jar.take(
    await Auth(
      new Request(`${rp}/api/auth/signin/modhub`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
        body: new URLSearchParams({ csrfToken, callbackUrl: `${rp}/` }),
      }),
      config,
    ),
  )
  const authorizeUrl = signin.headers.get('location')!
  expect(authorizeUrl.startsWith(`${baseURL}/oauth/authorize?`)).toBe(true)

  await page.goto(authorizeUrl)
  await expect(page.getByTestId('app-name')).toHaveText('Acme portal')
  await page.getByRole('button', { name: 'Authorize' }).click()
  await page.waitForURL(`${rp}/api/auth/callback/modhub?**`)

  const callback = jar.take(await Auth(new Request(page.url(), { headers: { cookie: jar.header() } }), config))
  expect(callback.status).toBe(302)
  expect(callback.headers.get('location')).toBe(`${rp}/`)
  const session = await (await Auth(new Request(`${rp}/api/auth/session`, { headers: { cookie: jar.header() } }), config)).json()
  expect(session.user).toMatchObject({ name: 'Alice Martin', email: 'alice@modhub.test', image: expect.stringContaining('/avatars/alice') })
})
