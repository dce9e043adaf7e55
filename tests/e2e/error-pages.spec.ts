// A page whose rendering fails on the server (here: a database without the hub's tables, as an
// outage or a forgotten migration leaves it) shows a finished page that says what to do, not
// Next's bare "Application error".
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'

const port = Number(process.env.E2E_PORT ?? 3600) + 8
const file = path.resolve(`.tmp/e2e-unmigrated-${process.pid}.db`)
let hub: ChildProcess
let log = ''

test.beforeAll(async () => {
  hub = spawn(process.execPath, ['scripts/serve.mjs'], { env: { ...process.env, PORT: String(port), DATABASE_URL: `file:${file}` }, stdio: ['ignore', 'pipe', 'pipe'] })
  hub.stdout!.on('data', (d) => (log += d))
  hub.stderr!.on('data', (d) => (log += d))
  for (let i = 0; i < 120 && !log.includes(`listening on port ${port}`); i++) await new Promise((r) => setTimeout(r, 250))
  expect(log).toContain(`listening on port ${port}`)
})

test.afterAll(() => {
  hub.kill('SIGKILL')
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true })
})

test('a page the server cannot render says the hub could not answer, with a way on', async ({ page }) => {
  const answer = await page.goto(`http://localhost:${port}/models`)
  expect(answer?.status()).toBe(500)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/could not (answer|be shown)/)
  await expect(page.getByText('If its database or file store is restarting, this clears up in a few seconds', { exact: false })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/')
  await expect(page.getByText('Application error')).toHaveCount(0)
  await page.screenshot({ path: test.info().outputPath('error-page.png') })
})
