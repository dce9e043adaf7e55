// The moderation API's docs page in Chromium: the OpenAPI document, and "Try it" with the
// signed-in account's session credential (never one of the user's access tokens).
import { expect, test } from '@playwright/test'
import { DEMO, signIn, signOut, watchErrors } from './helpers'

test('docs page lists the ten endpoints and calls the API with the signed-in account', async ({ page, request }) => {
  const errors = watchErrors(page)
  const spec = await (await request.get('/rai/v1/raimoderationmodels/openapi.json')).json()
  expect(Object.keys(spec.paths)).toHaveLength(10)

  await page.goto('/rai/v1/raimoderationmodels/docs')
  await expect(page.getByRole('heading', { name: 'Moderation API' })).toBeVisible()
  await expect(page.locator('section h2')).toHaveCount(10)
  await expect(page.getByRole('button', { name: 'Use my account' })).toHaveCount(0)
  // The limits a caller meets, requests and characters of text per minute included.
  await expect(page.getByText(/Limits: 1,048,576 bytes per body, 50,000 characters per text, 256 items per list, 600 requests per minute per account, 2,000,000 characters of text per minute per account\./)).toBeVisible()

  // Signed out and without a token, the API answers 401 in FastAPI's shape.
  const sentiment = page.locator('section', { has: page.locator('h2', { hasText: /sentimentmodel$/ }) })
  await sentiment.getByRole('button', { name: 'Try it' }).click()
  await expect(sentiment.getByTestId('try-it-result')).toContainText('Status 401')

  await signIn(page, 'alice', DEMO.alice)
  // The tokens themselves, without their last-used times (other tests running beside this one use
  // theirs, and a use is written up to 30 s later: "never used" may become "last used" between reads).
  const tokenRows = async () => (await page.getByTestId('token-row').allTextContents()).map((row) => row.replace(/ · (?:last used [^·]+|never used)/, '').replace(/\s*·\s*/g, ' · '))
  await page.goto('/settings/tokens')
  const tokensBefore = await tokenRows()
  // Two loads, "Use my account" each time: the same credential, and no new access token.
  const credentials: string[] = []
  for (let load = 0; load < 2; load++) {
    await page.goto('/rai/v1/raimoderationmodels/docs')
    await page.evaluate(() => sessionStorage.clear())
    await page.getByRole('button', { name: 'Use my account' }).click()
    await expect(page.getByRole('status')).toHaveText(/session credential .*not one of your access tokens/)
    credentials.push(await page.evaluate(() => sessionStorage.getItem('moderation-docs-token') ?? ''))
    await sentiment.getByRole('textbox').fill('{"text": "ModHub is really great!"}')
    await sentiment.getByRole('button', { name: 'Try it' }).click()
    const result = sentiment.getByTestId('try-it-result')
    await expect(result).toContainText('Status 200')
    await expect(result).toContainText('engine offline:vader')
    await expect(result).toContainText('"compound"')
  }
  expect(credentials[0]).toMatch(/^hf_session_/)
  expect(credentials[1]).toBe(credentials[0])
  await page.screenshot({ path: '.tmp/screens/moderation-docs.png' })
  await page.goto('/settings/tokens')
  expect(await tokenRows()).toEqual(tokensBefore)

  // Signing out ends the credential.
  const whoami = await request.get('/api/whoami-v2', { headers: { authorization: `Bearer ${credentials[0]}` } })
  expect(whoami.status()).toBe(200)
  await signOut(page)
  expect((await request.get('/api/whoami-v2', { headers: { authorization: `Bearer ${credentials[0]}` } })).status()).toBe(401)
  expect(errors.filter((e) => !e.includes('401'))).toEqual([])
})
