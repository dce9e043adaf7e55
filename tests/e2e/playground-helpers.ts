// Drives the moderation playground page: pick text, checks, mode and device, run, read answers.
import { expect, type Page } from '@playwright/test'
import { PLAYGROUND_CHECKS, type CheckPath } from '@/lib/moderation/browser/catalog'

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
