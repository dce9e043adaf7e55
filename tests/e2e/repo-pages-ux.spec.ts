// Repository pages as people use them: file names that stay readable on a phone, a history whose
// commits visibly open and link to their files, editing a file (and creating a model card) in the
// browser, tab titles that name the page, the profile's "New repository", and tabs on a phone.
import { expect, test, type Locator, type Page } from '@playwright/test'
import { createRepo, deleteFile, downloadFile, uploadFile, uploadFiles } from '@huggingface/hub'
import { DEMO, createToken, signIn, watchErrors } from './helpers'

const SHOTS = process.env.E2E_SCREENSHOTS // a folder to keep screenshots in, for looking at them
const PHONE = { width: 390, height: 844 }

const LONG_NAMES = ['README.md', 'config.json', 'data file with a quite long name for testing wrapping on narrow screens.csv', 'diffusion_pytorch_model.safetensors', 'weights.bin']

/** A new model of alice's with the given files (no README unless given), and a write token for more commits. */
async function aliceRepo(page: Page, baseURL: string, prefix: string, files: Record<string, string>) {
  await signIn(page, 'alice', DEMO.alice)
  const accessToken = await createToken(page, `${prefix}-${Date.now() % 100000}`, 'Write')
  const repo = `alice/${prefix}-${Date.now() % 1000000}`
  await createRepo({ repo, accessToken, hubUrl: baseURL, files: Object.entries(files).map(([path, content]) => ({ path, content: new Blob([content]) })) })
  return { repo, accessToken }
}

/** How a file name link lies in its cell: the lines it takes and the narrowest line. */
async function nameLayout(link: Locator) {
  return link.evaluate((a) => {
    // The inline link's fragments (one or more per line: its text runs between <wbr>s), by line.
    const lines = new Map<number, { left: number; right: number }>()
    for (const r of a.getClientRects()) {
      if (r.width === 0) continue
      const top = Math.round(r.top)
      const line = lines.get(top)
      lines.set(top, line ? { left: Math.min(line.left, r.left), right: Math.max(line.right, r.right) } : { left: r.left, right: r.right })
    }
    const cell = a.closest('td')!.getBoundingClientRect()
    return { lines: lines.size, narrowest: Math.min(...[...lines.values()].map((l) => l.right - l.left)), cell: cell.width }
  })
}

test('on a phone, file names are whole words and the actions are compact icons with their names', async ({ page, baseURL }) => {
  const errors = watchErrors(page)
  const { repo, accessToken } = await aliceRepo(page, baseURL!, 'phone', {
    'README.md': '# Phone\n',
    'config.json': '{}\n',
    'data file with a quite long name for testing wrapping on narrow screens.csv': 'a,b\n',
  })
  // Uploaded (not inline with the creation), these two are LFS files, with their badge.
  await uploadFiles({ repo, accessToken, hubUrl: baseURL!, files: [{ path: 'diffusion_pytorch_model.safetensors', content: new Blob([Buffer.alloc(2048, 1)]) }, { path: 'weights.bin', content: new Blob([Buffer.alloc(4096, 2)]) }] })
  await page.setViewportSize(PHONE)
  await page.goto(`/${repo}?tab=files`)
  const list = page.getByTestId('file-list')
  await expect(list.getByRole('row', { name: /weights\.bin/ }).getByText('LFS')).toBeVisible()
  for (const name of LONG_NAMES) {
    const link = list.getByRole('link', { name, exact: true })
    await expect(link).toBeVisible()
    const layout = await nameLayout(link)
    // The name column has room (it was ~100 px), and no line of a name is a letter or two.
    expect(layout.cell, `${name}: cell ${layout.cell}px`).toBeGreaterThanOrEqual(180)
    expect(layout.narrowest, `${name}: a line of ${layout.narrowest}px`).toBeGreaterThanOrEqual(24)
    if (!name.includes(' ')) expect(layout.lines, `${name} on ${layout.lines} lines`).toBeLessThanOrEqual(2)
    // The actions keep their names, as icons.
    await expect(list.getByRole('link', { name: `Download ${name}` })).toBeVisible()
    await expect(list.getByRole('button', { name: `Delete ${name}` })).toBeVisible()
    const download = await list.getByRole('link', { name: `Download ${name}` }).boundingBox()
    expect(download!.width).toBeLessThanOrEqual(44)
  }
  // Nothing scrolls sideways: not the page, not the table.
  expect(await list.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth)).toBe(true)
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/ux-phone-files.png`, fullPage: true })

  // Signed out, in a folder of a seeded model: the long safetensors name is on at most two lines.
  await page.context().clearCookies()
  await page.goto('/open-lab/tiny-transformer2d?tab=files&rev=main&path=transformer')
  const safetensors = page.getByTestId('file-list').getByRole('link', { name: 'diffusion_pytorch_model.safetensors', exact: true })
  const layout = await nameLayout(safetensors)
  expect(layout.lines).toBeLessThanOrEqual(2)
  expect(layout.narrowest).toBeGreaterThanOrEqual(24)
  await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0)
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/ux-phone-subfolder.png`, fullPage: true })
  expect(errors).toEqual([])
})

test('history: commits open with a visible marker (also by keyboard), link their files at that commit and their own URL', async ({ page, baseURL }) => {
  const errors = watchErrors(page)
  const { repo, accessToken } = await aliceRepo(page, baseURL!, 'hist', { 'README.md': '# History\n', 'notes.txt': 'one\n' })
  await uploadFile({ repo, accessToken, hubUrl: baseURL!, file: { path: 'docs/guide.md', content: new Blob(['# Guide\n']) }, commitTitle: 'Add the guide' })
  await deleteFile({ repo, accessToken, hubUrl: baseURL!, path: 'notes.txt', commitTitle: 'Remove the notes' })
  const { sha: head } = (await (await page.request.get(`/api/models/${repo}`)).json()) as { sha: string }

  await page.goto(`/${repo}?tab=history`)
  await expect(page).toHaveTitle(`History · ${repo} · ModHub`)
  const history = page.getByTestId('history')
  const first = history.locator(':scope > li').first()
  const second = history.locator(':scope > li').nth(1)
  await expect(first).toContainText('Remove the notes')
  // Closed: the ▸ marker shows, the files do not.
  await expect(first.getByText('▸')).toBeVisible()
  await expect(first.getByText('▾')).toBeHidden()
  await expect(first.getByText('deleted')).toBeHidden()
  // The keyboard opens it: the summary is focusable and Enter toggles it.
  await first.locator('summary').focus()
  await page.keyboard.press('Enter')
  await expect(first.getByText('▾')).toBeVisible()
  await expect(first.getByText('▸')).toBeHidden()
  // A deleted file is named, not linked.
  await expect(first.getByText('notes.txt')).toBeVisible()
  await expect(first.getByRole('link', { name: 'notes.txt' })).toHaveCount(0)
  // An added file links to its page at that commit.
  await second.locator('summary').click()
  const secondSha = (await second.getByRole('link', { name: /^Commit / }).getAttribute('title'))!
  expect(secondSha).toMatch(/^[0-9a-f]{40}$/)
  const guide = second.getByRole('link', { name: 'docs/guide.md' })
  await expect(guide).toHaveAttribute('href', `/${repo}/blob/${secondSha}/docs/guide.md`)
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/ux-history.png`, fullPage: true })
  await guide.click()
  await expect(page).toHaveURL(new RegExp(`/${repo}/blob/${secondSha}/docs/guide.md$`))
  await expect(page.getByRole('heading', { name: 'Guide' })).toBeVisible()
  await expect(page).toHaveTitle(`docs/guide.md · ${repo} at ${secondSha} · ModHub`)
  // A file seen at a commit id has no editor: edits are commits on a branch.
  await expect(page.getByRole('link', { name: 'Edit docs/guide.md' })).toHaveCount(0)

  // The short id links to the commit's URL, which lands on the history at it, open.
  await page.goto(`/${repo}?tab=history`)
  const idLink = page.getByTestId('history').locator(':scope > li').first().getByRole('link', { name: `Commit ${head.slice(0, 8)}` })
  await expect(idLink).toHaveText(head.slice(0, 8))
  await expect(idLink).toHaveAttribute('href', `/${repo}/commit/${head}`)
  await idLink.click()
  await expect(page).toHaveURL(new RegExp(`/${repo}\\?tab=history&rev=${head}$`))
  await expect(page.getByTestId('history').locator(':scope > li').first().locator('details')).toHaveAttribute('open', '')

  // A file's or folder's history (the Hub's /commits/{rev}/{path}): only the commits that changed it; the file's page links it.
  await page.goto(`/${repo}/blob/main/docs/guide.md`)
  await page.getByRole('link', { name: 'History of docs/guide.md' }).click()
  await expect(page).toHaveURL(new RegExp(`/${repo}\\?tab=history&rev=main&path=docs%2Fguide.md$`))
  await expect(page.getByText(/^1 commit on main that changed docs\/guide.md/)).toBeVisible()
  await expect(page.getByTestId('history').locator(':scope > li')).toHaveCount(1)
  await expect(page.getByTestId('history')).toContainText('Add the guide')
  await page.goto(`/${repo}/commits/main/docs`)
  await expect(page.getByTestId('history').locator(':scope > li')).toHaveCount(1)
  await page.goto(`/${repo}/commits/main/notes.txt`)
  await expect(page.getByTestId('history').locator(':scope > li')).toHaveCount(2)
  await page.getByRole('link', { name: 'all commits' }).click()
  await expect(page.getByTestId('history').locator(':scope > li')).toHaveCount(3)

  // A dataset's history links under /datasets.
  await page.goto('/datasets/alice/private-notes?tab=history')
  const dataset = page.getByTestId('history').locator(':scope > li').last()
  await dataset.locator('summary').click()
  const fileLinks = dataset.getByRole('list', { name: /^Files changed/ }).getByRole('link')
  expect(await fileLinks.count()).toBeGreaterThan(0)
  await expect(fileLinks.first()).toHaveAttribute('href', /^\/datasets\/alice\/private-notes\/blob\/[0-9a-f]{40}\//)
  expect(errors).toEqual([])
})

test('a writer creates the model card and edits a file in the browser; readers get no editor', async ({ page, baseURL, browser }) => {
  const errors = watchErrors(page)
  const { repo, accessToken } = await aliceRepo(page, baseURL!, 'edit', { 'config.json': '{"hidden_size": 8}\n' })
  const name = repo.split('/')[1]!

  // No README: the card offers to create one, with a starter.
  await page.goto(`/${repo}`)
  const card = page.getByRole('region', { name: 'Model card' })
  await expect(card).toContainText('no model card yet')
  await card.getByRole('link', { name: 'Create model card' }).click()
  await expect(page).toHaveURL(new RegExp(`/${repo}/edit/main/README.md$`))
  await expect(page).toHaveTitle(`Edit README.md · ${repo} at main · ModHub`)
  const text = page.getByLabel('File contents')
  await expect(text).toHaveValue(`---\nlicense: \n---\n# ${name}\n`)
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/ux-create-card.png`, fullPage: true })
  await text.fill(`---\nlicense: mit\n---\n# ${name}\n\nWritten in the browser.\n`)
  await page.getByLabel('Commit message').fill('Write the card')
  // Committed from the keyboard.
  await page.getByRole('button', { name: 'Commit changes' }).focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`/${repo}/blob/main/README.md\\?committed=[0-9a-f]{40}$`))
  await expect(page.getByRole('status')).toContainText('Your changes to README.md were committed to main')
  await expect(page.locator('p', { hasText: 'Written in the browser.' })).toBeVisible()
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/ux-card-committed.png`, fullPage: true })
  await page.goto(`/${repo}`)
  await expect(card.getByText('Written in the browser.')).toBeVisible()
  await expect(page.getByTestId('card-metadata')).toContainText('mit')

  // Edit a file from its page; the new text is on the page after the commit.
  await page.goto(`/${repo}/blob/main/config.json`)
  await expect(page).toHaveTitle(`config.json · ${repo} at main · ModHub`)
  await page.getByRole('link', { name: 'Edit config.json' }).click()
  await expect(page).toHaveURL(new RegExp(`/${repo}/edit/main/config.json$`))
  await expect(page.getByLabel('File contents')).toHaveValue('{"hidden_size": 8}\n')
  // Unchanged text is not committed.
  await page.getByRole('button', { name: 'Commit changes' }).click()
  await expect(page.locator('form').getByRole('alert')).toContainText('No changes to commit')
  await page.getByLabel('File contents').fill('{"hidden_size": 16}\n')
  await page.getByRole('button', { name: 'Commit changes' }).click()
  await expect(page).toHaveURL(new RegExp(`/${repo}/blob/main/config.json\\?committed=`))
  await expect(page.getByTestId('file-text')).toContainText('"hidden_size": 16')
  await page.goto(`/${repo}?tab=history`)
  await expect(page.getByTestId('history').locator(':scope > li').first()).toContainText('Update config.json')

  // Someone else commits while the editor is open: the commit is refused and the page says why.
  await page.goto(`/${repo}/edit/main/config.json`)
  await page.getByLabel('File contents').fill('{"hidden_size": 32}\n')
  await uploadFile({ repo, accessToken, hubUrl: baseURL!, file: { path: 'other.txt', content: new Blob(['x']) }, commitTitle: 'Meanwhile' })
  await page.getByRole('button', { name: 'Commit changes' }).click()
  await expect(page.locator('form').getByRole('alert')).toContainText('main has changed since you opened this file')
  await expect(page.getByRole('button', { name: 'Commit changes' })).toBeEnabled()
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/ux-edit-conflict.png`, fullPage: true })
  expect(errors.filter((e) => !/status of 412/.test(e))).toEqual([])

  // A file written with \r\n line ends and a byte-order mark keeps both: one changed line is one changed line.
  await uploadFile({ repo, accessToken, hubUrl: baseURL!, file: { path: 'notes.txt', content: new Blob(['\uFEFFfirst\r\nsecond\r\n']) }, commitTitle: 'Windows notes' })
  await page.goto(`/${repo}/edit/main/notes.txt`)
  // Typed at the end, as a user edits: the mark and the other line stay as they were.
  await page.getByLabel('File contents').click()
  await page.keyboard.press('Control+End')
  await page.keyboard.press('Backspace')
  await page.keyboard.type(', edited')
  await page.keyboard.press('Enter')
  await page.getByRole('button', { name: 'Commit changes' }).click()
  await expect(page).toHaveURL(new RegExp(`/${repo}/blob/main/notes.txt\\?committed=`))
  const committed = await downloadFile({ repo, accessToken, hubUrl: baseURL!, path: 'notes.txt' })
  expect(Buffer.from(await committed!.arrayBuffer()).toString('latin1')).toBe(Buffer.from('\uFEFFfirst\r\nsecond, edited\r\n').toString('latin1'))

  // A reader (signed out) sees no Edit and no Create; the editor's URL shows the file instead.
  const reader = await browser.newPage()
  await reader.goto(`/${repo}/blob/main/config.json`)
  await expect(reader.getByTestId('file-text')).toContainText('"hidden_size": 16')
  await expect(reader.getByRole('link', { name: /^Edit/ })).toHaveCount(0)
  await reader.goto(`/${repo}/edit/main/config.json`)
  await expect(reader).toHaveURL(new RegExp(`/${repo}/blob/main/config.json$`))
  await expect(reader.getByLabel('File contents')).toHaveCount(0)
  await reader.goto('/open-lab/tiny-transformer2d')
  await expect(reader.getByRole('link', { name: /Edit model card|Create model card/ })).toHaveCount(0)
  await reader.close()
})

test('tab titles name the page', async ({ page }) => {
  await signIn(page, 'alice', DEMO.alice)
  const repo = 'alice/toxicity-tiny'
  for (const [path, title] of [
    [`/${repo}`, `${repo} · ModHub`],
    [`/${repo}?tab=files`, `Files · ${repo} · ModHub`],
    [`/${repo}?tab=history`, `History · ${repo} · ModHub`],
    [`/${repo}?tab=settings`, `Settings · ${repo} · ModHub`],
    [`/${repo}/blob/main/README.md`, `README.md · ${repo} at main · ModHub`],
    ['/datasets/alice/private-notes?tab=files', 'Files · alice/private-notes · ModHub'],
  ]) {
    await page.goto(path)
    await expect(page, path).toHaveTitle(title)
  }
  // A dataset's file has its editor under /datasets, titled as its page is.
  await page.goto('/datasets/alice/private-notes/blob/main/.gitattributes')
  await expect(page).toHaveTitle('.gitattributes · alice/private-notes at main · ModHub')
  await page.getByRole('link', { name: 'Edit .gitattributes' }).click()
  await expect(page).toHaveURL(/\/datasets\/alice\/private-notes\/edit\/main\/.gitattributes$/)
  await expect(page).toHaveTitle('Edit .gitattributes · alice/private-notes at main · ModHub')
  await expect(page.getByLabel('File contents')).toHaveValue(/filter=lfs/)
})

test('profiles offer "New repository" to who may create one there; repository tabs scroll sideways on a phone', async ({ page }) => {
  await signIn(page, 'dave', DEMO.dave)
  await page.goto('/dave')
  await expect(page.getByText('No repositories yet.')).toBeVisible()
  const newRepo = page.getByRole('region', { name: /Repositories/ }).getByRole('link', { name: 'New repository' })
  await expect(newRepo).toHaveAttribute('href', '/new?namespace=dave')
  // dave contributes to open-lab (may create), reads acme-ai (may not), and is not alice.
  await page.goto('/open-lab')
  await expect(page.getByRole('link', { name: 'New repository' })).toHaveAttribute('href', '/new?namespace=open-lab')
  await page.goto('/acme-ai')
  await expect(page.getByRole('link', { name: 'New repository' })).toHaveCount(0)
  await page.goto('/alice')
  await expect(page.getByRole('link', { name: 'New repository' })).toHaveCount(0)
  await page.goto('/open-lab')
  await page.getByRole('link', { name: 'New repository' }).click()
  await expect(page).toHaveURL(/\/new\?namespace=open-lab$/)
  await expect(page.getByLabel('Owner')).toHaveValue('open-lab')

  // The owner's tabs on a phone: one row that scrolls, Settings on it, focus outlines inside.
  await page.context().clearCookies()
  await signIn(page, 'alice', DEMO.alice)
  await page.setViewportSize(PHONE)
  await page.goto('/alice/toxicity-tiny')
  const tabs = page.getByRole('navigation', { name: 'Repository' })
  const links = tabs.getByRole('link')
  await expect(links).toHaveCount(4)
  const tops = await links.evaluateAll((as) => as.map((a) => Math.round(a.getBoundingClientRect().top)))
  expect(new Set(tops).size, `tab rows at ${tops}`).toBe(1)
  // Where the row is longer than the screen, it scrolls rather than wraps.
  expect(await tabs.evaluate((nav) => [getComputedStyle(nav).overflowX, getComputedStyle(nav).flexWrap])).toEqual(['auto', 'nowrap'])
  // Below sm the files tab shows a short label; its name stays the full one.
  expect(await tabs.getByRole('link', { name: 'Files and versions' }).evaluate((a: HTMLElement) => a.innerText)).toBe('Files')
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
  const settings = tabs.getByRole('link', { name: 'Settings' })
  await settings.focus()
  const focus = await settings.evaluate((a) => ({ visible: a.matches(':focus-visible'), offset: getComputedStyle(a).outlineOffset, style: getComputedStyle(a).outlineStyle }))
  if (focus.visible) expect(focus).toEqual({ visible: true, offset: '-2px', style: 'solid' })
  await expect(settings).toBeInViewport({ ratio: 1 })
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/ux-phone-tabs.png` })
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\?tab=settings$/)
})
