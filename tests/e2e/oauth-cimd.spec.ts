// An app that registers itself with a Client ID Metadata Document: the hub fetches the document
// from the app's site (a loopback server of the test; the hub allows loopback only by its
// development setting), marks it unverified on consent, and signs carol in with PKCE.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHash, randomBytes } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { DEMO, signIn } from './helpers'

let site: http.Server
let origin: string
test.beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.url === '/.well-known/oauth-cimd') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ client_id: `${origin}/.well-known/oauth-cimd`, client_name: 'Self-registered Notebook', redirect_uris: [`${origin}/cb`], token_endpoint_auth_method: 'none', client_uri: origin }))
    } else {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<!doctype html><title>callback</title><p>back at the app</p>')
    }
  })
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
})
test.afterAll(() => site.close())

test('a metadata-document client signs carol in; consent says it is unverified and names its host', async ({ page, baseURL }) => {
  const clientId = `${origin}/.well-known/oauth-cimd`
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  await signIn(page, 'carol', DEMO.carol)
  const authorize = new URL('/oauth/authorize', baseURL)
  for (const [k, v] of Object.entries({ client_id: clientId, redirect_uri: `${origin}/cb`, scope: 'openid profile', state: 'xyz', code_challenge: challenge, code_challenge_method: 'S256' })) authorize.searchParams.set(k, v)
  await page.goto(authorize.href)
  await expect(page.getByTestId('app-name')).toHaveText('Self-registered Notebook')
  await expect(page.getByTestId('unverified')).toContainText(new URL(origin).host)
  await page.screenshot({ path: '.tmp/screens/consent-cimd.png', fullPage: true })
  await page.getByRole('button', { name: 'Authorize' }).click()
  await page.waitForURL(`${origin}/cb?**`)
  const back = new URL(page.url())
  expect(back.searchParams.get('state')).toBe('xyz')
  const res = await fetch(`${baseURL}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: `${origin}/cb`, code_verifier: verifier, client_id: clientId }),
  })
  expect(res.status).toBe(200)
  const tokens = await res.json()
  const me = await (await fetch(`${baseURL}/api/whoami-v2`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).json()
  expect(me.name).toBe('carol')
})

test('a document that breaks the rules is explained on the hub, never followed', async ({ page, baseURL }) => {
  await signIn(page, 'carol', DEMO.carol)
  const authorize = new URL('/oauth/authorize', baseURL)
  // The document names another client_id than its URL.
  for (const [k, v] of Object.entries({ client_id: `${origin}/other-document`, redirect_uri: `${origin}/cb`, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' })) authorize.searchParams.set(k, v)
  await page.goto(authorize.href)
  await expect(page.getByRole('heading', { name: 'This sign-in request cannot be completed' })).toBeVisible()
  expect(page.url()).toContain(baseURL!)
})
