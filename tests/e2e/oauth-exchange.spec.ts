// Organization token exchange with real clients: openid-client's generic grant request trades a
// member's e-mail for a token (the seeded acme-backend app), then @huggingface/hub shows what that
// token reaches: the organization's repos within the member's role, nothing private outside it.
import { expect, test } from '@playwright/test'
import * as oidc from 'openid-client'
import { createRepo, datasetInfo, deleteRepo, modelInfo, whoAmI } from '@huggingface/hub'

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
const USER_EMAIL = 'urn:hub:token-type:user-email'

async function backendConfig(baseURL: string) {
  return oidc.discovery(new URL(baseURL), 'acme-backend', undefined, oidc.ClientSecretBasic('acme-backend-secret'), { execute: [oidc.allowInsecureRequests] })
}

test('a member (write) gets an org token: reads and writes acme-ai, nothing private elsewhere', async ({ baseURL }) => {
  const hubUrl = baseURL!
  const config = await backendConfig(hubUrl)
  const tokens = await oidc.genericGrantRequest(config, EXCHANGE, { subject_token: 'bob@modhub.test', subject_token_type: USER_EMAIL, scope: 'read-repos write-repos manage-repos' })
  expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 28800, issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' })
  expect(tokens.refresh_token).toBeUndefined()
  const accessToken = tokens.access_token

  const me = await whoAmI({ accessToken, hubUrl })
  expect(me.name).toBe('bob')
  expect(me.type === 'user' && me.orgs.map((o) => o.name)).toEqual(['acme-ai'])

  // Inside the organization: private repos, and writes up to bob's role (write; creating needs manage-repos).
  expect((await datasetInfo({ name: 'acme-ai/internal-eval', accessToken, hubUrl })).private).toBe(true)
  const made = `acme-ai/exchange-${Date.now() % 100000}`
  await createRepo({ repo: made, accessToken, hubUrl, private: true })
  // bob is not an admin of acme-ai: deleting (manage) stays out of reach whatever the scopes say.
  await expect(deleteRepo({ repo: made, accessToken, hubUrl })).rejects.toMatchObject({ statusCode: 403 })

  // Outside: no personal repos, no other org's private repos; public ones as anyone sees them.
  await expect(createRepo({ repo: 'bob/from-exchange', accessToken, hubUrl })).rejects.toMatchObject({ statusCode: 403 })
  await expect(datasetInfo({ name: 'alice/private-notes', accessToken, hubUrl })).rejects.toMatchObject({ statusCode: 404 })
  expect((await modelInfo({ name: 'alice/toxicity-tiny', accessToken, hubUrl })).private).toBe(false)
})

test('the exchange refuses non-members, unknown scopes and a wrong secret as RFC 6749 says', async ({ baseURL }) => {
  const config = await backendConfig(baseURL!)
  await expect(oidc.genericGrantRequest(config, EXCHANGE, { subject_token: 'nobody@modhub.test', subject_token_type: USER_EMAIL })).rejects.toMatchObject({ error: 'invalid_grant', status: 400 })
  await expect(oidc.genericGrantRequest(config, EXCHANGE, { subject_token: 'bob@modhub.test', subject_token_type: USER_EMAIL, scope: 'jobs' })).rejects.toMatchObject({ error: 'invalid_scope', status: 400 })
  const wrong = await oidc.discovery(new URL(baseURL!), 'acme-backend', undefined, oidc.ClientSecretBasic('nope'), { execute: [oidc.allowInsecureRequests] })
  // 401 with a Basic challenge: openid-client reports it as a WWW-Authenticate challenge error.
  await expect(oidc.genericGrantRequest(wrong, EXCHANGE, { subject_token: 'bob@modhub.test', subject_token_type: USER_EMAIL })).rejects.toMatchObject({ status: 401 })
  // The secret may also travel in the form (client_secret_post, which discovery lists); without any secret it is invalid_client.
  const post = await oidc.discovery(new URL(baseURL!), 'acme-backend', undefined, oidc.ClientSecretPost('acme-backend-secret'), { execute: [oidc.allowInsecureRequests] })
  expect((await oidc.genericGrantRequest(post, EXCHANGE, { subject_token: 'dave@modhub.test', subject_token_type: USER_EMAIL })).access_token).toMatch(/^hf_oauth_/)
  const none = await oidc.discovery(new URL(baseURL!), 'acme-backend', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] })
  await expect(oidc.genericGrantRequest(none, EXCHANGE, { subject_token: 'dave@modhub.test', subject_token_type: USER_EMAIL })).rejects.toMatchObject({ error: 'invalid_client', status: 401 })
})

test('an org admin sets the exchange token lifetime on the app page; the next exchange follows it', async ({ page, baseURL }) => {
  const { signIn, DEMO } = await import('./helpers')
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/organizations/acme-ai/apps')
  await page.getByTestId('app-row').filter({ hasText: 'Acme Backend' }).getByRole('link', { name: 'Manage' }).click()
  await expect(page.getByText('granted by the hub operator')).toBeVisible()
  await page.getByLabel('Exchanged tokens live for').fill('2')
  await page.getByLabel('Unit').selectOption('hours')
  await page.getByRole('button', { name: 'Save lifetime' }).click()
  await expect(page.getByText('Token lifetime saved.')).toBeVisible()
  await page.screenshot({ path: '.tmp/screens/org-app-exchange.png', fullPage: true })
  const config = await backendConfig(baseURL!)
  const tokens = await oidc.genericGrantRequest(config, EXCHANGE, { subject_token: 'dave@modhub.test', subject_token_type: USER_EMAIL })
  expect(tokens.expires_in).toBe(7200)
  // Over 30 days is refused and changes nothing.
  await page.getByLabel('Exchanged tokens live for').fill('31')
  await page.getByLabel('Unit').selectOption('days')
  await page.getByRole('button', { name: 'Save lifetime' }).click()
  await expect(page.locator('form [role=alert]')).toBeVisible()
  // Back to the default, so the file can run again on the same database.
  await page.getByLabel('Exchanged tokens live for').fill('8')
  await page.getByLabel('Unit').selectOption('hours')
  await page.getByRole('button', { name: 'Save lifetime' }).click()
  await expect(page.getByText('Token lifetime saved.')).toBeVisible()
  await page.getByRole('link', { name: 'See this app’s exchanges' }).click()
  await expect(page.getByRole('row', { name: /dave/ }).first()).toBeVisible()
})
