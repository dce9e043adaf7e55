import { expect, type Page } from '@playwright/test'

export const DEMO = { alice: 'alice-demo-pass', bob: 'bob-demo-pass', carol: 'carol-demo-pass', dave: 'dave-demo-pass' } as const

export async function signIn(page: Page, login: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('Username or e-mail').fill(login)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible()
}

/** Joins as a new account named `<prefix><digits>` with `password` and stays signed in; the name. */
export async function joinAsNewUser(page: Page, prefix: string, password = 'a-long-password'): Promise<string> {
  const name = `${prefix}${Date.now() % 1_000_000}${Math.floor(Math.random() * 1000)}`
  await page.goto('/join')
  await page.getByLabel('Username').fill(name)
  await page.getByLabel('E-mail').fill(`${name}@example.test`)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible()
  return name
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible()
}

/** Creates a personal token in settings and returns the secret shown once. */
export async function createToken(page: Page, name: string, role: 'Read' | 'Write' | 'Fine-grained', scopes: string[] = []) {
  await page.goto('/settings/tokens')
  await page.getByLabel('Name').fill(name)
  await page.getByLabel(role, { exact: true }).check()
  for (const s of scopes) await page.getByRole('checkbox', { name: s, exact: true }).check()
  await page.getByRole('button', { name: 'Create token' }).click()
  const secret = page.getByTestId('secret')
  await expect(secret).toHaveText(/^hf_/)
  return (await secret.textContent())!.trim()
}

/** Fails the test on any uncaught page error or console error. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    // A failed resource's message does not name it; its location does.
    if (m.type() === 'error') errors.push(m.location().url ? `${m.text()} (${m.location().url})` : m.text())
  })
  return errors
}
