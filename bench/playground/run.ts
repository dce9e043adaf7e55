/**
 * Moderation playground benchmark in Debian Chromium (headless, WASM) against a production build:
 * time to first result with a cold and a warm model cache, and per-check latency in the browser
 * (WASM, or plain JavaScript for the rule-based engines) next to the server (HTTP round trip
 * from the same page, same checks). Run once on the offline engines and once with the seeded tiny
 * neural model repos (MODERATION_MODEL_<CHECK>): the browser loads both from the hub's model repos.
 *
 *   source scripts/env.sh; export NEXT_DIST_DIR=.next-bench DATABASE_URL=file:./.tmp/bench-playground.db
 *   npx tsx scripts/db.ts deploy && npx tsx scripts/seed.ts && node scripts/copy-ort.mjs && npx next build
 *   npx tsx bench/playground/run.ts > bench/playground/RESULTS.md
 *
 * Each configuration starts its own `next start` (BENCH_PORT, default 3690).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { chromium, type Page } from 'playwright-core'
import { EXAMPLES } from '@/app/playground/examples'
import { PLAYGROUND_CHECKS } from '@/lib/moderation/browser/catalog'

const PORT = Number(process.env.BENCH_PORT ?? 3690)
const BASE = `http://localhost:${PORT}`
const REPETITIONS = 5
const TINY_REPOS: Record<string, string> = {
  MODERATION_MODEL_TOXICITY: 'hub-models/unbiased-toxic-roberta-tiny',
  MODERATION_MODEL_PROMPT_INJECTION: 'hub-models/deberta-v3-base-injection-tiny',
  MODERATION_MODEL_TOPIC: 'hub-models/deberta-v3-base-zeroshot-v2.0-tiny',
  MODERATION_MODEL_TOPIC_MINI: 'hub-models/nli-MiniLM2-L6-H768-tiny',
  MODERATION_MODEL_EMBEDDING: 'hub-models/multi-qa-mpnet-base-dot-v1-tiny',
  MODERATION_MODEL_GIBBERISH: 'hub-models/autonlp-Gibberish-Detector-492513457-tiny',
  MODERATION_MODEL_BANCODE: 'hub-models/codenlbert-tiny',
}
const CONFIGURATIONS = [
  { name: 'offline engines', env: {} },
  { name: 'tiny neural models (seeded repos)', env: TINY_REPOS },
]

async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const server = spawn('npx', ['next', 'start', '-p', String(PORT)], {
    env: { ...process.env, ...env, HUB_URL: BASE, PORT: String(PORT), MODERATION_RATE_LIMIT_PER_MINUTE: '0' },
    stdio: 'ignore',
    detached: true,
  })
  for (let i = 0; i < 120; i++) {
    if (await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false)) return server
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error('the server did not start')
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function choose(page: Page, mode: 'browser' | 'server') {
  await page.getByLabel('Text to check').fill(EXAMPLES.find((e) => e.label === 'Personal data')!.text)
  for (const check of PLAYGROUND_CHECKS) await page.getByRole('checkbox', { name: check.title, exact: true }).check()
  await page.getByRole('radio', { name: mode === 'browser' ? 'In this browser' : 'On the server' }).check()
  await page.getByLabel('Browser device').selectOption('wasm')
}

/** Clicks Run; returns ms to the first answer and to the last. */
async function run(page: Page, side: 'browser' | 'server'): Promise<{ first: number; all: number }> {
  const started = Date.now()
  await page.getByRole('button', { name: 'Run checks' }).click()
  await page.locator(`[data-testid="${side}-answer"], [data-testid="${side}-unavailable"]`).first().waitFor({ timeout: 120_000 })
  const first = Date.now() - started
  await page.locator('[data-phase="idle"]').waitFor({ timeout: 120_000 })
  await page.waitForFunction(() => document.querySelectorAll('[data-testid$="-pending"]').length === 0)
  return { first, all: Date.now() - started }
}

async function latencies(page: Page, side: 'browser' | 'server'): Promise<Record<string, { ms: number; engine: string; device: string }>> {
  return page.evaluate((s) => {
    const out: Record<string, { ms: number; engine: string; device: string }> = {}
    for (const card of document.querySelectorAll('[data-testid^="result-"]')) {
      const answer = card.querySelector(`[data-testid="${s}-answer"]`)
      if (!answer) continue
      out[card.getAttribute('data-testid')!.slice('result-'.length)] = {
        ms: Number(answer.getAttribute('data-milliseconds')),
        engine: answer.getAttribute('data-engine')!,
        device: answer.getAttribute('data-device')!,
      }
    }
    return out
  }, side)
}

async function measure(name: string, env: Record<string, string>): Promise<string[]> {
  const server = await startServer(env)
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1'],
  })
  try {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${BASE}/login`)
    await page.getByLabel('Username or e-mail').fill('alice')
    await page.getByLabel('Password').fill('alice-demo-pass')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: 'Sign out' }).waitFor()

    await page.goto(`${BASE}/playground`)
    await choose(page, 'browser')
    const cold = await run(page, 'browser')
    await page.reload()
    await choose(page, 'browser')
    const warm = await run(page, 'browser')

    const perCheck: Record<string, { browser: number[]; server: number[]; engine: string; device: string }> = {}
    for (const side of ['browser', 'server'] as const) {
      await choose(page, side)
      for (let i = 0; i < REPETITIONS; i++) {
        await run(page, side)
        for (const [check, value] of Object.entries(await latencies(page, side))) {
          perCheck[check] ??= { browser: [], server: [], engine: value.engine, device: '' }
          perCheck[check][side].push(value.ms)
          if (side === 'browser') perCheck[check].device = value.device
        }
      }
    }
    const lines = [
      `### ${name}`,
      '',
      `Time to first result in the browser (all ten checks selected, WASM): cold cache ${cold.first} ms (all answers ${cold.all} ms), warm cache after a reload ${warm.first} ms (all answers ${warm.all} ms).`,
      '',
      '| check | engine | browser device | browser p50 ms | server p50 ms (HTTP round trip) |',
      '|---|---|---|---:|---:|',
    ]
    for (const check of PLAYGROUND_CHECKS) {
      const row = perCheck[check.path]
      if (!row) {
        lines.push(`| ${check.path} | not installed | – | – | – |`)
        continue
      }
      const cell = (values: number[]) => (values.length ? median(values).toFixed(1) : '–')
      lines.push(`| ${check.path} | ${row.engine} | ${row.device || 'no browser build'} | ${cell(row.browser)} | ${cell(row.server)} |`)
    }
    return [...lines, '']
  } finally {
    await browser.close()
    process.kill(-server.pid!)
  }
}

const sections: string[] = []
for (const configuration of CONFIGURATIONS) sections.push(...(await measure(configuration.name, configuration.env)))
console.log(
  [
    '# Moderation playground: browser (WASM) vs server',
    '',
    `Headless Debian Chromium, ${cpus().length} cores shared with other jobs (load average ${loadavg()[0].toFixed(1)} at the end), ` +
      `${REPETITIONS} runs per check, median. Browser times include validation and the API's own answer code; server times are the ` +
      'page\'s fetch round trip. Reproduce: see the header of bench/playground/run.ts.',
    '',
    ...sections,
  ].join('\n'),
)
