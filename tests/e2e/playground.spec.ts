// The moderation playground in Debian Chromium: every check the hub can run in the browser runs
// on WASM and on the server with the same answers; unavailable checks say how to install them;
// personal data and invisible characters are drawn (screenshot); model files come from the hub's
// model repos (their /resolve/ URLs) and are cached.
import { expect, test, type Request, type Route } from '@playwright/test'
import { PLAYGROUND_CHECKS } from '@/lib/moderation/browser/catalog'
import { AGREEMENT_TOLERANCE, compareAnswers } from '@/lib/moderation/browser/compare'
import { EXAMPLES } from '@/app/playground/examples'
import { invisibleTextEngine } from '@/lib/moderation/engines/invisible-text'
import { presidioStyleEngine } from '@/lib/moderation/engines/privacy'
import { vaderSentimentEngine } from '@/lib/moderation/engines/sentiment/vader'
import { DEMO, signIn, watchErrors } from './helpers'
import { answerOf, choose, expectBothSidesAnswer, runChecks } from './playground-helpers'

/** Engines that are plain TypeScript run as JavaScript in the browser; every other one is an ONNX graph on WASM. */
const RULE_BASED = new Set([presidioStyleEngine.name, vaderSentimentEngine.name, invisibleTextEngine.name])
const ALL = PLAYGROUND_CHECKS.map((c) => c.path)
const example = (label: string) => EXAMPLES.find((e) => e.label === label)!.text

test('browser (WASM) and server answer every available check alike', async ({ page }) => {
  test.setTimeout(180_000)
  const errors = watchErrors(page)
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/playground')
  await expect(page.getByRole('heading', { name: 'Moderation playground' })).toBeVisible()
  let compared = 0
  for (const label of ['Personal data', 'Invisible text', 'Prompt injection', 'Code', 'Toxic']) {
    await choose(page, { text: example(label), checks: ALL, mode: 'compare', device: 'wasm' })
    await runChecks(page, 120_000)
    for (const check of ALL) {
      const browser = await answerOf(page, check, 'browser')
      const server = await answerOf(page, check, 'server')
      if (browser.kind === 'unavailable') {
        // Honest about what is missing: the server cannot answer with a model the hub lacks either,
        // or runs an offline engine that has no browser build (the message says so).
        expect(browser.text).toMatch(/npm run models:pull \w+|no browser build/)
        if (/models:pull/.test(browser.text)) expect(server.kind, `${check} on the server`).toBe('unavailable')
        continue
      }
      expect(browser.kind, `${check} in the browser: ${JSON.stringify(browser)}`).toBe('answer')
      expect(server.kind, `${check} on the server: ${JSON.stringify(server)}`).toBe('answer')
      if (browser.kind !== 'answer' || server.kind !== 'answer') continue
      expect(browser.engine, check).toBe(server.engine)
      expect(server.device).toBe('server')
      expect(browser.device, check).toBe(RULE_BASED.has(browser.engine) ? 'javascript' : 'wasm')
      const difference = compareAnswers(browser.body, server.body)
      expect(difference.mismatches, `${check} on "${label}"`).toEqual([])
      expect(difference.maxAbsDifference, `${check} on "${label}"`).toBeLessThanOrEqual(AGREEMENT_TOLERANCE)
      await expect(page.getByTestId(`result-${check}`).getByTestId('difference')).toHaveAttribute('data-agree', 'true')
      compared++
    }
  }
  await page.screenshot({ path: '.tmp/screens/playground-compare.png', fullPage: true })
  // At least the rule-based engines (privacy, sentiment, invisible text) and the offline graphs run in both places.
  expect(compared).toBeGreaterThanOrEqual(5 * 5)
  // A check the server cannot answer is a 503, which Chromium logs; nothing else may fail.
  expect(errors.filter((e) => !e.includes('status of 503'))).toEqual([])
})

test('custom topic labels: browser and server score each label alike, and the offline engine ranks them', async ({ page }) => {
  test.setTimeout(120_000)
  const errors = watchErrors(page)
  await signIn(page, 'alice', DEMO.alice)
  await page.goto('/playground')
  // Labels besides the defaults, one the text is about (read through inflected verbs: "stalked", "hacked") and one it is not.
  await choose(page, { text: 'He stalked his ex for weeks and hacked into her email account.', checks: ['restrictedtopicmodel'], mode: 'compare', device: 'wasm' })
  await page.getByLabel('Topic labels (comma separated)').fill('Harassment, Hacking, Gardening')
  const server = await expectBothSidesAnswer(page, 'restrictedtopicmodel')
  if (server.kind !== 'answer') return
  const body = server.body as { labels: string[]; scores: number[] }
  expect([...body.labels].sort()).toEqual(['Gardening', 'Hacking', 'Harassment'])
  // The offline engine is built for this; a neural model here may be a random-weight test model.
  if (server.engine.startsWith('offline:')) {
    const score = (label: string) => body.scores[body.labels.indexOf(label)]
    expect(score('Hacking')).toBeGreaterThan(0.5)
    expect(score('Harassment')).toBeGreaterThan(0.5)
    expect(score('Gardening')).toBeLessThan(0.5)
  }
  expect(errors).toEqual([])
})

test('ONNX engines run on WASM, rule-based ones as JavaScript; the devices are shown', async ({ page }) => {
  await page.goto('/playground')
  await choose(page, { text: example('Prompt injection'), checks: ['promptinjectionmodel', 'bancodemodel', 'sentimentmodel'], device: 'wasm' })
  await runChecks(page)
  const injection = await answerOf(page, 'promptinjectionmodel', 'browser')
  test.skip(injection.kind !== 'answer', 'no prompt-injection engine is browser-ready on this hub')
  expect(injection).toMatchObject({ device: 'wasm', body: [expect.stringMatching(/^(INJECTION|LEGIT)$/), expect.any(Number), expect.anything()] })
  // The offline engine is trained for this; a neural model here may be the random-weight test model.
  if (injection.kind === 'answer' && injection.engine.startsWith('offline:')) expect((injection.body as unknown[])[0]).toBe('INJECTION')
  expect(await answerOf(page, 'bancodemodel', 'browser')).toMatchObject({ device: 'wasm' })
  expect(await answerOf(page, 'sentimentmodel', 'browser')).toMatchObject({ device: 'javascript', engine: 'offline:vader' })
  await expect(page.getByTestId('result-promptinjectionmodel').getByTestId('browser-device')).toHaveText('WASM')
})

test('signed out: browser mode only; personal data highlighted and invisible characters shown with code points', async ({ page }) => {
  const errors = watchErrors(page)
  await page.goto('/playground')
  await expect(page.getByRole('radio', { name: 'On the server' })).toBeDisabled()
  await expect(page.getByRole('radio', { name: 'Side by side: browser and server' })).toBeDisabled()
  const text = 'Hi, I am Priya Sharma. Call +1 415 555 0132 or mail priya.sharma@example.com; card 4111 1111 1111 1111. re\u200bset pass\u200dword\u2060 \u{1F600}'
  await choose(page, { text, checks: ['privacy', 'invisibletextmodel'] })
  // Keyboard only: Ctrl+Enter in the text runs the checks.
  await page.getByLabel('Text to check').press('Control+Enter')
  await expect(page.getByTestId('result-invisibletextmodel').getByTestId('browser-answer')).toBeVisible()
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'idle')
  const privacy = page.getByTestId('result-privacy')
  const types = await privacy.getByTestId('pii-span').evaluateAll((spans) => spans.map((s) => s.getAttribute('data-type')))
  expect(types).toEqual(expect.arrayContaining(['PERSON', 'PHONE_NUMBER', 'EMAIL_ADDRESS', 'CREDIT_CARD']))
  await expect(privacy.getByTestId('pii-span').filter({ hasText: 'priya.sharma@example.com' })).toContainText('EMAIL_ADDRESS')
  // The type label is drawn (a <sup> has line-height 0 in the base styles: an inline block of it had no height, its background none).
  const label = privacy.getByTestId('pii-span').first().locator('sup')
  expect((await label.boundingBox())!.height).toBeGreaterThan(8)
  const invisible = page.getByTestId('result-invisibletextmodel')
  await expect(invisible.getByTestId('invisible-char')).toHaveText(['U+200B', 'U+200D', 'U+2060', 'U+1F600'])
  await page.getByRole('region', { name: 'Results' }).screenshot({ path: '.tmp/screens/playground-pii-invisible.png' })
  // A narrow screen: the form stacks above the results and nothing in the page overflows sideways.
  await page.setViewportSize({ width: 390, height: 844 })
  const main = page.locator('main')
  expect(await main.evaluate((m) => m.scrollWidth - m.clientWidth)).toBeLessThanOrEqual(0)
  await page.screenshot({ path: '.tmp/screens/playground-mobile.png', fullPage: true })
  expect(errors).toEqual([])
})

test('model files come from the hub once; a reload runs from the Cache API with no model request', async ({ page }) => {
  test.setTimeout(120_000)
  const modelRequests: string[] = []
  const outside: string[] = []
  page.on('request', (request: Request) => {
    const url = new URL(request.url())
    // blob: URLs are the page's own memory (transformers.js's onnxruntime glue, handed over as a blob), not requests.
    if (url.protocol !== 'blob:' && url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') outside.push(request.url())
    if (url.pathname.includes('/resolve/') || /^\/ort\/.*\.(wasm|mjs)$/.test(url.pathname)) modelRequests.push(url.pathname)
  })
  await page.goto('/playground')
  await choose(page, { text: example('Code'), checks: ALL, device: 'wasm' })
  // No layout jump: the results start where they started while the file list fills up.
  const resultsTop = () => page.getByRole('region', { name: 'Results' }).evaluate((r) => r.getBoundingClientRect().top + window.scrollY)
  const topBefore = await resultsTop()
  await runChecks(page)
  expect(await resultsTop()).toBe(topBefore)
  const first = [...modelRequests]
  test.skip(first.length === 0, 'no check on this hub needs a model file in the browser')
  expect(first.some((p) => p.startsWith('/ort/'))).toBe(true)
  // Every model file is the hub's /resolve/ URL of a model repo, pinned to a commit (transformers.js's remotePathTemplate).
  const modelFiles = first.filter((p) => !p.startsWith('/ort/'))
  expect(modelFiles.length).toBeGreaterThan(0)
  for (const p of modelFiles) expect(p).toMatch(/^\/[\w.-]+\/[\w.-]+\/resolve\/[0-9a-f]{40}\/[\w./+-]+$/)
  await expect(page.getByTestId('file-progress').first()).toContainText('/s')
  // Neural models load through transformers.js, on its own onnxruntime-web build, which the hub serves under /ort/<version>/.
  if ((await page.getByTestId('plan-detoxifymodel').textContent())?.includes('browser: neural:')) {
    expect(first.filter((p) => /^\/ort\/\d[^/]*\/ort-wasm-simd-threaded\.asyncify\.(wasm|mjs)$/.test(p))).toHaveLength(2)
  }

  modelRequests.length = 0
  await page.reload()
  await choose(page, { text: example('Code'), checks: ALL, device: 'wasm' })
  await runChecks(page)
  expect(modelRequests).toEqual([])
  const sources = await page.getByTestId('file-progress').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-source')))
  expect(sources.length).toBe(new Set(first).size)
  expect(new Set(sources)).toEqual(new Set(['cache']))
  expect(outside).toEqual([])
})

test('cancelling a model download stops it and the next run still works', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/playground')
  await choose(page, { text: example('Code'), checks: ['bancodemodel'], device: 'wasm' })
  const plan = await page.getByTestId('plan-bancodemodel').textContent()
  test.skip(!/browser: (offline:bancode|neural:)/.test(plan ?? ''), 'the code check has no ONNX engine in the browser here')
  // Hold the runtime download so that it is still in flight when Cancel is pressed.
  const held: Route[] = []
  const runtimeBinary = (url: URL) => url.pathname.startsWith('/ort/') && url.pathname.endsWith('.wasm')
  await page.route(runtimeBinary, (route) => void held.push(route))
  await page.getByRole('button', { name: 'Run checks' }).click()
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'loading')
  await expect.poll(() => held.length).toBe(1)
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'cancelled')
  await expect(page.getByTestId('phase')).toHaveText(/Cancelled/)
  await page.unroute(runtimeBinary)
  await held[0].abort().catch(() => undefined)
  await runChecks(page)
  expect(await answerOf(page, 'bancodemodel', 'browser')).toMatchObject({ kind: 'answer', device: 'wasm' })
})

test('model files are served by the hub\'s /resolve/ route only: /model-files is gone', async ({ request }) => {
  expect((await request.get('/model-files/offline/bancode.onnx')).status()).toBe(404)
  const head = await request.get('/api/models/hub-models/offline-moderation/revision/main')
  expect(head.status()).toBe(200)
  const { sha } = (await head.json()) as { sha: string }
  const graph = await request.get(`/hub-models/offline-moderation/resolve/${sha}/bancode.onnx`)
  expect(graph.status()).toBe(200)
  expect((await graph.body()).byteLength).toBeGreaterThan(1000)
})
