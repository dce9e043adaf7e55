// Repository pages with files: the model card, the file browser, upload with progress from the
// page, the new commit in the history, and a download.
import fs from 'node:fs'
import { expect, test } from '@playwright/test'
import { DEMO, signIn, watchErrors } from './helpers'

const SHOTS = process.env.E2E_SCREENSHOTS // a folder to keep screenshots in, for looking at them

test('model card: Markdown and front matter metadata; gated repos keep the card readable', async ({ page }) => {
  const errors = watchErrors(page)
  await page.goto('/alice/toxicity-tiny')
  await expect(page).toHaveTitle(/alice\/toxicity-tiny/)
  const metadata = page.getByTestId('card-metadata')
  await expect(metadata).toContainText('apache-2.0')
  await expect(metadata).toContainText('text-classification')
  await expect(metadata).toContainText('moderation')
  await expect(page.getByRole('heading', { name: 'toxicity-tiny', level: 2 })).toBeVisible()
  await expect(page.locator('table').first()).toContainText('abusive or insulting text')
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/model-card.png`, fullPage: true })

  await page.goto('/acme-ai/guardrail-base')
  await expect(page.getByText('request access', { exact: false }).first()).toBeVisible()
  await page.getByRole('link', { name: 'Files and versions' }).click()
  await expect(page.getByText('This repository is gated')).toBeVisible()
  expect(errors).toEqual([])
})

test('browse files, upload with progress, see the commit in the history, download', async ({ page }) => {
  const errors = watchErrors(page)
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/alice/toxicity-tiny?tab=files')
  const list = page.getByTestId('file-list')
  await expect(list).toContainText('model.onnx')
  await expect(list.getByRole('row', { name: /model\.onnx/ }).getByText('LFS')).toBeVisible()
  await expect(list.getByRole('row', { name: /config\.json/ }).getByText('LFS')).toHaveCount(0)
  await expect(list).toContainText('config.json')

  const name = `notes-${Date.now()}.txt`
  await page.getByLabel('Files', { exact: true }).setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from('uploaded from the browser\n') })
  await page.getByLabel('Commit message').fill('Add notes from the browser')
  await page.getByRole('button', { name: 'Commit changes' }).click()
  await expect(page.getByRole('status')).toContainText('Committed “Add notes from the browser”')
  // Once committed, the message replaces the progress line (it no longer says "100% (committing)").
  await expect(page.getByLabel('Upload progress')).toHaveCount(0)
  await expect(list).toContainText(name)
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/files.png`, fullPage: true })

  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: `Download ${name}` }).click()
  const file = await (await download).path()
  expect(fs.readFileSync(file, 'utf8')).toBe('uploaded from the browser\n')

  await page.getByRole('link', { name: 'History' }).click()
  const history = page.getByTestId('history')
  await expect(history.locator('li').first()).toContainText('Add notes from the browser')
  await history.locator('summary').first().click()
  await expect(history.locator('li').first()).toContainText(`added ${name}`)
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/history.png`, fullPage: true })

  // Delete it again from the page.
  await page.goto('/alice/toxicity-tiny?tab=files')
  page.once('dialog', (d) => d.accept())
  await page.getByRole('button', { name: `Delete ${name}` }).click()
  await expect(page.getByTestId('file-list')).not.toContainText(name)
  expect(errors).toEqual([])
})

test('the file browser at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/open-lab/tiny-transformer2d?tab=files')
  await page.getByRole('link', { name: 'transformer', exact: true }).click()
  await expect(page.getByTestId('file-list')).toContainText('diffusion_pytorch_model.safetensors')
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/files-390.png`, fullPage: true })
})
