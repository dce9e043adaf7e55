// Settings > Password, in the browser: a refusal is said under its field and changes nothing; a
// change keeps this browser signed in, signs out another browser of the same account, and the new
// password is the one that signs in. Each run joins as a new user, so demo accounts keep theirs.
import { expect, test } from '@playwright/test'
import { joinAsNewUser, signIn, watchErrors } from './helpers'

test('changing the password signs out other browsers and keeps this one signed in', async ({ page, browser }) => {
  test.setTimeout(90_000)
  const errors = watchErrors(page)
  const name = await joinAsNewUser(page, 'rekey-', 'first-password')

  const other = await browser.newContext()
  const otherPage = await other.newPage()
  await signIn(otherPage, name, 'first-password')

  await page.goto('/settings/profile')
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Password' }).click()
  await expect(page.getByRole('heading', { name: 'Password', level: 1 })).toBeVisible()

  // By keyboard: the fields in order, Enter submits.
  await page.getByLabel('Current password').fill('not-my-password')
  await page.keyboard.press('Tab')
  await page.keyboard.type('second-password')
  await page.keyboard.press('Tab')
  await page.keyboard.type('second-password')
  await page.keyboard.press('Enter')
  await expect(page.locator('#currentPassword-error')).toHaveText('Current password is not your password.')
  await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true')

  await page.getByLabel('Current password').fill('first-password')
  await page.getByLabel('Confirm new password').fill('second-passw0rd')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.locator('#confirmPassword-error')).toHaveText('Confirm new password does not match the new password.')

  await page.getByLabel('Confirm new password').fill('second-password')
  await page.getByRole('button', { name: 'Change password' }).click()
  const notice = page.getByRole('status').filter({ hasText: 'Password changed.' })
  await expect(notice).toBeVisible()
  await expect(notice).toBeFocused()
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible()
  await expect(page.getByLabel('Current password')).toHaveValue('')
  await page.screenshot({ path: test.info().outputPath('password-changed.png'), fullPage: true })

  // This browser is still signed in; the other one is not, and the old password no longer works.
  await page.goto('/settings/tokens')
  await expect(page.getByRole('heading', { name: 'Access tokens', level: 1 })).toBeVisible()
  await otherPage.goto('/settings/profile')
  await expect(otherPage).toHaveURL(/\/login\?next=/)
  await otherPage.getByLabel('Username or e-mail').fill(name)
  await otherPage.getByLabel('Password').fill('first-password')
  await otherPage.getByRole('button', { name: 'Sign in' }).click()
  await expect(otherPage.getByText('Wrong username, e-mail or password.')).toBeVisible()
  await signIn(otherPage, name, 'second-password')
  await other.close()
  expect(errors).toEqual([])
})

test('an operator resets a lost password on the operator page; the new one, shown once, signs in', async ({ page, browser }) => {
  test.setTimeout(90_000)
  const errors = watchErrors(page)
  const user = await browser.newContext()
  const userPage = await user.newPage()
  const name = await joinAsNewUser(userPage, 'lost-', 'forgotten-password')

  await signIn(page, 'hubops', 'hubops-demo-pass')
  await page.goto('/operator')
  const section = page.getByRole('region', { name: 'Reset a password' })
  await section.getByLabel('Username or e-mail').fill('no-such-person')
  await section.getByRole('button', { name: 'Reset password' }).click()
  await expect(section.getByRole('alert')).toContainText('No account is named or has the e-mail address "no-such-person"')
  await section.getByLabel('Username or e-mail').fill(`${name}@example.test`)
  await section.getByRole('button', { name: 'Reset password' }).click()
  const secret = section.getByTestId('secret')
  await expect(secret).toHaveText(/^[A-Za-z0-9_-]{20}$/)
  await expect(section.getByTestId('secret-box')).toBeFocused()
  await page.screenshot({ path: test.info().outputPath('operator-reset.png'), fullPage: true })
  const password = (await secret.textContent())!.trim()

  // The account's browser was signed out; the sign-in page says where a lost password is reset; the new one signs in.
  await userPage.goto('/settings/profile')
  await expect(userPage).toHaveURL(/\/login\?next=/)
  await expect(userPage.getByText('Forgot your password? The hub\'s operator can give you a new one.')).toBeVisible()
  await signIn(userPage, name, password)
  await user.close()
  expect(errors).toEqual([])
})

test('Sign out everywhere signs out this browser and every other one of the account', async ({ page, browser }) => {
  test.setTimeout(60_000)
  const errors = watchErrors(page)
  const name = await joinAsNewUser(page, 'everywhere-', 'everywhere-password')
  const other = await browser.newContext()
  const otherPage = await other.newPage()
  await signIn(otherPage, name, 'everywhere-password')
  await page.goto('/settings/password')
  const section = page.getByRole('region', { name: 'Sign out everywhere' })
  await section.getByRole('button', { name: 'Sign out everywhere' }).click()
  await expect(section.getByText('Sign out of this and every other browser?')).toBeVisible()
  await section.getByRole('button', { name: 'Yes, sign out everywhere' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible()
  await otherPage.goto('/settings/profile')
  await expect(otherPage).toHaveURL(/\/login\?next=/)
  await signIn(otherPage, name, 'everywhere-password')
  await other.close()
  expect(errors).toEqual([])
})
