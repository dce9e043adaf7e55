// Repository pages with files: the model card, the file browser, upload with progress from the
// page, the new commit in the history, and a download.
import fs from 'node:fs'
import { expect, test } from '@playwright/test'
import { createRepo } from '@huggingface/hub'
import { DEMO, createToken, signIn, watchErrors } from './helpers'

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

  // Delete it again from the page: it asks first, in the page (components/ConfirmAction), and says it did.
  await page.goto('/alice/toxicity-tiny?tab=files')
  await page.getByRole('button', { name: `Delete ${name}` }).click()
  await page.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Deleted' })).toHaveText(`Deleted ${name} in a new commit on main.`)
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

test('a card renders as on the Hub (GitHub Markdown, safe HTML, relative links and pictures); files have pages; the Hub\'s folder and history URLs work', async ({ page, baseURL }) => {
  const errors = watchErrors(page)
  await signIn(page, 'alice', DEMO.alice)
  const accessToken = await createToken(page, 'cards', 'Write')
  const repo = `alice/card-${Date.now() % 100000}`
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64')
  const readme = [
    '---', 'license: mit', '---',
    '<div align="center"><img src="pic.png" width="64" alt="logo" onerror="alert(1)"></div>',
    '',
    '<script>window.pwned = 1</script>',
    '',
    '# Card test',
    '1. first',
    '   - nested item',
    '2. second',
    '',
    'This is ~~old~~ new. See [the notes](docs/notes.txt), [a bad link](javascript:alert(1)) and [the web](https://example.org/).',
    '',
    '- [x] done task',
  ].join('\n')
  await createRepo({
    repo, accessToken, hubUrl: baseURL!,
    files: [
      { path: 'README.md', content: new Blob([readme]) },
      { path: 'docs/notes.txt', content: new Blob(['line one\nline two\n']) },
      { path: 'pic.png', content: new Blob([png]) },
      { path: 'many-lines.txt', content: new Blob(['line\n'.repeat(6000)]) },
      { path: 'docs/guide/intro.md', content: new Blob(['Back to [the card](../../README.md) and [the notes](../notes.txt).\n']) },
    ],
  })
  await page.goto(`/${repo}`)
  const card = page.getByRole('region', { name: 'Model card' })
  await expect(card.getByRole('heading', { name: 'Card test', level: 2 })).toBeVisible()
  await expect(card.locator('ol > li').first().locator('ul > li')).toHaveText('nested item')
  await expect(card.locator('ol > li')).toHaveCount(2)
  await expect(card.locator('del')).toHaveText('old')
  const logo = card.locator('div[align="center"] img')
  await expect(logo).toHaveAttribute('src', `/${repo}/resolve/main/pic.png`)
  await expect(logo).not.toHaveAttribute('onerror', /.*/)
  expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1)
  await expect(card.locator('script')).toHaveCount(0)
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
  await expect(card.getByRole('link', { name: 'the web' })).toHaveAttribute('href', 'https://example.org/')
  await expect(card.getByText('a bad link')).not.toHaveAttribute('href', /.*/)
  await expect(card.getByRole('checkbox')).toBeChecked()

  // A relative link opens the file's page: its path, its lines, a raw and a download link.
  await card.getByRole('link', { name: 'the notes' }).click()
  await expect(page).toHaveURL(new RegExp(`/${repo}/blob/main/docs/notes.txt$`))
  await expect(page.getByTestId('file-text')).toContainText('line two')
  await expect(page.getByRole('navigation', { name: 'File path' })).toContainText('docs')
  await page.getByRole('navigation', { name: 'File path' }).getByRole('link', { name: 'docs' }).click()
  await expect(page.getByTestId('file-list')).toContainText('notes.txt')
  // A Markdown file in a folder: its relative links start from that folder.
  await page.goto(`/${repo}/blob/main/docs/guide/intro.md`)
  await expect(page.getByRole('link', { name: 'the card' })).toHaveAttribute('href', `/${repo}/blob/main/README.md`)
  await expect(page.getByRole('link', { name: 'the notes' })).toHaveAttribute('href', `/${repo}/blob/main/docs/notes.txt`)
  // A long file shows its first lines only.
  await page.goto(`/${repo}/blob/main/many-lines.txt`)
  await expect(page.getByText('The first 5,000 of 6,000 lines')).toBeVisible()
  await expect(page.getByTestId('file-text').locator('tr')).toHaveCount(5000)
  // A file that is not text says so.
  await page.goto(`/${repo}/blob/main/pic.png`)
  await expect(page.getByText('This file is not text')).toBeVisible()
  // The Hub's URLs for a folder and a history land on those tabs; a missing file is a 404.
  await page.goto(`/${repo}/tree/main/docs`)
  await expect(page).toHaveURL(new RegExp(`/${repo}\\?tab=files&rev=main&path=docs$`))
  await expect(page.getByTestId('file-list')).toContainText('notes.txt')
  await page.goto(`/${repo}/commits/main`)
  await expect(page).toHaveURL(new RegExp(`/${repo}\\?tab=history&rev=main$`))
  // A commit's URL (what a commit through the API answers as commitUrl) lands on the history at that commit.
  const { sha } = (await (await page.request.get(`/api/models/${repo}`)).json()) as { sha: string }
  await page.goto(`/${repo}/commit/${sha}`)
  await expect(page).toHaveURL(new RegExp(`/${repo}\\?tab=history&rev=${sha}$`))
  await expect(page.getByRole('main')).toContainText(sha.slice(0, 7))
  expect(errors).toEqual([])
  expect((await page.goto(`/${repo}/blob/main/no-such-file.txt`))?.status()).toBe(404)
  // The folder and history URLs redirect to a repository's own page only: never to another host, never a 500.
  for (const path of ['/%2Fevil.example/x/tree/main', '/%5Cevil.example/x/commits/main', '/alice/x%0D%0Aa/tree/main', '/datasets/%2F%2Fevil.example/x/tree/main']) {
    const response = await page.request.get(path, { maxRedirects: 0 })
    expect([path, response.status()]).toEqual([path, 404])
  }
})
