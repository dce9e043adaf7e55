// Drives the moderation playground page: pick text, checks, mode and device, run, read answers.
import { expect, type Page } from '@playwright/test'
import { PLAYGROUND_CHECKS, type CheckPath } from '@/lib/moderation/browser/catalog'
import { AGREEMENT_TOLERANCE, compareAnswers } from '@/lib/moderation/browser/compare'

export type Side = 'browser' | 'server'

export async function choose(page: Page, options: { text?: string; checks?: CheckPath[]; mode?: 'browser' | 'server' | 'compare'; device?: 'auto' | 'webgpu' | 'wasm' }) {
  if (options.text !== undefined) await page.getByLabel('Text to check').fill(options.text)
  if (options.checks) {
    for (const check of PLAYGROUND_CHECKS) {
      const box = page.getByRole('checkbox', { name: check.title, exact: true })
      await box.setChecked(options.checks.includes(check.path))
    }
  }
  if (options.mode) {
    const names = { browser: 'In this browser', server: 'On the server', compare: 'Side by side: browser and server' }
    await page.getByRole('radio', { name: names[options.mode] }).check()
  }
  if (options.device) await page.getByLabel('Browser device').selectOption(options.device)
}

/** Runs the chosen checks and waits until no answer is pending. */
export async function runChecks(page: Page, timeout = 60_000) {
  await page.getByRole('button', { name: 'Run checks' }).click()
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'idle', { timeout })
  await expect(page.locator('[data-testid$="-pending"]')).toHaveCount(0, { timeout })
}

export type SideAnswer =
  | { kind: 'answer'; body: unknown; engine: string; device: string; note: string | null }
  | { kind: 'unavailable'; text: string }
  | { kind: 'error'; text: string }

export async function answerOf(page: Page, check: CheckPath, side: Side): Promise<SideAnswer> {
  const card = page.getByTestId(`result-${check}`)
  const answer = card.getByTestId(`${side}-answer`)
  if (await answer.count()) {
    const json = await card.getByTestId(`${side}-json`).textContent()
    const note = card.getByTestId(`${side}-note`)
    return {
      kind: 'answer',
      body: JSON.parse(json!),
      engine: (await answer.getAttribute('data-engine'))!,
      device: (await answer.getAttribute('data-device'))!,
      note: (await note.count()) ? await note.textContent() : null,
    }
  }
  const unavailable = card.getByTestId(`${side}-unavailable`)
  if (await unavailable.count()) return { kind: 'unavailable', text: (await unavailable.textContent())! }
  return { kind: 'error', text: (await card.getByTestId(`${side}-error`).textContent()) ?? 'no answer' }
}

/**
 * Runs the chosen checks side by side and expects `check` to be answered by one engine (`engine` when given) in this
 * browser (WASM) and on the server, with answers that agree. Returns the server's answer.
 */
export async function expectBothSidesAnswer(page: Page, check: CheckPath, engine?: string): Promise<SideAnswer> {
  await runChecks(page, 120_000)
  const browser = await answerOf(page, check, 'browser')
  const server = await answerOf(page, check, 'server')
  const sameEngine = engine === undefined ? {} : { engine }
  expect(browser, JSON.stringify(browser)).toMatchObject({ kind: 'answer', ...sameEngine, device: 'wasm' })
  expect(server, JSON.stringify(server)).toMatchObject({ kind: 'answer', ...sameEngine, device: 'server' })
  if (browser.kind !== 'answer' || server.kind !== 'answer') return server
  expect(browser.engine).toBe(server.engine)
  const difference = compareAnswers(browser.body, server.body)
  expect(difference.mismatches).toEqual([])
  expect(difference.maxAbsDifference).toBeLessThanOrEqual(AGREEMENT_TOLERANCE)
  return server
}

/** The seeded tiny toxicity model (random weights, the real model's layout): what a user "fine-tuned" and publishes. */
export const TINY_TOXICITY_REPO = 'hub-models/unbiased-toxic-roberta-tiny'
const TINY_TOXICITY_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']

/** The tiny toxicity model's files, read from the hub, as @huggingface/hub's uploadFiles takes them. */
export async function tinyToxicityFiles(page: Page) {
  return Promise.all(
    TINY_TOXICITY_FILES.map(async (path) => {
      const response = await page.request.get(`/${TINY_TOXICITY_REPO}/resolve/main/${path}`)
      expect(response.status(), path).toBe(200)
      return { path, content: new Blob([new Uint8Array(await response.body())]) }
    }),
  )
}

/** Picks a model repo for the toxicity check with the keyboard (Enter in the field picks; it does not run the checks). */
export async function pickToxicityRepo(page: Page, value: string) {
  const toxicity = page.getByTestId('check-detoxifymodel')
  const input = toxicity.getByLabel(/^Model repo for Toxicity/)
  if (!(await input.isVisible())) await toxicity.getByText(/Use another model repo|Model:/).click()
  await input.fill(value)
  await input.press('Enter')
  await expect(toxicity.getByRole('button', { name: 'Use' })).toBeVisible()
}
