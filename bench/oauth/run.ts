/**
 * Token endpoint throughput: authorization-code exchanges and refreshes per second, ModHub (next start,
 * SQLite) against oidc-provider (in-memory adapter), side by side in one run, same client and load.
 *
 *   npm run build && npx tsx bench/oauth/run.ts        # uses NEXT_DIST_DIR if set, like next start
 *
 * Codes are minted before timing (ModHub: through lib/oauth as the consent page does; oidc-provider:
 * through its own models), so only POST /oauth/token is timed: Basic client auth, PKCE S256,
 * redirect_uri, scope openid profile email (an RS256 id_token each time), then one rotation of
 * every refresh token. CONCURRENCY requests are kept in flight over keep-alive connections.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const CODES = Number(process.env.BENCH_CODES ?? 600)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
const HUB_PORT = 3689
const OP_PORT = 3690
const VERIFIER = 'bench-verifier-0123456789-0123456789-0123456789-abcdef'
const root = path.resolve(import.meta.dirname, '../..')

process.env.DATABASE_URL = 'file:./.tmp/bench-oauth.db'
process.env.AUTH_SECRET ||= 'bench-only-secret'

type Phase = { requests: number; seconds: number; failures: number }
type Result = { name: string; exchange: Phase; refresh: Phase }

async function waitFor(url: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: server exited with ${child.exitCode}`)
    try {
      if ((await fetch(url)).ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${url} did not come up`)
}

/** Runs the requests with CONCURRENCY in flight; returns the answers and the wall time. */
async function timed(bodies: URLSearchParams[], tokenUrl: string, authorization: string) {
  const answers: Record<string, string>[] = new Array(bodies.length)
  let next = 0
  let failures = 0
  const start = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const i = next++
        const res = await fetch(tokenUrl, { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body: bodies[i] })
        const json = (await res.json()) as Record<string, string>
        if (!res.ok || !json.access_token) {
          if (failures++ === 0) console.error(`first failure: ${res.status} ${JSON.stringify(json)}`)
        }
        answers[i] = json
      }
    }),
  )
  return { answers, phase: { requests: bodies.length, seconds: (performance.now() - start) / 1000, failures } }
}

async function measure(name: string, tokenUrl: string, clientId: string, secret: string, mint: (n: number) => Promise<string[]>): Promise<Result> {
  const authorization = 'Basic ' + Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')
  const exchangeBodies = (codes: string[]) =>
    codes.map((code) => new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1/cb', code_verifier: VERIFIER }))
  await timed(exchangeBodies(await mint(20)), tokenUrl, authorization) // warm-up: JIT, key loading, connections
  const codes = await mint(CODES)
  const exchange = await timed(exchangeBodies(codes), tokenUrl, authorization)
  const refreshBodies = exchange.answers.map((a) => new URLSearchParams({ grant_type: 'refresh_token', refresh_token: a.refresh_token ?? '' }))
  const refresh = await timed(refreshBodies, tokenUrl, authorization)
  return { name, exchange: exchange.phase, refresh: refresh.phase }
}

async function freshDatabase() {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(path.join(root, '.tmp/bench-oauth.db' + suffix), { force: true })
  const { deploy } = await import('../../scripts/db')
  await deploy(process.env.DATABASE_URL!)
}

/** Stops a detached server and waits until it has let go of the database. */
async function stop(server: ChildProcess) {
  const exited = new Promise((resolve) => server.once('exit', resolve))
  process.kill(-server.pid!, 'SIGTERM')
  await exited
}

/** wal: the database file in write-ahead-log mode (it persists in the file, so the server opens it so). */
async function modhub(wal: boolean): Promise<Result> {
  const { db } = await import('@/lib/db')
  await db.$queryRawUnsafe(`PRAGMA journal_mode = ${wal ? 'WAL' : 'DELETE'}`)
  const { createUser } = await import('@/lib/hub/users')
  const { createApp } = await import('@/lib/oauth/clients/apps')
  const { checkAuthorizationRequest, approve } = await import('@/lib/oauth/authorize')
  const { paramsFrom } = await import('@/lib/oauth/request')
  const { s256 } = await import('@/lib/oauth/pkce')
  const user = await createUser({ username: `bench${wal ? 'wal' : ''}`, email: `bench${wal ? 'wal' : ''}@bench.test`, password: 'bench-password' })
  const { app, secret } = await createApp({ kind: 'user', userId: user.id }, { name: 'Bench', redirectUris: ['http://127.0.0.1/cb'], scopes: ['openid', 'profile', 'email'] }, true)
  const checked = await checkAuthorizationRequest(
    paramsFrom(Object.entries({ client_id: app.clientId, redirect_uri: 'http://127.0.0.1/cb', scope: 'openid profile email', code_challenge: s256(VERIFIER), code_challenge_method: 'S256', nonce: 'n' })),
  )
  if (checked.kind !== 'ok') throw new Error('bench authorization request refused')
  const mint = async (n: number) => {
    const codes: string[] = []
    for (let i = 0; i < n; i++) codes.push(new URL(await approve(checked.request, user.id, [])).searchParams.get('code')!)
    return codes
  }
  const base = `http://127.0.0.1:${HUB_PORT}`
  const server = spawn('npx', ['next', 'start', '-p', String(HUB_PORT), '-H', '127.0.0.1'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, HUB_URL: base, OAUTH_TOKEN_LIMIT_PER_IP: '1000000000', OAUTH_TOKEN_LIMIT_PER_CLIENT: '1000000000' },
    detached: true,
  })
  try {
    await waitFor(`${base}/api/health`, server)
    return await measure(wal ? 'ModHub, SQLite WAL' : 'ModHub, SQLite as deployed (rollback journal)', `${base}/oauth/token`, app.clientId, secret!, mint)
  } finally {
    await stop(server)
  }
}

async function oidcProvider(): Promise<Result> {
  const { s256 } = await import('@/lib/oauth/pkce')
  const base = `http://127.0.0.1:${OP_PORT}`
  const server = spawn(process.execPath, [path.join(root, 'bench/oauth/oidc-provider-server.mjs'), String(OP_PORT)], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], detached: true })
  try {
    await waitFor(`${base}/.well-known/openid-configuration`, server)
    const mint = async (n: number) => (await (await fetch(`${base}/__mint?n=${n}&challenge=${s256(VERIFIER)}`, { method: 'POST' })).json()) as string[]
    return await measure('oidc-provider', `${base}/token`, 'bench', 'bench-secret', mint)
  } finally {
    await stop(server)
  }
}

const rate = (p: Phase) => p.requests / p.seconds
await freshDatabase()
const results = [await modhub(false), await modhub(true), await oidcProvider()]
console.log(`\n${CODES} codes, ${CONCURRENCY} in flight, ${(await import('node:os')).cpus().length} CPUs, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}\n`)
console.log('| server | code exchanges/s | refreshes/s | failures |')
console.log('|---|---|---|---|')
for (const r of results) console.log(`| ${r.name} | ${rate(r.exchange).toFixed(0)} | ${rate(r.refresh).toFixed(0)} | ${r.exchange.failures + r.refresh.failures} |`)
const op = results[results.length - 1]!
for (const hub of results.slice(0, -1)) {
  console.log(`| ratio ${hub.name} / oidc-provider | ${(rate(hub.exchange) / rate(op.exchange)).toFixed(2)} | ${(rate(hub.refresh) / rate(op.refresh)).toFixed(2)} | |`)
}
process.exit(0)
