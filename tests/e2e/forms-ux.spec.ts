// Forms as keyboard, screen-reader and phone users meet them: a secret shown once comes into view
// and takes the focus, problems are said once (at their field, the summary pointing at them), text
// fields show the same focus outline as links, and the OAuth pages keep the app's logo square and
// the device code on one line.
import { expect, test, type Locator, type Page } from '@playwright/test'
import { DEMO, joinAsNewUser, signIn } from './helpers'

const DESKTOP = { width: 1366, height: 800 }
const PHONE = { width: 390, height: 844 }

/** A new account, signed in (no remembered consents, no tokens). */
const signUp = (page: Page) => joinAsNewUser(page, 'ux')

async function focusOutline(field: Locator) {
  await field.focus()
  return field.evaluate((el) => {
    const style = getComputedStyle(el)
    return { width: parseFloat(style.outlineWidth), style: style.outlineStyle }
  })
}

test('a new token made with Enter comes into view with the focus', async ({ page }) => {
  await page.setViewportSize(DESKTOP)
  await signIn(page, 'dave', DEMO.dave)
  await page.goto('/settings/tokens')
  await page.getByLabel('Name').fill(`enter-${Date.now() % 100000}`)
  await page.getByLabel('Name').press('Enter')
  const box = page.getByTestId('secret-box')
  await expect(box.getByTestId('secret')).toHaveText(/^hf_/)
  await expect(box).toBeFocused()
  await expect(box).toBeInViewport({ ratio: 1 })
  await expect(box).toHaveAttribute('role', 'status')
  // The next stop is its copy button.
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Copy your new token' })).toBeFocused()
})

test('a new OAuth app\'s secret, and a rotated one, come into view with the focus', async ({ page }) => {
  await page.setViewportSize(DESKTOP)
  await signIn(page, 'dave', DEMO.dave)
  await page.goto('/settings/applications')
  const name = `Enter app ${Date.now() % 100000}`
  await page.getByLabel('Redirect URIs').fill('https://enter.example/cb')
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Name', { exact: true }).press('Enter')
  const box = page.getByTestId('secret-box')
  await expect(box.getByTestId('secret')).toBeVisible()
  await expect(box).toBeFocused()
  await expect(box).toBeInViewport({ ratio: 1 })

  // Its page is titled and headed with its name.
  await page.getByTestId('app-row').filter({ hasText: name }).getByRole('link', { name: 'Manage' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await expect(page).toHaveTitle(`${name} · OAuth apps · ModHub`)
  await page.getByRole('button', { name: 'Rotate secret' }).click()
  const rotated = page.getByTestId('secret-box')
  await expect(rotated.getByTestId('secret')).toBeVisible()
  await expect(rotated).toBeFocused()
  await expect(rotated).toBeInViewport({ ratio: 1 })
})

test('an organization app\'s page is titled with its name', async ({ page }) => {
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/organizations/acme-ai/apps')
  const name = 'Acme Backend' // seeded (scripts/seed.ts)
  await page.getByTestId('app-row').filter({ hasText: name }).getByRole('link', { name: 'Manage' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await expect(page).toHaveTitle(`${name} · OAuth apps of acme-ai · ModHub`)
})

test('two problems are said once each, at their fields, and the summary points at them', async ({ page }) => {
  await page.goto('/join')
  await page.getByLabel('Username').fill('fresh-name')
  await page.getByLabel('E-mail').fill('not-an-address')
  await page.getByLabel('Password').fill('short')
  await page.getByRole('button', { name: 'Create account' }).click()
  const summary = page.locator('form [role=alert]')
  await expect(summary).toHaveText('Check the 2 fields marked above.')
  await expect(page.locator('#email-error')).toHaveText('E-mail must be a valid e-mail address.')
  await expect(page.getByText('E-mail must be a valid e-mail address.')).toHaveCount(1)
  await expect(page.getByText('Password must be at least 8 characters.')).toHaveCount(1)
  await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription('E-mail must be a valid e-mail address.')
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Password')).toHaveAccessibleDescription(/^Password must be at least 8 characters\./)
  // What was typed stays.
  await expect(page.getByLabel('Username')).toHaveValue('fresh-name')
  await expect(page.getByLabel('E-mail')).toHaveValue('not-an-address')
  // One problem left: the summary says so in the singular.
  await page.getByLabel('E-mail').fill('fresh-name@example.test')
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(summary).toHaveText('Check the field marked above.')
  await expect(page.getByLabel('E-mail')).not.toHaveAttribute('aria-invalid', 'true')
  // A taken name is the Username field's problem too: said under it, the summary pointing there.
  await page.getByLabel('Username').fill('Alice')
  await page.getByLabel('Password').fill('a-long-password')
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.locator('#username-error')).toHaveText(/already taken/)
  await expect(summary).toHaveText('Check the field marked above.')
})

test('a problem the form shows at no field is said in full beside the pointer', async ({ page }) => {
  await signIn(page, 'dave', DEMO.dave)
  await page.goto('/settings/applications')
  await page.getByLabel('Homepage').fill('not a url')
  await page.getByRole('button', { name: 'Create app' }).click()
  // Name, homepage and redirect URIs are fields; each says its own problem.
  await expect(page.locator('form [role=alert]')).toHaveText('Check the 3 fields marked above.')
  await expect(page.locator('#new-homepage-error')).toHaveText(/^Homepage /)
  await expect(page.getByLabel('Homepage')).toHaveAttribute('aria-invalid', 'true')
  // A fine-grained token without scopes: the scopes are no Field, so the summary says it.
  await page.goto('/settings/tokens')
  await page.getByLabel('Fine-grained', { exact: true }).check()
  await page.getByRole('button', { name: 'Create token' }).click()
  await expect(page.locator('form [role=alert]')).toHaveText(/^Check the field marked above\. A fine-grained token needs at least one scope\.$/)
})

test('text fields, selects and text areas show a 2px focus outline like links', async ({ page }) => {
  await page.goto('/login')
  for (const field of [page.getByLabel('Username or e-mail'), page.getByLabel('Password')]) {
    const outline = await focusOutline(field)
    expect(outline.width).toBeGreaterThanOrEqual(2)
    expect(outline.style).not.toBe('none')
  }
  await signIn(page, 'dave', DEMO.dave)
  await page.goto('/settings/tokens')
  const select = await focusOutline(page.getByLabel('Expires'))
  expect(select.width).toBeGreaterThanOrEqual(2)
  expect(select.style).not.toBe('none')
  await page.goto('/settings/applications')
  const textarea = await focusOutline(page.getByLabel('Redirect URIs'))
  expect(textarea.width).toBeGreaterThanOrEqual(2)
  expect(textarea.style).not.toBe('none')
})

for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  test(`${label}: the app's logo stays square and the device code on one line`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await signUp(page)
    // The consent page.
    await page.goto(`/oauth/authorize?${new URLSearchParams({ client_id: 'demo-notes-app', redirect_uri: 'http://127.0.0.1/callback', response_type: 'code', scope: 'openid profile email read-repos read-memberships', state: 'ux' })}`)
    await expect(page.getByTestId('app-name')).toHaveText('Demo Notes')
    const consentLogo = await page.getByTestId('app-logo').boundingBox()
    expect(consentLogo).toMatchObject({ width: 56, height: 56 })

    // The device page.
    const answer = await page.request.post('/oauth/device', { form: { client_id: 'demo-browser-app', scope: 'openid read-repos' } })
    const device = (await answer.json()) as { user_code: string; verification_uri_complete: string }
    await page.goto(device.verification_uri_complete)
    const code = page.getByTestId('user-code')
    await expect(code).toHaveText(device.user_code)
    const deviceLogo = await page.getByTestId('app-logo').boundingBox()
    expect(deviceLogo).toMatchObject({ width: 56, height: 56 })
    const lines = await code.evaluate((el) => ({ rects: el.getClientRects().length, height: el.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(el).lineHeight) }))
    expect(lines.rects).toBe(1)
    expect(lines.height).toBeLessThanOrEqual(lines.lineHeight + 1)
    // Nothing sticks out of the page sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
  })
}
