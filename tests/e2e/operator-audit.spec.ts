// In Chromium: the hub operator grants token exchange to an Enterprise org's app (and is refused
// for a Team org's), and the org admin finds the grant in the audit log and exports it.
import { expect, test } from '@playwright/test'
import { DEMO, signIn, signOut, watchErrors } from './helpers'

async function createOrgApp(page: import('@playwright/test').Page, org: string, name: string) {
  await page.goto(`/organizations/${org}/apps`)
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Redirect URIs').fill('https://backend.example/callback')
  await page.getByRole('button', { name: 'Create app' }).click()
  await expect(page.getByTestId('secret')).toBeVisible()
}

test('operator grants token exchange; the org admin sees it in the audit log', async ({ page }) => {
  const errors = watchErrors(page)
  await signIn(page, 'bob', DEMO.bob)
  await createOrgApp(page, 'open-lab', 'E2E Team Backend')
  // bob writes to acme-ai but is no admin: the log is not there for him, nor its export.
  expect((await page.request.get('/organizations/acme-ai/audit')).status()).toBe(404)
  expect((await page.request.get('/organizations/acme-ai/audit/export')).status()).toBe(403)
  await signOut(page)

  await signIn(page, 'alice', DEMO.alice)
  await createOrgApp(page, 'acme-ai', 'E2E Exchange Backend')
  expect((await page.request.get('/operator')).status()).toBe(404) // alice is no operator
  await signOut(page)

  await signIn(page, 'hubops', 'hubops-demo-pass')
  await page.goto('/operator')
  await expect(page.getByRole('heading', { name: 'Hub operator', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Token exchange privileges' })).toBeVisible()
  await page.getByRole('button', { name: 'Grant to E2E Team Backend' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Token exchange needs an Enterprise-plan organization; open-lab is on the team plan' })).toBeVisible()
  await page.getByRole('button', { name: 'Grant to E2E Exchange Backend' }).click()
  await expect(page.getByRole('status').filter({ hasText: '"E2E Exchange Backend" may now exchange tokens' })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('button', { name: 'Revoke from E2E Exchange Backend' })).toBeVisible()
  await page.screenshot({ path: '.tmp/screens/operator.png', fullPage: true })
  await signOut(page)

  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/organizations/acme-ai/settings')
  await page.getByRole('link', { name: 'Audit log' }).click()
  await expect(page.getByRole('heading', { name: 'Audit log of acme-ai' })).toBeVisible()
  const row = page.getByRole('row', { name: /Token exchange granted to an app/ }).filter({ hasText: 'E2E Exchange Backend' })
  await expect(row).toContainText('hubops')
  await expect(row).toContainText('E2E Exchange Backend')
  await page.getByLabel('Action').selectOption('publisher.add')
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/action=publisher\.add/)
  await expect(page.getByText('No entries match.')).toBeVisible()
  await page.getByRole('link', { name: 'Clear' }).click()
  await expect(row).toBeVisible()
  await expect(page.getByLabel('Action')).toHaveValue('')
  await page.screenshot({ path: '.tmp/screens/audit.png', fullPage: true })
  const exported = await page.request.get('/organizations/acme-ai/audit/export')
  expect(exported.status()).toBe(200)
  const lines = (await exported.text()).trim().split('\n').map((l) => JSON.parse(l))
  expect(lines).toContainEqual(expect.objectContaining({ action: 'app.exchange.grant', actor: 'hubops' }))
  expect(errors).toEqual([])
})
