// Where the keyboard's focus is after each action, and that each action says what it did: a button
// stays focusable while its action runs (aria-disabled, not disabled, which drops the focus to
// <body>), a success that removes the row says so in a notice that takes the focus, refusals about
// a field are said under that field, and answers of "Try it" are in a live region.
import { expect, test, type Page } from '@playwright/test'
import { createToken, DEMO, signIn, signOut } from './helpers'

const SHOTS = '.tmp/screens'
const SIZES = [{ width: 1366, height: 900 }, { width: 390, height: 844 }]

/** The focused element, described; null when the focus is on <body> (or nowhere). */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement
    if (!el || el === document.body) return null
    return { tag: el.tagName.toLowerCase(), role: el.getAttribute('role'), text: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 200) }
  })
}

/** Presses Enter on `name`'s button, reached by focus as a keyboard user would have it. */
async function pressButton(page: Page, name: string | RegExp, scope: ReturnType<Page['locator']> | Page = page) {
  const button = scope.getByRole('button', { name, exact: typeof name === 'string' })
  await button.focus()
  await page.keyboard.press('Enter')
  return button
}

async function shots(page: Page, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await page.screenshot({ path: `${SHOTS}/focus-${name}-${size.width}.png`, fullPage: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${size.width}`).toBeLessThanOrEqual(size.width)
  }
  await page.setViewportSize(SIZES[0]!)
}

test('sign-up: a taken name or e-mail is said under its field, and the focus stays on the button', async ({ page }) => {
  await page.goto('/join')
  await page.getByLabel('Username').fill('alice')
  await page.getByLabel('E-mail').fill(`someone-${Date.now()}@example.test`)
  await page.getByLabel('Password').fill('a-long-password')
  const create = await pressButton(page, 'Create account')
  const username = page.getByLabel('Username')
  await expect(page.locator('#username-error')).toHaveText('The name "alice" is already taken.')
  await expect(username).toHaveAttribute('aria-invalid', 'true')
  await expect(username).toHaveAccessibleDescription(/already taken/)
  await expect(page.locator('form [role=alert]')).toHaveText('Check the field marked above.')
  await expect(create).toBeFocused()
  await shots(page, 'signup-taken')

  await username.fill(`fresh${Date.now() % 100000}`)
  await page.getByLabel('E-mail').fill('alice@modhub.test')
  await pressButton(page, 'Create account')
  await expect(page.locator('#email-error')).toHaveText('An account with this e-mail address already exists.')
  await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true')
  await expect(username).not.toHaveAttribute('aria-invalid', 'true')
  await expect(create).toBeFocused()
})

test('organization invite: refusals at the field, the answer under the row, Join lands on its message', async ({ page }) => {
  test.setTimeout(90_000)
  await signIn(page, 'bob', DEMO.bob)
  const org = `focus${Date.now() % 100000}`
  await page.goto('/organizations/new')
  await page.getByLabel('Organization name').fill(org)
  await pressButton(page, 'Create organization')
  await expect(page).toHaveURL(new RegExp(`/organizations/${org}/settings$`))
  const login = page.getByLabel('Username', { exact: true })
  const inviteForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Invite', exact: true }) })

  // Nobody by that name: said under the field, which is marked invalid.
  await login.fill('no-such-user-here')
  const invite = await pressButton(page, 'Invite')
  await expect(page.locator('#login-error')).toHaveText('No user named "no-such-user-here".')
  await expect(login).toHaveAttribute('aria-invalid', 'true')
  await expect(invite).toBeFocused()
  await shots(page, 'invite-unknown')

  // Oneself: a member already (not "An organization needs at least one admin").
  await login.fill('bob')
  await pressButton(page, 'Invite')
  await expect(page.locator('#login-error')).toHaveText('You are already a member of this organization.')
  await expect(invite).toBeFocused()

  // An invitation: the answer is under the row, which stays as it was (the button does not jump).
  await login.fill('dave')
  const before = await invite.boundingBox()
  await pressButton(page, 'Invite')
  const answer = inviteForm.getByRole('status')
  await expect(answer).toHaveText(/dave is invited as read/)
  await expect(invite).toBeFocused()
  await expect(login).not.toHaveAttribute('aria-invalid', 'true')
  const after = await invite.boundingBox()
  expect(after!.y).toBeCloseTo(before!.y, 0)
  expect((await answer.boundingBox())!.y).toBeGreaterThan(after!.y + after!.height)
  expect(Math.abs(after!.y - (await login.boundingBox())!.y)).toBeLessThan(30)
  await shots(page, 'invite-sent')

  // Dave joins by keyboard: the page's message takes the focus.
  await signOut(page)
  await signIn(page, 'dave', DEMO.dave)
  await page.goto('/settings/organizations')
  await pressButton(page, `Join ${org}`)
  const joined = page.getByRole('status')
  await expect(joined).toHaveText(`You are now a member of ${org}.`)
  await expect(joined).toBeFocused()
  await shots(page, 'joined')

  // Inviting a member again changes their role (deliberately: lib/hub/invitations), and says from what to what.
  await signOut(page)
  await signIn(page, 'bob', DEMO.bob)
  await page.goto(`/organizations/${org}/settings`)
  await login.fill('dave')
  await page.getByLabel('Role', { exact: true }).selectOption('write')
  await pressButton(page, 'Invite')
  await expect(inviteForm.getByRole('status')).toHaveText('dave is a member already: their role changed from read to write.')
  await expect(invite).toBeFocused()
  await page.reload()
  await expect(page.getByLabel('Role of dave')).toHaveValue('write')
})

test('revoking a token: the notice says which, and takes the focus from the row that went', async ({ page }) => {
  await signIn(page, 'carol', DEMO.carol)
  const name = `focus-token-${Date.now() % 100000}`
  await createToken(page, name, 'Read')
  await createToken(page, `${name}-kept`, 'Read')
  await page.reload()
  const row = page.getByTestId('token-row').filter({ hasText: new RegExp(`^${name}\\s`) })
  await pressButton(page, `Revoke ${name}`, row)
  await expect(row.getByRole('button', { name: 'Yes, revoke' })).toBeFocused()
  await page.keyboard.press('Enter')
  const notice = page.getByRole('region', { name: 'Your tokens' }).getByRole('status')
  await expect(notice).toHaveText(`Token “${name}” revoked: it no longer works.`)
  await expect(notice).toBeFocused()
  await expect(row).toHaveCount(0)
  await shots(page, 'token-revoked')
  // Tab goes on from the list, not from the top of the page: to the first remaining token's Revoke.
  await notice.focus()
  await page.keyboard.press('Tab')
  expect(await focused(page)).toEqual({ tag: 'button', role: null, text: expect.stringMatching(/^Revoke /) })
})

test('revoking an authorized app: the notice says which, and takes the focus', async ({ page }) => {
  await signIn(page, 'carol', DEMO.carol)
  // Carol lets Demo Notes sign her in (its redirect is answered here: nothing listens there).
  await page.route('http://localhost:4000/**', (route) => route.fulfill({ body: 'signed in' }))
  await page.goto('/oauth/authorize?' + new URLSearchParams({
    client_id: 'demo-notes-app', redirect_uri: 'http://localhost:4000/oauth/callback', response_type: 'code', scope: 'openid profile',
    state: 'focus', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
  }))
  await page.getByRole('button', { name: 'Authorize' }).click()
  await page.waitForURL(/localhost:4000/)
  await page.goto('/settings/authorized-apps')
  const row = page.getByTestId('authorized-app').filter({ hasText: 'Demo Notes' })
  await pressButton(page, 'Revoke Demo Notes', row)
  await expect(row.getByRole('button', { name: 'Yes, revoke' })).toBeFocused()
  await page.keyboard.press('Enter')
  const notice = page.getByRole('status')
  await expect(notice).toHaveText('Access revoked for Demo Notes: its tokens no longer work.')
  await expect(notice).toBeFocused()
  await expect(row).toHaveCount(0)
  await shots(page, 'app-revoked')
})

test('removing a collection item: the notice names it and takes the focus', async ({ page }) => {
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/collections/new?namespace=alice')
  await page.getByLabel('Title').fill(`Focus picks ${Date.now() % 100000}`)
  await pressButton(page, 'Create collection')
  await expect(page.getByRole('heading', { name: /Focus picks/ })).toBeVisible()
  for (const [type, repo] of [['model', 'alice/toxicity-tiny'], ['space', 'open-lab/moderation-demo']] as const) {
    await page.getByLabel('Type').selectOption(type)
    await page.getByLabel('Repository (namespace/name)').fill(repo)
    const add = await pressButton(page, 'Add')
    await expect(page.getByRole('link', { name: new RegExp(repo) })).toBeVisible()
    await expect(add).toBeFocused()
  }
  await pressButton(page, 'Remove alice/toxicity-tiny from this collection')
  const notice = page.getByRole('status').filter({ hasText: 'Removed' })
  await expect(notice).toHaveText('Removed alice/toxicity-tiny from this collection.')
  await expect(notice).toBeFocused()
  await expect(page.getByRole('link', { name: /alice\/toxicity-tiny/ })).toHaveCount(0)
  await shots(page, 'item-removed')
  // Deleting the collection: the owner's page says so, and its message has the focus.
  await pressButton(page, 'Delete collection')
  await expect(page.getByRole('button', { name: 'Yes, delete' })).toBeFocused()
  await page.keyboard.press('Enter')
  await page.waitForURL(/\/alice\?deleted=/)
  await expect(page.getByRole('status')).toBeFocused()
})

test('files: upload and delete by keyboard, each with its message in focus, and no browser dialog', async ({ page }) => {
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await signIn(page, 'alice', DEMO.alice)
  const name = `focus-${Date.now() % 100000}.txt`
  await page.goto('/alice/toxicity-tiny?tab=files')
  await page.getByLabel('Files', { exact: true }).setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from('to be deleted\n') })
  await pressButton(page, 'Commit changes')
  const committed = page.getByRole('status').filter({ hasText: 'Committed' })
  await expect(committed).toHaveText(`Committed “Upload ${name}”`)
  await expect(committed).toBeFocused()
  const list = page.getByTestId('file-list')
  await expect(list).toContainText(name)

  // Delete asks first, in the page (not window.confirm); Escape puts the button back, focused.
  const remove = await pressButton(page, `Delete ${name}`)
  const yes = page.getByRole('button', { name: 'Yes, delete' })
  await expect(yes).toBeFocused()
  await expect(page.getByText(`Delete ${name} in a new commit on main?`)).toBeVisible()
  await shots(page, 'file-confirm')
  await page.keyboard.press('Escape')
  await expect(remove).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(yes).toBeFocused()
  await page.keyboard.press('Enter')
  const deleted = page.getByRole('status').filter({ hasText: 'Deleted' })
  await expect(deleted).toHaveText(`Deleted ${name} in a new commit on main.`)
  await expect(deleted).toBeFocused()
  await expect(list).not.toContainText(name)
  await shots(page, 'file-deleted')
  expect(dialogs).toEqual([])
})

test('moderation docs: Try it keeps the focus and its answer is in a live region', async ({ page }) => {
  await page.goto('/rai/v1/raimoderationmodels/docs')
  const sentiment = page.locator('section', { has: page.locator('h2', { hasText: /sentimentmodel$/ }) })
  const tryIt = await pressButton(page, 'Try it', sentiment)
  const result = sentiment.getByTestId('try-it-result')
  await expect(result).toContainText('Status 401')
  await expect(tryIt).toBeFocused()
  // The answer is inside a polite live region that was there before it came.
  expect(await result.evaluate((el) => el.closest('[aria-live="polite"], [role="status"]') !== null)).toBe(true)
  await shots(page, 'try-it')
})

test('Transformer2D: Run forward keeps the focus while it runs and after', async ({ page }) => {
  await page.goto('/transformer2d')
  const run = await pressButton(page, 'Run forward')
  await expect(page.getByTestId('t2d-dims')).toHaveText('[1, 8, 32, 32]', { timeout: 30_000 })
  await expect(run).toBeFocused()
  await expect(run).not.toHaveAttribute('aria-disabled', 'true')
})
