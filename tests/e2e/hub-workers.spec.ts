// HUB_WORKERS=2: `npm start` runs two whole hubs on one port (node:cluster). They share the
// database, so a token made through the test server is known to both, a worker that dies is
// replaced, and SIGTERM stops every process.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import { expect, test } from '@playwright/test'
import { createToken, DEMO, signIn } from './helpers'

const port = Number(process.env.E2E_PORT ?? 3600) + 2

let primary: ChildProcess
let log = ''

/** The primary's child processes (Linux keeps them in /proc). */
function workerPids(): number[] {
  const pid = primary.pid!
  return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
}

/** One request on a connection of its own: the cluster hands each connection to a worker in turn. */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        let body = ''
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, body }))
      })
      .on('error', reject)
  })
}

async function until(done: () => boolean, what: string) {
  for (let i = 0; i < 240 && !done(); i++) await new Promise((r) => setTimeout(r, 250))
  expect(done(), `${what}; log:\n${log}`).toBe(true)
}

test.beforeAll(async () => {
  primary = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: { ...process.env, PORT: String(port), HUB_WORKERS: '2', HUB_URL: `http://localhost:${port}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  primary.stdout!.on('data', (d) => (log += d))
  primary.stderr!.on('data', (d) => (log += d))
  await until(() => log.includes('(worker 1 of 2)') && log.includes('(worker 2 of 2)'), 'both workers listening')
})

test.afterAll(() => {
  if (primary.exitCode === null) primary.kill('SIGKILL')
})

test('two workers serve as one hub, a dead worker is replaced, SIGTERM stops them all', async ({ page }) => {
  test.setTimeout(120_000)
  expect(workerPids()).toHaveLength(2)

  // A token made through the test server works on every connection to the cluster.
  await signIn(page, 'alice', DEMO.alice)
  const token = await createToken(page, 'hub workers', 'Read')
  const answers = await Promise.all(Array.from({ length: 8 }, () => get('/api/whoami-v2', { authorization: `Bearer ${token}` })))
  for (const answer of answers) {
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ name: 'alice' })
  }

  const [killed] = workerPids()
  process.kill(killed!, 'SIGKILL')
  await until(() => log.includes(`hub worker ${killed} ended (SIGKILL); starting another`), 'the dead worker noticed')
  await until(() => workerPids().length === 2 && !workerPids().includes(killed!) && (log.match(/\(worker \d+ of 2\)/g) ?? []).length === 3, 'a new worker listening')
  for (let i = 0; i < 4; i++) expect((await get('/api/health')).status).toBe(200)

  const workers = workerPids()
  const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)))
  primary.kill('SIGTERM')
  expect(await exited).toBe(0)
  for (const pid of workers) expect(fs.existsSync(`/proc/${pid}`), `worker ${pid} still running`).toBe(false)
})
