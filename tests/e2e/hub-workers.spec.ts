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

/** `npm start` on its own port with `env`; its output collected. */
function startHub(env: Record<string, string>) {
  const child = spawn(process.execPath, ['scripts/serve.mjs'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const output = { text: '' }
  child.stdout!.on('data', (d) => (output.text += d))
  child.stderr!.on('data', (d) => (output.text += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output, exited }
}

test('a worker that cannot start stops the hub with its exit code, instead of being started again forever', async () => {
  test.setTimeout(60_000)
  const hub = startHub({ PORT: String(port + 3), HUB_WORKERS: '2', SIGN_IN_ATTEMPTS_PER_ACCOUNT: '-1' })
  try {
    expect(await hub.exited).toBe(1)
    expect(hub.output.text).toContain('SIGN_IN_ATTEMPTS_PER_ACCOUNT must be an integer ≥ 1, got "-1"')
    expect(hub.output.text).toMatch(/hub worker \d+ could not start \(exit code 1\); stopping/)
    expect(hub.output.text).not.toContain('starting another')
  } finally {
    if (hub.child.exitCode === null) hub.child.kill('SIGKILL')
  }
})

test('SIGTERM lets a request in flight finish, then the hub exits 0', async ({ page }) => {
  test.setTimeout(120_000)
  const hubPort = port + 4
  const hub = startHub({ PORT: String(hubPort), HUB_WORKERS: '1', HUB_URL: `http://localhost:${hubPort}` })
  try {
    await until(() => hub.output.text.includes(`listening on port ${hubPort}`), 'the hub listening')
    // A token used first: its last-used time is written on SIGTERM (lib/auth/tokens), which once ended the process at once.
    await signIn(page, 'alice', DEMO.alice)
    const token = await createToken(page, 'drain', 'Read')
    const whoami = await new Promise<number>((resolve, reject) =>
      http.get({ host: '127.0.0.1', port: hubPort, path: '/api/whoami-v2', headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => resolve(res.statusCode!)).on('error', reject),
    )
    expect(whoami).toBe(200)

    // A token request whose body is still arriving when SIGTERM comes, and ends three seconds later.
    const body = 'client_id=demo-notes-app&grant_type=no-such-grant'
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port: hubPort, path: '/oauth/token', method: 'POST', agent: false, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) } },
        (res) => {
          let text = ''
          res.on('data', (chunk) => (text += chunk))
          res.on('end', () => resolve({ status: res.statusCode!, body: text }))
        },
      )
      request.on('error', reject)
      request.write(body.slice(0, 20))
      setTimeout(() => hub.child.kill('SIGTERM'), 500)
      setTimeout(() => request.end(body.slice(20)), 3500)
    })
    const finished = await answer
    expect(finished.status).toBe(400)
    expect(JSON.parse(finished.body)).toMatchObject({ error: 'unsupported_grant_type' })
    expect(await hub.exited).toBe(0)
  } finally {
    if (hub.child.exitCode === null) hub.child.kill('SIGKILL')
  }
})

test('an instance whose AUTH_SECRET cannot read the signing key does not start', async ({ request }) => {
  test.setTimeout(60_000)
  // The test server's signing key exists once its JWKS has been asked for.
  expect((await request.get('/oauth/jwks')).status()).toBe(200)
  const hub = startHub({ PORT: String(port + 5), HUB_WORKERS: '1', AUTH_SECRET: 'not-the-secret-the-key-was-stored-with' })
  try {
    expect(await hub.exited).toBe(1)
    expect(hub.output.text).toMatch(/ModHub cannot start: The OpenID Connect signing key \S+ cannot be decrypted with this process's AUTH_SECRET/)
  } finally {
    if (hub.child.exitCode === null) hub.child.kill('SIGKILL')
  }
})
