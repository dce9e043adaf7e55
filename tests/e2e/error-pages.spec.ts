// What a server does with a database it cannot work with: one without this version's migrations
// does not start (it says what to run); one that fails while a page renders (a table gone, as an
// outage leaves a query) shows a finished page that says what to do, not Next's bare
// "Application error".
import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { createClient } from '@libsql/client'
import { expect, test } from '@playwright/test'

const port = Number(process.env.E2E_PORT ?? 3600) + 8

function startHub(file: string) {
  const child = spawn(process.execPath, ['scripts/serve.mjs'], { env: { ...process.env, PORT: String(port), DATABASE_URL: `file:${file}` }, stdio: ['ignore', 'pipe', 'pipe'] })
  const output = { text: '' }
  child.stdout!.on('data', (d) => (output.text += d))
  child.stderr!.on('data', (d) => (output.text += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output, exited }
}

function removeDatabase(file: string) {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true })
}

test('a server on a database without this version\'s migrations does not start, and says what to run', async () => {
  test.setTimeout(60_000)
  const file = path.resolve(`.tmp/e2e-unmigrated-${process.pid}.db`)
  const hub = startHub(file)
  try {
    expect(await hub.exited).toBe(1)
    expect(hub.output.text).toMatch(/ModHub cannot start: the database lacks \d+ of this version's migrations \(20261122160000_init, .*\); run `npm run db:migrate`/)
  } finally {
    hub.child.kill('SIGKILL')
    removeDatabase(file)
  }
})

test('a page the server cannot render says the hub could not answer, with a way on', async ({ page }) => {
  test.setTimeout(90_000)
  const file = path.resolve(`.tmp/e2e-broken-${process.pid}.db`)
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/db.ts', 'deploy'], { env: { ...process.env, DATABASE_URL: `file:${file}` } })
  const database = createClient({ url: `file:${file}` })
  await database.execute('DROP TABLE "Repo"')
  database.close()
  const hub = startHub(file)
  try {
    for (let i = 0; i < 120 && !hub.output.text.includes(`listening on port ${port}`); i++) await new Promise((r) => setTimeout(r, 250))
    expect(hub.output.text).toContain(`listening on port ${port}`)
    const answer = await page.goto(`http://localhost:${port}/models`)
    expect(answer?.status()).toBe(500)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/could not (answer|be shown)/)
    await expect(page.getByText('If its database or file store is restarting, this clears up in a few seconds', { exact: false })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/')
    await expect(page.getByText('Application error')).toHaveCount(0)
  } finally {
    hub.child.kill('SIGKILL')
    removeDatabase(file)
  }
})
