// In Chromium: a user registers a trusted publisher for one of their repos, is told when a preset's
// identity claim is missing, and removes it again.
import { expect, test } from '@playwright/test'
import { DEMO, signIn, watchErrors } from './helpers'

test('trusted publishers: add for a repo, refuse a loose one, remove', async ({ page }) => {
  const errors = watchErrors(page)
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/settings/profile')
  await page.getByRole('link', { name: 'Trusted publishers' }).click()
  await expect(page.getByRole('heading', { name: 'Trusted publishers' })).toBeVisible()

  await page.getByLabel('Publishes to').selectOption({ label: 'alice/toxicity-tiny' })
  await page.getByLabel('CI provider').selectOption('github')
  await page.getByLabel(/Claims that must match exactly/).fill('ref=refs/heads/main')
  await page.getByRole('button', { name: 'Add publisher' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'must pin the repository claim' })).toBeVisible()

  // The form starts afresh after a refused submission.
  await page.getByLabel('Publishes to').selectOption({ label: 'alice/toxicity-tiny' })
  await page.getByLabel('CI provider').selectOption('github')
  await page.getByLabel(/Claims that must match exactly/).fill('repository=alice/toxicity-tiny\nworkflow=release')
  await page.getByRole('button', { name: 'Add publisher' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Trusted publisher added.' })).toBeVisible()
  const item = page.getByRole('listitem').filter({ hasText: 'https://token.actions.githubusercontent.com' })
  await expect(item.getByText('alice/toxicity-tiny', { exact: true })).toBeVisible()
  await expect(item).toContainText('workflow = release')
  await page.screenshot({ path: '.tmp/screens/publishers.png', fullPage: true })

  await item.getByRole('button', { name: /^Remove the publisher/ }).click()
  await item.getByRole('button', { name: 'Yes, remove' }).click()
  await expect(page.getByText('No trusted publishers yet.')).toBeVisible()
  // Said, and focused where the row was.
  const removed = page.getByRole('status').filter({ hasText: 'Trusted publisher removed; its tokens no longer work.' })
  await expect(removed).toBeVisible()
  await expect(removed).toBeFocused()
  expect(errors).toEqual([])
})
