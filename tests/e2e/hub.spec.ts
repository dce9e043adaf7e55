// The hub's pages in a real browser: sign-up/in/out, organizations and roles, repositories
// (private, gated, access requests), tokens, and every page rendering without errors.
import { expect, test } from '@playwright/test'
import { DEMO, createToken, signIn, signOut, watchErrors } from './helpers'

test('sign up, sign out, and sign in again (wrong password first)', async ({ page }) => {
  const errors = watchErrors(page)
  const name = `erin${Date.now() % 100000}`
  await page.goto('/join')
  await page.getByLabel('Username').fill(name)
  await page.getByLabel('Full name').fill('Erin Example')
  await page.getByLabel('E-mail').fill(`${name}@example.test`)
  await page.getByLabel('Password').fill('a-long-password')
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible()

  await signOut(page)

  await page.goto('/login')
  await page.getByLabel('Username or e-mail').fill(name)
  await page.getByLabel('Password').fill('wrong-password')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.locator('form [role=alert]')).toHaveText(/Wrong username, e-mail or password/)
  await signIn(page, `${name}@example.test`, 'a-long-password')
  expect(errors).toEqual([])
})

test('sign-up rejects taken and reserved names with a clear message', async ({ page }) => {
  await page.goto('/join')
  await page.getByLabel('Username').fill('Alice')
  await page.getByLabel('E-mail').fill('someone-new@example.test')
  await page.getByLabel('Password').fill('a-long-password')
  await page.getByRole('button', { name: 'Create account' }).click()
  // A taken name is the Username field's problem: said under it, like its format problems.
  await expect(page.locator('#username-error')).toHaveText(/already taken/)
  await expect(page.locator('form [role=alert]')).toHaveText('Check the field marked above.')
  await page.getByLabel('Username').fill('settings')
  await page.getByRole('button', { name: 'Create account' }).click()
  // A problem with one field is said under it; the summary points there rather than repeating it.
  await expect(page.locator('#username-error')).toHaveText(/reserved/)
  await expect(page.locator('form [role=alert]')).toHaveText('Check the field marked above.')
  // Several problems at once: each is said under its own field, which is marked invalid; the others are not.
  await page.getByLabel('Username').fill('fresh-name')
  await page.getByLabel('E-mail').fill('not-an-address')
  await page.getByLabel('Password').fill('short')
  await page.getByRole('button', { name: 'Create account' }).click()
  const email = page.getByLabel('E-mail')
  await expect(email).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('#email-error')).toBeVisible()
  await expect(email).toHaveAccessibleDescription(await page.locator('#email-error').innerText())
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('#password-error')).toHaveText(/8/)
  await expect(page.getByLabel('Username')).not.toHaveAttribute('aria-invalid', 'true')
})

test('create an organization, invite a member who accepts, change their role, and they leave', async ({ page }) => {
  await signIn(page, 'carol', DEMO.carol)
  const org = `lab${Date.now() % 100000}`
  await page.goto('/organizations/new')
  await page.getByLabel('Organization name').fill(org)
  await page.getByRole('button', { name: 'Create organization' }).click()
  await expect(page).toHaveURL(new RegExp(`/organizations/${org}/settings$`))
  await page.getByLabel('Username', { exact: true }).fill('dave')
  await page.getByLabel('Role', { exact: true }).selectOption('contributor')
  await page.getByRole('button', { name: 'Invite' }).click()
  await expect(page.locator('form [role=status]')).toHaveText(/dave is invited as contributor/)
  await page.reload()
  // Invited, not a member yet: no role to change, one invitation waiting.
  await expect(page.getByLabel('Role of dave')).toHaveCount(0)
  const waiting = page.getByRole('list', { name: 'Invitations waiting for an answer' })
  await expect(waiting.getByRole('listitem')).toHaveText([/dave\s+as contributor/])

  // Dave sees the invitation in Settings -> Organizations and joins, by keyboard.
  await signOut(page)
  await signIn(page, 'dave', DEMO.dave)
  // The header says an invitation waits, and leads to it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: '1 invitation' }).click()
  await expect(page).toHaveURL(/\/settings\/organizations$/)
  const invitation = page.getByRole('region', { name: 'Invitations' }).getByRole('listitem').filter({ hasText: org })
  await expect(invitation).toContainText(`invites you as contributor (from carol)`)
  await invitation.getByRole('button', { name: `Join ${org}` }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('status')).toHaveText(`You are now a member of ${org}.`)
  await expect(page.getByRole('region', { name: 'Invitations' })).toHaveCount(0)
  await expect(page.getByRole('listitem').filter({ hasText: org })).toContainText('contributor')
  await expect(page.getByRole('link', { name: /invitation/ })).toHaveCount(0)
  // A non-admin cannot reach the settings page.
  const res = await page.goto(`/organizations/${org}/settings`)
  expect(res?.status()).toBe(404)

  await signOut(page)
  await signIn(page, 'carol', DEMO.carol)
  await page.goto(`/organizations/${org}/settings`)
  await expect(waiting).toHaveCount(0)
  await expect(page.getByText('None.')).toBeVisible()
  const daveRole = page.getByLabel('Role of dave')
  await expect(daveRole).toHaveValue('contributor')
  await daveRole.selectOption('write')
  await daveRole.locator('xpath=ancestor::form').getByRole('button', { name: 'Apply' }).click()
  // Reloaded once the answer is in (a reload before it would read the old role).
  await expect(daveRole.locator('xpath=ancestor::form').getByRole('status')).toHaveText('Role changed to write.')
  await page.reload()
  await expect(page.getByLabel('Role of dave')).toHaveValue('write')
  // The last admin cannot step down.
  const carolRole = page.getByLabel('Role of carol')
  await carolRole.selectOption('read')
  await carolRole.locator('xpath=ancestor::form').getByRole('button', { name: 'Apply' }).click()
  await expect(page.locator('form [role=alert]')).toHaveText(/at least one admin/)
  // The audit log has the invitation, the answer and the role change.
  await page.goto(`/organizations/${org}/audit`)
  await expect(page.getByRole('main')).toContainText('Member invited')
  await expect(page.getByRole('main')).toContainText('Invitation accepted')
  await expect(page.getByRole('main')).toContainText('Member role changed')

  // A member may leave, after ticking the confirmation.
  await signOut(page)
  await signIn(page, 'dave', DEMO.dave)
  await page.goto('/settings/organizations')
  const row = page.getByRole('listitem').filter({ hasText: org })
  await row.getByText('Leave…').click()
  await row.getByRole('button', { name: `Leave ${org}` }).click()
  await expect(row.getByRole('alert')).toHaveText(/Tick the box to confirm/)
  await row.getByRole('checkbox').check()
  await row.getByRole('button', { name: `Leave ${org}` }).click()
  await expect(page.getByRole('status')).toHaveText(`You have left ${org}.`)
  await page.reload()
  await expect(page.getByRole('link', { name: org, exact: true })).toHaveCount(0)
})

test('an invitation may be declined, and an admin may cancel one', async ({ page }) => {
  await signIn(page, 'bob', DEMO.bob)
  const org = `inv${Date.now() % 100000}`
  await page.goto('/organizations/new')
  await page.getByLabel('Organization name').fill(org)
  await page.getByRole('button', { name: 'Create organization' }).click()
  await expect(page).toHaveURL(new RegExp(`/organizations/${org}/settings$`))
  for (const user of ['carol', 'dave']) {
    await page.getByLabel('Username', { exact: true }).fill(user)
    await page.getByRole('button', { name: 'Invite' }).click()
    await expect(page.locator('form [role=status]')).toHaveText(new RegExp(`${user} is invited as read`))
  }
  await page.reload()
  const waiting = page.getByRole('list', { name: 'Invitations waiting for an answer' })
  await waiting.getByRole('listitem').filter({ hasText: 'dave' }).getByRole('button', { name: 'Cancel invitation' }).click()
  // The page is drawn again without it.
  await expect(waiting.getByRole('listitem')).toHaveText([/carol/])
  await page.reload()
  await expect(waiting.getByRole('listitem')).toHaveText([/carol/])

  await signOut(page)
  await signIn(page, 'dave', DEMO.dave)
  await page.goto('/settings/organizations')
  await expect(page.getByRole('region', { name: 'Invitations' })).toHaveCount(0)
  await signOut(page)
  await signIn(page, 'carol', DEMO.carol)
  await page.goto('/settings/organizations')
  await page.getByRole('region', { name: 'Invitations' }).getByRole('listitem').filter({ hasText: org }).getByRole('button', { name: 'Decline' }).click()
  await expect(page.getByRole('status')).toHaveText(`You declined the invitation from ${org}.`)
  await expect(page.getByRole('link', { name: org, exact: true })).toHaveCount(0)
})

test('private and gated repositories, with an access request granted by the owner', async ({ page, browser }) => {
  await signIn(page, 'bob', DEMO.bob)
  const name = `repo${Date.now() % 100000}`
  await page.goto('/new')
  await page.getByLabel('Name').fill(`${name}-private`)
  await page.getByLabel(/Private: only you/).check()
  await page.getByRole('button', { name: 'Create repository' }).click()
  await expect(page).toHaveURL(new RegExp(`/bob/${name}-private$`))
  await expect(page.getByText('private', { exact: true })).toBeVisible()

  await page.goto('/new?type=dataset')
  await page.getByLabel('Name').fill(`${name}-gated`)
  await page.getByLabel(/Gated: users must request access/).check()
  await page.getByRole('button', { name: 'Create repository' }).click()
  await expect(page).toHaveURL(new RegExp(`/datasets/bob/${name}-gated$`))
  await expect(page.getByText('gated', { exact: true })).toBeVisible()

  // Carol sees the gated repo's page but not its files, asks for access; the private repo is a 404 for her.
  const carol = await (await browser.newContext()).newPage()
  await signIn(carol, 'carol', DEMO.carol)
  expect((await carol.goto(`/bob/${name}-private`))?.status()).toBe(404)
  await carol.goto(`/datasets/bob/${name}-gated`)
  await expect(carol.getByText(/files are available once the owner grants you access/)).toBeVisible()
  await carol.getByRole('button', { name: 'Request access' }).click()
  await expect(carol.getByRole('status').filter({ hasText: 'Access requested' })).toContainText('pending review')

  await page.goto(`/datasets/bob/${name}-gated?tab=settings`)
  await page.getByRole('button', { name: 'Accept' }).click()
  await expect(page.getByText('No pending requests.')).toBeVisible()

  await carol.goto(`/datasets/bob/${name}-gated?tab=files`)
  await expect(carol.getByTestId('file-list').getByRole('link', { name: '.gitattributes', exact: true })).toBeVisible()
  await expect(carol.getByText('Access granted')).toBeVisible()

  // Bob deletes the dataset after typing its name; his page says so.
  await page.goto(`/datasets/bob/${name}-gated?tab=settings`)
  await page.getByLabel(/to confirm/).fill(`bob/${name}-gated`)
  await page.getByRole('button', { name: 'Delete repository' }).click()
  await page.waitForURL(/\/bob\?deleted=/)
  await expect(page.getByRole('status')).toHaveText(`bob/${name}-gated was deleted.`)
  expect((await page.request.get(`/datasets/bob/${name}-gated`)).status()).toBe(404)
})

test('create a token, see it once, use it, revoke it', async ({ page, request }) => {
  await signIn(page, 'dave', DEMO.dave)
  const token = await createToken(page, 'ci-token', 'Read')
  const me = await request.get('/api/whoami-v2', { headers: { authorization: `Bearer ${token}` } })
  expect(me.status()).toBe(200)
  expect((await me.json()).name).toBe('dave')
  await page.reload()
  await expect(page.getByTestId('secret')).toHaveCount(0) // shown once only
  const row = page.getByTestId('token-row').filter({ hasText: 'ci-token' })
  // Last-used times are written behind, within LAST_USED_FLUSH_MS (30 s; README: bearer tokens).
  await expect
    .poll(async () => {
      await page.reload()
      return row.textContent()
    }, { timeout: 45_000, intervals: [5_000] })
    .toContain('last used')
  await row.getByRole('button', { name: /^Revoke / }).click()
  await row.getByRole('button', { name: 'Yes, revoke' }).click()
  await expect(page.getByTestId('token-row').filter({ hasText: 'ci-token' })).toHaveCount(0)
  expect((await request.get('/api/whoami-v2', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401)
})

test('profile settings validate and save', async ({ page }) => {
  await signIn(page, 'dave', DEMO.dave)
  await page.goto('/settings/profile')
  await page.getByLabel('Website').fill('not a url')
  await page.getByRole('button', { name: 'Save profile' }).click()
  await expect(page.locator('#website-error')).toHaveText('Website must be an http(s) URL.')
  await expect(page.getByLabel('Website')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('form [role=alert]')).toHaveText('Check the field marked above.')
  await page.getByLabel('Website').fill('https://dave.example')
  await page.getByLabel('Full name').fill('Dave O.')
  await page.getByRole('button', { name: 'Save profile' }).click()
  await expect(page.locator('form [role=status]')).toHaveText('Profile saved.')
  await page.goto('/dave')
  await expect(page.getByRole('heading', { name: 'Dave O.' })).toBeVisible()
})

const PAGES = ['/', '/models', '/datasets', '/spaces', '/alice', '/acme-ai', '/alice/toxicity-tiny', '/acme-ai/guardrail-base', '/spaces/open-lab/moderation-demo']

test('every public page renders without errors and is keyboard reachable', async ({ page }) => {
  const errors = watchErrors(page)
  for (const path of PAGES) {
    const res = await page.goto(path)
    expect(res?.status(), path).toBe(200)
    await expect(page.getByRole('link', { name: 'ModHub' })).toBeVisible()
    // The first Tab from the top of the document lands on the skip link, the next on the logo.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent), path).toBe('Skip to content')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href')), path).toBe('/')
  }
  // The sign-in and sign-up forms put the cursor in their first field.
  for (const [path, id] of [['/login', 'login'], ['/join', 'username']]) {
    await page.goto(path!)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(id)
  }
  expect(errors).toEqual([])
})

test('signed-in pages render, and private things stay hidden from others', async ({ page }) => {
  const errors = watchErrors(page)
  await signIn(page, 'alice', DEMO.alice)
  for (const path of ['/settings/profile', '/settings/tokens', '/settings/organizations', '/organizations/acme-ai/settings', '/new', '/collections/new', '/datasets/alice/private-notes']) {
    expect((await page.goto(path))?.status(), path).toBe(200)
  }
  await page.goto('/alice')
  await page.getByRole('link', { name: /Responsible AI picks/ }).click()
  await expect(page.getByRole('heading', { name: 'Responsible AI picks' })).toBeVisible()
  await page.screenshot({ path: '.tmp/screens/collection.png', fullPage: true })
  expect(errors).toEqual([])
  await signOut(page)
  expect((await page.goto('/datasets/alice/private-notes'))?.status()).toBe(404)
  await page.goto('/acme-ai')
  await expect(page.getByText('internal-eval')).toHaveCount(0)
})

test('collections: add and remove items, delete only after confirming; New collection only where one may be made', async ({ page, browser }) => {
  const errors = watchErrors(page)
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/collections/new?namespace=alice')
  await page.getByLabel('Title').fill('Keyboard picks')
  await page.getByRole('button', { name: 'Create collection' }).click()
  await expect(page.getByRole('heading', { name: 'Keyboard picks' })).toBeVisible()
  for (const [type, repo] of [['model', 'alice/toxicity-tiny'], ['space', 'open-lab/moderation-demo']] as const) {
    await page.getByLabel('Type').selectOption(type)
    await page.getByLabel('Repository (namespace/name)').fill(repo)
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await expect(page.getByRole('link', { name: new RegExp(repo) })).toBeVisible()
  }
  // The same repository again is not a second item, and the page says so.
  await page.getByLabel('Type').selectOption('space')
  await page.getByLabel('Repository (namespace/name)').fill('open-lab/moderation-demo')
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.getByRole('status')).toHaveText('open-lab/moderation-demo is in this collection already.')
  await expect(page.getByRole('link', { name: /open-lab\/moderation-demo/ })).toHaveCount(1)
  // Remove one item; the other stays.
  await page.getByRole('button', { name: 'Remove alice/toxicity-tiny from this collection' }).click()
  await expect(page.getByRole('link', { name: /alice\/toxicity-tiny/ })).toHaveCount(0)
  await expect(page.getByRole('link', { name: /open-lab\/moderation-demo/ })).toBeVisible()

  // Deleting asks first; Escape and Cancel keep the collection, and the focus comes back.
  const url = page.url()
  await page.getByRole('button', { name: 'Delete collection' }).click()
  await expect(page.getByRole('button', { name: 'Yes, delete' })).toBeFocused()
  await expect(page.getByText('Delete Keyboard picks? The list is gone for good')).toBeVisible()
  for (const size of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size)
    await page.screenshot({ path: `.tmp/screens/collection-confirm-delete-${size.width}.png`, fullPage: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width)
  }
  await page.setViewportSize({ width: 1366, height: 900 })
  await page.keyboard.press('Escape')
  await expect(page.getByRole('button', { name: 'Delete collection' })).toBeFocused()
  await page.getByRole('button', { name: 'Delete collection' }).click()
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('button', { name: 'Yes, delete' })).toHaveCount(0)
  expect(page.url()).toBe(url)
  await page.getByRole('button', { name: 'Delete collection' }).press('Enter')
  await page.getByRole('button', { name: 'Yes, delete' }).press('Enter')
  await page.waitForURL(/\/alice\?deleted=/)
  await expect(page.getByRole('status')).toHaveText('The collection was deleted.')
  await expect(page.getByRole('link', { name: /Keyboard picks/ })).toHaveCount(0)
  // The same link for something that exists (or another namespace's) claims nothing.
  for (const spelling of ['alice%2Ftoxicity-tiny', 'alice%2FToxicity-Tiny']) {
    await page.goto(`/alice?deleted=${spelling}`)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByRole('status')).toHaveCount(0)
  }
  await page.goto('/alice?deleted=bob%2Fno-such-repo')
  await expect(page.getByRole('status')).toHaveCount(0)
  expect((await page.request.get(url)).status()).toBe(404)
  await page.goto('/alice?deleted=datasets%2Falice%2Fno-such-thing')
  await expect(page.getByRole('status')).toHaveText('alice/no-such-thing was deleted.')
  // Told only to alice: to anyone else it would say whether a private repo by that name exists.
  const stranger = await browser.newPage()
  for (const value of ['datasets%2Falice%2Fno-such-thing', 'datasets%2Falice%2Fprivate-notes']) {
    await stranger.goto(new URL(`/alice?deleted=${value}`, page.url()).href)
    await expect(stranger.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(stranger.getByRole('status')).toHaveCount(0)
  }
  await stranger.close()

  // alice administers acme-ai: offered there. dave only reads acme-ai (and contributes to open-lab): not offered, and not a choice on the form.
  await page.goto('/acme-ai')
  await expect(page.getByRole('link', { name: 'New collection' })).toBeVisible()
  await signOut(page)
  await signIn(page, 'dave', DEMO.dave)
  await page.goto('/acme-ai')
  await expect(page.getByRole('heading', { name: /Collections/ })).toBeVisible()
  await expect(page.getByRole('link', { name: 'New collection' })).toHaveCount(0)
  await page.goto('/dave')
  await expect(page.getByRole('link', { name: 'New collection' })).toBeVisible()
  await page.goto('/collections/new?namespace=acme-ai')
  const owners = await page.getByLabel('Owner').locator('option').allTextContents()
  expect(owners[0]).toBe('dave')
  expect(owners.filter((o) => o === 'acme-ai' || o === 'open-lab')).toEqual([]) // reader in acme-ai, contributor in open-lab
  expect(errors).toEqual([])
})
