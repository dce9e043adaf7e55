// The moderation API's docs page in Chromium: the OpenAPI document, and "Try it" with the
// signed-in account's short-lived token.
import { expect, test } from '@playwright/test'
import { DEMO, signIn, watchErrors } from './helpers'

test('docs page lists the ten endpoints and calls the API with the signed-in account', async ({ page, request }) => {
  const errors = watchErrors(page)
  const spec = await (await request.get('/rai/v1/raimoderationmodels/openapi.json')).json()
  expect(Object.keys(spec.paths)).toHaveLength(10)

  await page.goto('/rai/v1/raimoderationmodels/docs')
  await expect(page.getByRole('heading', { name: 'Moderation API' })).toBeVisible()
  await expect(page.locator('section h2')).toHaveCount(10)
  await expect(page.getByRole('button', { name: 'Use my account' })).toHaveCount(0)

  // Signed out and without a token, the API answers 401 in FastAPI's shape.
  const sentiment = page.locator('section', { has: page.locator('h2', { hasText: /sentimentmodel$/ }) })
  await sentiment.getByRole('button', { name: 'Try it' }).click()
  await expect(sentiment.getByTestId('try-it-result')).toContainText('Status 401')

  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/rai/v1/raimoderationmodels/docs')
  await page.getByRole('button', { name: 'Use my account' }).click()
  await expect(page.getByRole('status')).toHaveText(/one-hour token/)
  await sentiment.getByRole('textbox').fill('{"text": "ModHub is really great!"}')
  await sentiment.getByRole('button', { name: 'Try it' }).click()
  const result = sentiment.getByTestId('try-it-result')
  await expect(result).toContainText('Status 200')
  await expect(result).toContainText('engine offline:vader')
  await expect(result).toContainText('"compound"')
  await page.screenshot({ path: '.tmp/screens/moderation-docs.png' })
  expect(errors.filter((e) => !e.includes('401'))).toEqual([])
})
