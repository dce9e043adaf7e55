// `npm run files:cleanup` as an operator runs it from cron: staged bytes older than the grace period
// go, newer ones stay; `--older-than HOURS` sets the period, never under 2 hours (an upload URL is
// valid for one), and a wrong value is refused without touching anything.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-cleanup-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

function stage(name: string, hoursAgo: number): string {
  const file = path.join(root, 'staging', name)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, 'partial upload')
  const when = new Date(Date.now() - hoursAgo * 3600_000)
  fs.utimesSync(file, when, when)
  return file
}

const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/files-cleanup.ts', ...args], { env: { ...process.env, STORAGE: 'disk', STORAGE_DIR: root } }).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (e: { code: number; stderr: string }) => ({ code: e.code, out: e.stderr }),
  )

describe('npm run files:cleanup', () => {
  it('refuses a grace period under 2 hours or not a number, removing nothing', async () => {
    const old = stage('refused-old', 30)
    expect(await run(['--older-than', '1'])).toEqual({ code: 2, out: expect.stringContaining('--older-than takes a number of hours, at least 2') })
    expect(await run(['--older-than', 'soon'])).toEqual({ code: 2, out: expect.stringContaining('got "soon"') })
    expect(fs.existsSync(old)).toBe(true)
  })

  it('removes staged bytes older than the period and keeps newer ones (a day by default, or --older-than)', async () => {
    const dayOld = stage('day-old', 30)
    const threeHours = stage('three-hours', 3)
    const fresh = stage('fresh', 0.5)
    expect(await run([])).toEqual({ code: 0, out: expect.stringMatching(/^removed [1-9]\d* staged uploads and \d+ unreferenced blobs older than 24 h\n$/) })
    expect([fs.existsSync(dayOld), fs.existsSync(threeHours), fs.existsSync(fresh)]).toEqual([false, true, true])
    expect(await run(['--older-than', '2'])).toEqual({ code: 0, out: expect.stringContaining('removed 1 staged uploads') })
    expect([fs.existsSync(threeHours), fs.existsSync(fresh)]).toEqual([false, true])
  })
})
