// The operator page's Disable an account: the account's browser is signed out, its sign-in says it
// is disabled (after the right password only), it is listed with an Enable button, and enabling it
// lets it sign in again. Operators choose who else operates the hub.
import { expect, test } from '@playwright/test'
import { joinAsNewUser, signIn, watchErrors } from './helpers'

test('an operator disables an account and enables it again', async ({ page, browser }) => {
  test.setTimeout(90_000)
  const errors = watchErrors(page)
  const user = await browser.newContext()
  const userPage = await user.newPage()
  const name = await joinAsNewUser(userPage, 'abuser-', 'abuser-password')

  await signIn(page, 'hubops', 'hubops-demo-pass')
  await page.goto('/operator')
  const section = page.getByRole('region', { name: 'Disable an account' })
  await section.getByLabel('Username or e-mail').fill('hubops')
  await section.getByRole('button', { name: 'Disable account' }).click()
  await expect(section.getByRole('alert')).toContainText('You cannot disable your own account')
  await section.getByLabel('Username or e-mail').fill(name)
  await section.getByRole('button', { name: 'Disable account' }).click()
  await expect(section.getByRole('status')).toContainText(`${name} is disabled`)
  const row = section.getByTestId('disabled-account').filter({ hasText: name })
  await expect(row).toContainText(`${name}@example.test`)
  await page.screenshot({ path: test.info().outputPath('operator-disabled.png'), fullPage: true })

  // Signed out there; the right password is told the account is disabled, a wrong one is not.
  await userPage.goto('/settings/profile')
  await expect(userPage).toHaveURL(/\/login\?next=/)
  await userPage.getByLabel('Username or e-mail').fill(name)
  await userPage.getByLabel('Password').fill('not-the-password')
  await userPage.getByRole('button', { name: 'Sign in' }).click()
  await expect(userPage.getByText('Wrong username, e-mail or password.')).toBeVisible()
  await userPage.getByLabel('Password').fill('abuser-password')
  await userPage.getByRole('button', { name: 'Sign in' }).click()
  await expect(userPage.getByText('This account is disabled. Contact the hub\'s operator.')).toBeVisible()

  await row.getByRole('button', { name: `Enable ${name}` }).click()
  await expect(section.getByTestId('disabled-account').filter({ hasText: name })).toHaveCount(0)
  await signIn(userPage, name, 'abuser-password')

  // Made an operator, the account sees the operator page; removed, it does not.
  const operators = page.getByRole('region', { name: 'Operators' })
  await operators.getByLabel('Username or e-mail').fill(name)
  await operators.getByRole('button', { name: 'Make operator' }).click()
  await expect(operators.getByTestId('operator').filter({ hasText: name })).toBeVisible()
  await expect(operators.getByTestId('operator').filter({ hasText: 'hubops' }).getByRole('button')).toHaveCount(0)
  expect((await userPage.goto('/operator'))?.status()).toBe(200)
  await operators.getByTestId('operator').filter({ hasText: name }).getByRole('button', { name: `Remove ${name}` }).click()
  await expect(operators.getByTestId('operator').filter({ hasText: name })).toHaveCount(0)
  expect((await userPage.goto('/operator'))?.status()).toBe(404)
  await user.close()
  expect(errors).toEqual([])
})
