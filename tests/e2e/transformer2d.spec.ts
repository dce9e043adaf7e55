// Transformer2DModel in Chromium: the demo page runs a forward from the demo repos on WASM, on the
// server and side by side (the largest difference shown), and golden cases of every input mode
// (read from ../shared/golden in this test process) replay in the page within the manifest's tolerance.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createRepo, deleteRepo, uploadFiles } from '@huggingface/hub'
import { expect, test } from '@playwright/test'
import { caseDir, compare, goldenCases, readTensors } from '../unit/transformer2d/golden'
import { createToken, DEMO, signIn, watchErrors } from './helpers'
import { openReplay, replayOnce, replayRequest } from './transformer2d-helpers'

test('the demo page runs both demo models in the browser and shows output, timing and device', async ({ page }) => {
  const errors = watchErrors(page)
  await page.goto('/transformer2d')
  await expect(page.getByRole('heading', { name: 'Transformer2DModel in the browser' })).toBeVisible()
  for (const [label, dims] of [
    ['Continuous', '[1, 8, 32, 32]'],
    ['Discrete', '[1, 16, 256]'],
  ]) {
    await page.getByLabel(new RegExp(`^${label}`)).check()
    await page.getByRole('button', { name: 'Run forward' }).click()
    await expect(page.getByTestId('t2d-dims')).toHaveText(dims, { timeout: 30_000 })
    await expect(page.getByTestId('t2d-device')).toHaveText(/^(webgpu|wasm)$/)
    await expect(page.getByTestId('t2d-forward-ms')).toHaveText(/ms$/)
  }
  expect(errors).toEqual([])
})

test('side by side: the demo repo runs in the browser and through the server route, and the largest difference is shown', async ({ page }) => {
  test.setTimeout(120_000)
  const errors = watchErrors(page)
  const modelFiles: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.includes('/resolve/')) modelFiles.push(url.pathname)
  })
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/transformer2d')
  for (const [label, dims] of [
    ['Continuous', '[1, 8, 32, 32]'],
    ['Discrete', '[1, 16, 256]'],
  ]) {
    await page.getByLabel(new RegExp(`^${label}`)).check()
    await page.getByLabel('Side by side').check()
    await page.getByRole('button', { name: 'Run forward' }).click()
    await expect(page.getByTestId('t2d-difference')).toBeVisible({ timeout: 60_000 })
    await expect(page.getByTestId('t2d-dims')).toHaveText(dims)
    await expect(page.getByTestId('t2d-server-dims')).toHaveText(dims)
    await expect(page.getByTestId('t2d-device')).toHaveText(/^(webgpu|wasm)$/)
    await expect(page.getByTestId('t2d-server-device')).toHaveText('server')
    const difference = Number(await page.getByTestId('t2d-difference').getAttribute('data-max-abs-diff'))
    // The same graph on onnxruntime-web and onnxruntime-node: float32 rounding apart, not a different model.
    expect(difference).toBeGreaterThanOrEqual(0)
    expect(difference).toBeLessThan(1e-3)
    await page.screenshot({ path: `.tmp/screens/transformer2d-side-by-side-${label.toLowerCase()}.png`, fullPage: true })
  }
  // The browser read the demo repos' files through the hub's /resolve/ route, not public/.
  expect(modelFiles.some((p) => p.startsWith('/open-lab/tiny-transformer2d/resolve/main/transformer/'))).toBe(true)
  expect(modelFiles.some((p) => p.startsWith('/open-lab/tiny-transformer2d-discrete/resolve/main/transformer/'))).toBe(true)
  expect(errors).toEqual([])
})

test('signed out, the server runs are off, with a way to sign in', async ({ page }) => {
  await page.goto('/transformer2d')
  await expect(page.getByLabel('On the server')).toBeDisabled()
  await expect(page.getByLabel('Side by side')).toBeDisabled()
  await expect(page.getByLabel('Run in this browser')).toBeChecked()
  await page.getByRole('link', { name: 'Sign in', exact: true }).last().click()
  await expect(page).toHaveURL(/\/login\?next=%2Ftransformer2d|\/login\?next=\/transformer2d/)
})

// One case per input mode (continuous with masks, discrete, DiT and PixArt patched).
const REPLAYED = ['cont_conv_cross_attnmask', 'cont_sd15_like', 'vq_ada_norm_partial_2layers', 'dit_ada_norm_zero', 'pixart_ada_norm_single_addcond']

for (const name of REPLAYED) {
  test(`golden case ${name} replays in Chromium on WASM within tolerance`, async ({ page }) => {
    const c = goldenCases().find((g) => g.name === name)!
    await openReplay(page)
    const result = await replayOnce(page, replayRequest(c))
    expect(result.loaded).toMatchObject({ device: 'wasm', dtype: 'float32' })
    expect(result.dims).toEqual(c.output.shape)
    const expected = readTensors(path.join(caseDir(c), 'outputs.safetensors')).get('sample')!.data as Float32Array
    const { atol, rtol } = c.recommended_tolerance
    const { maxAbsDiff, violations } = compare(result.data, expected, atol, rtol)
    expect(violations, `max |diff| ${maxAbsDiff.toExponential(2)} (atol ${atol}, rtol ${rtol})`).toBe(0)
  })
}

test('the size check reads a repo\'s config.json from the hub and says whether a real-size model fits, before any weights', async ({ page }) => {
  const errors = watchErrors(page)
  const requests: string[] = []
  page.on('request', (r) => requests.push(new URL(r.url()).pathname))
  await page.goto('/transformer2d')
  const repo = page.getByLabel(/^Model repo/)
  const subfolder = page.getByLabel('Subfolder')
  const fit = page.getByTestId('t2d-fit')
  await expect(repo).toHaveValue('open-lab/pixart-xl-2-512')
  await page.getByRole('button', { name: 'Check size' }).click()
  // PixArt-XL-2's 2.44 GB of float32 weights are graph inputs now: past one .onnx file's 2 GB, within WASM's 4 GiB.
  await expect(page.getByTestId('t2d-fit-wasm')).toHaveText(/^Fits on WebAssembly: 2\.44 GB of float32 weights plus 536\.9 MB of working memory, within its 4\.29 GB address space\.$/)
  await expect(page.getByTestId('t2d-fit-wasm')).toHaveAttribute('data-fits', 'true')
  await expect(page.getByTestId('t2d-fit-webgpu')).toHaveText(/^(WebGPU: this browser has no WebGPU adapter\.|Fits on this WebGPU adapter: its largest (float16 )?weight \((31\.9|15\.9) MB\)|Does not fit on this WebGPU adapter: its largest (float16 )?weight takes (31\.9|15\.9) MB)/)
  await expect(fit).toHaveAttribute('data-location', 'open-lab/pixart-xl-2-512@main/transformer')
  await fit.scrollIntoViewIfNeeded()
  await page.screenshot({ path: '.tmp/screens/transformer2d-fit-pixart.png', fullPage: true })
  await repo.fill('open-lab/tiny-transformer2d@main')
  await page.getByRole('button', { name: 'Check size' }).click()
  await expect(page.getByTestId('t2d-fit-wasm')).toHaveText(/^Fits on WebAssembly: (\d+\.\d MB|\d+ bytes) of float32 weights/)
  // Only the two config files travelled, from the repos' /resolve/ URLs; nothing under public/models.
  expect(requests.filter((p) => p.includes('/resolve/') || p.startsWith('/models/'))).toEqual([
    '/open-lab/pixart-xl-2-512/resolve/main/transformer/config.json',
    '/open-lab/tiny-transformer2d/resolve/main/transformer/config.json',
  ])
  // A repo without the file, and one that does not exist: a message naming the repo, never a crash.
  await subfolder.fill('')
  await page.getByRole('button', { name: 'Check size' }).click()
  await expect(fit).toHaveText('open-lab/tiny-transformer2d@main has no config.json.')
  await repo.fill('open-lab/no-such-model')
  await subfolder.fill('transformer')
  await page.getByRole('button', { name: 'Check size' }).click()
  await expect(fit).toContainText('open-lab/no-such-model@main/transformer: config.json: the repo or revision does not exist')
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 })
    expect(await page.locator('main').evaluate((m) => m.scrollWidth - m.clientWidth)).toBeLessThanOrEqual(0)
    await page.locator('#fit-heading').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `.tmp/screens/transformer2d-fit-${width}.png`, fullPage: true })
  }
  expect(errors.filter((e) => !e.includes('status of 404'))).toEqual([])
})

test('a model over WebAssembly\'s 4 GiB is refused by the size check with the size it needs', async ({ page, baseURL }) => {
  await signIn(page, 'alice', DEMO.alice)
  const accessToken = await createToken(page, `t2d-fit-${Date.now()}`, 'Write')
  const name = `alice/t2d-too-big-${Date.now()}`
  // PixArt-XL-2 widths with 48 layers: 4.2 GB of float32 weights. Only config.json is uploaded; the check reads nothing else.
  const config = JSON.parse(readFileSync('public/models/transformer2d/pixart-xl-2-512/config.json', 'utf8'))
  await createRepo({ repo: name, accessToken, hubUrl: baseURL!, private: true })
  await uploadFiles({ repo: name, accessToken, hubUrl: baseURL!, files: [{ path: 'transformer/config.json', content: new Blob([JSON.stringify({ ...config, num_layers: 48 })]) }] })
  try {
    await page.goto('/transformer2d')
    await page.getByLabel(/^Model repo/).fill(name)
    await page.getByRole('button', { name: 'Check size' }).click()
    await expect(page.getByTestId('t2d-fit-wasm')).toHaveText(/^Does not fit on WebAssembly: its float32 weights take 4\.\d\d GB and a forward needs about 4\.\d\d GB with working memory, over WebAssembly's 4\.29 GB address space\.$/)
    await expect(page.getByTestId('t2d-fit-wasm')).toHaveAttribute('data-fits', 'false')
    await page.screenshot({ path: '.tmp/screens/transformer2d-fit-too-big.png', fullPage: true })
  } finally {
    await deleteRepo({ repo: name, accessToken, hubUrl: baseURL! })
  }
})

test('weight files download with a progress bar once, then load from the browser\'s cache', async ({ page }) => {
  const errors = watchErrors(page)
  const weightRequests: { path: string; range: string | null }[] = []
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.pathname.endsWith('.safetensors')) weightRequests.push({ path: url.pathname, range: r.headers().range ?? null })
  })
  await page.goto('/transformer2d')
  await page.evaluate(() => caches.delete('transformer2d-weights'))
  const download = page.getByTestId('t2d-download')
  await page.getByRole('button', { name: 'Run forward' }).click()
  await expect(page.getByTestId('t2d-dims')).toHaveText('[1, 8, 32, 32]', { timeout: 30_000 })
  await expect(download).toHaveAttribute('data-source', 'network')
  await expect(download).toHaveText(/diffusion_pytorch_model\.safetensors.*of .*, downloaded and cached$/)
  const progress = download.getByRole('progressbar')
  expect(await progress.getAttribute('value')).toBe(await progress.getAttribute('max'))
  const file = '/open-lab/tiny-transformer2d/resolve/main/transformer/diffusion_pytorch_model.safetensors'
  // The size and ETag (a one-byte range), then the whole file once.
  expect(weightRequests).toEqual([{ path: file, range: 'bytes=0-0' }, { path: file, range: null }])
  await page.screenshot({ path: '.tmp/screens/transformer2d-download.png', fullPage: true })

  weightRequests.length = 0
  await page.reload()
  await page.getByRole('button', { name: 'Run forward' }).click()
  await expect(page.getByTestId('t2d-dims')).toHaveText('[1, 8, 32, 32]', { timeout: 30_000 })
  await expect(download).toHaveAttribute('data-source', 'cache')
  await expect(download).toHaveText(/diffusion_pytorch_model\.safetensors.*from this browser's cache$/)
  // From the cache: only the one-byte request that says which content the file has now.
  expect(weightRequests).toEqual([{ path: file, range: 'bytes=0-0' }])
  expect(errors).toEqual([])
})
