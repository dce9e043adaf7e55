/**
 * Token endpoint throughput: authorization-code exchanges and refreshes per second, ModHub
 * (`npm start`) against oidc-provider (in-memory adapter), side by side in one run, same client
 * and load, at each concurrency of BENCH_CONCURRENCY. On PostgreSQL a second oidc-provider keeps
 * its codes, grants and tokens in the same PostgreSQL server (its own schema): the baseline that
 * pays for storage as ModHub does, shown beside the in-memory one, not instead of it.
 *
 *   npm run build && npx tsx bench/oauth/run.ts                      # fresh SQLite file
 *   DATABASE_URL=postgresql://... npx tsx bench/oauth/run.ts         # an empty PostgreSQL database
 *
 * Codes are minted before timing (ModHub: through lib/oauth as the consent page does; oidc-provider:
 * through its own models), so only POST /oauth/token is timed: Basic client auth, PKCE S256,
 * redirect_uri, scope openid profile email (an RS256 id_token each time), then one rotation of
 * every refresh token. Requests go over keep-alive connections from a node:http client. The rows
 * of the database are counted before and after: every exchange must have stored exactly one
 * access and one refresh token and spent exactly one code.
 * Each server first exchanges BENCH_WARMUP codes (2000) at each concurrency, unmeasured: the figures
 * are its steady state. A hub's bundles are large, and V8 keeps compiling them on background
 * threads for the first thousand or so requests (0.39 ms of CPU per request on those threads after
 * 200 warm-up exchanges, 0.14 ms after 2000; bench/oauth/RESULTS.md).
 * The codes of a concurrency are measured in BENCH_ROUNDS rounds (3) that alternate between the two
 * servers, so that drift on the shared machine hits both alike; each server's median round is shown.
 * Settings: BENCH_CODES (6000 per server and concurrency, so 2000 a round; a cell of 600 lasted under a second, and its
 * ratios moved by 10–20% from run to run), BENCH_ROUNDS, BENCH_CONCURRENCY (8,16), BENCH_PORT (3663; oidc-provider the next, its PostgreSQL twin the one after),
 * BENCH_PROFILE_DIR (ModHub's server writes a V8 CPU profile there when it stops: bench/profile-summary.ts),
 * BENCH_SERVER=next (ModHub served by `next start` instead of `npm start`; FAST_PATH=0 keeps `npm start`
 * without its fast path).
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { benchDatabase, client, fmt, hubServer, loadSampler, localPostgresPid, medianRound, run, stop, waitFor, type Cell } from '../load'

const CODES = Number(process.env.BENCH_CODES ?? 6000)
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '8,16').split(',').map(Number)
const HUB_PORT = Number(process.env.BENCH_PORT ?? 3663)
const OP_PORT = HUB_PORT + 1
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const PER_ROUND = Math.ceil(CODES / ROUNDS)
const VERIFIER = 'bench-verifier-0123456789-0123456789-0123456789-abcdef'
const root = path.resolve(import.meta.dirname, '../..')

const { database } = await benchDatabase('./.tmp/bench-oauth.db')

type Server = { name: string; port: number; pid: number; databasePid?: number; tokenPath: string; authorization: string; mint: (n: number) => Promise<string[]> }
type Result = { server: string; concurrency: number; exchange: Cell; refresh: Cell }

const basic = (id: string, secret: string) => 'Basic ' + Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')

type Round = { exchange: Cell; refresh: Cell }

/** A server's requests for one concurrency: its token endpoint answering exchanges and refreshes. */
function endpoint(server: Server, concurrency: number) {
  const headers = { authorization: server.authorization, 'content-type': 'application/x-www-form-urlencoded' }
  const tokens: string[] = []
  const issued = (a: { status: number; body: string }, i: number) => {
    if (a.status !== 200) return false
    const json = JSON.parse(a.body) as { access_token?: string; refresh_token?: string; id_token?: string }
    tokens[i] = json.refresh_token ?? ''
    return Boolean(json.access_token && json.refresh_token && json.id_token)
  }
  const refreshed = (a: { status: number; body: string }) => a.status === 200 && Boolean((JSON.parse(a.body) as { access_token?: string }).access_token)
  // A fresh keep-alive pool per phase: minting between phases can outlast the server's keep-alive
  // timeout, and a request sent on a socket the server is closing fails with "socket hang up".
  const exchangeAll = async (codes: string[], measured: boolean) => {
    const post = client(server.port, concurrency)
    const body = (code: string) => new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1/cb', code_verifier: VERIFIER }).toString()
    tokens.length = 0
    return run(codes.length, concurrency, (i) => post('POST', server.tokenPath, headers, body(codes[i]!)), issued, measured ? server.pid : undefined, measured ? server.databasePid : undefined)
  }
  const refreshAll = async (refreshTokens: string[]) => {
    const post = client(server.port, concurrency)
    const body = (token: string) => new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString()
    return run(refreshTokens.length, concurrency, (i) => post('POST', server.tokenPath, headers, body(refreshTokens[i]!)), refreshed, server.pid, server.databasePid)
  }
  return {
    /** JIT, keys, caches, connections: unmeasured. */
    warm: async () => void (await exchangeAll(await server.mint(WARMUP), false)),
    /** `codes` exchanges, then a refresh of each token they issued. */
    round: async (codes: number): Promise<Round> => {
      const exchange = await exchangeAll(await server.mint(codes), true)
      return { exchange, refresh: await refreshAll(tokens.slice(0, codes)) }
    },
  }
}

const { db } = await import('@/lib/db')
const { createUser } = await import('@/lib/hub/users')
const { createApp } = await import('@/lib/oauth/clients/apps')
const { checkAuthorizationRequest, approve } = await import('@/lib/oauth/authorize')
const { paramsFrom } = await import('@/lib/oauth/request')
const { s256 } = await import('@/lib/oauth/pkce')
const user = await createUser({ username: 'bench', email: 'bench@bench.test', password: 'bench-password' })
const { app, secret } = await createApp({ kind: 'user', userId: user.id }, { name: 'Bench', redirectUris: ['http://127.0.0.1/cb'], scopes: ['openid', 'profile', 'email'] }, true)
const checked = await checkAuthorizationRequest(
  paramsFrom(Object.entries({ client_id: app.clientId, redirect_uri: 'http://127.0.0.1/cb', scope: 'openid profile email', code_challenge: s256(VERIFIER), code_challenge_method: 'S256', nonce: 'n' })),
)
if (checked.kind !== 'ok') throw new Error('bench authorization request refused')

async function rows() {
  return {
    codes: await db.authorizationCode.count(),
    codesSpent: await db.authorizationCode.count({ where: { usedAt: { not: null } } }),
    accessTokens: await db.accessToken.count(),
    refreshTokens: await db.refreshToken.count(),
    refreshTokensSpent: await db.refreshToken.count({ where: { usedAt: { not: null } } }),
    revoked: (await db.accessToken.count({ where: { revokedAt: { not: null } } })) + (await db.refreshToken.count({ where: { revokedAt: { not: null } } })),
    auditEntries: await db.auditLogEntry.count(),
  }
}

// PostgreSQL's own CPU per request, when it runs here: ModHub's storage is the difference between
// its work and oidc-provider's (which keeps everything in memory).
const databasePid = await localPostgresPid()
const hubEnv = { OAUTH_TOKEN_LIMIT_PER_IP: '1000000000', OAUTH_TOKEN_LIMIT_PER_CLIENT: '1000000000' }
const { child: hubProcess, label: serverLabel } = hubServer(root, HUB_PORT, hubEnv, process.env.BENCH_PROFILE_DIR && path.resolve(process.env.BENCH_PROFILE_DIR))
const provider = (port: number, env: Record<string, string> = {}) =>
  spawn(process.execPath, [path.join(root, 'bench/oauth/oidc-provider-server.mjs'), String(port)], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'], detached: true })
const opProcess = provider(OP_PORT)
// PostgreSQL only: the same provider storing in the hub's database server.
const opPgProcess = database !== 'PostgreSQL' ? undefined : provider(OP_PORT + 1, { OP_DATABASE_URL: process.env.DATABASE_URL! })
const sampleLoad = loadSampler()
try {
  await waitFor(HUB_PORT, '/api/health', hubProcess)
  await waitFor(OP_PORT, '/.well-known/openid-configuration', opProcess)
  if (opPgProcess) await waitFor(OP_PORT + 1, '/.well-known/openid-configuration', opPgProcess)
  const hub: Server = {
    name: `ModHub, ${serverLabel} (${database})`,
    port: HUB_PORT,
    pid: hubProcess.pid!,
    databasePid,
    tokenPath: '/oauth/token',
    authorization: basic(app.clientId, secret!),
    mint: async (n) => {
      const codes: string[] = []
      for (let i = 0; i < n; i++) codes.push(new URL(await approve(checked.request, user.id, [])).searchParams.get('code')!)
      return codes
    },
  }
  // A connection of its own per mint (untimed): a kept-alive one sat idle through a phase, longer than the provider's
  // keep-alive timeout, and the next mint could be written to it as the provider closed it ("socket hang up").
  const providerServer = (name: string, port: number, pid: number, databasePid?: number): Server => ({
    name,
    port,
    pid,
    databasePid,
    tokenPath: '/token',
    authorization: basic('bench', 'bench-secret'),
    mint: async (n) => JSON.parse((await client(port, 1)('POST', `/__mint?n=${n}&challenge=${s256(VERIFIER)}`)).body) as string[],
  })
  const baselines = [providerServer('oidc-provider (memory)', OP_PORT, opProcess.pid!)]
  if (opPgProcess) baselines.push(providerServer('oidc-provider (PostgreSQL)', OP_PORT + 1, opPgProcess.pid!, databasePid))
  const before = await rows()
  const results: Result[] = []
  for (const concurrency of CONCURRENCY) {
    const endpoints = [hub, ...baselines].map((server) => ({ server, requests: endpoint(server, concurrency), rounds: [] as Round[] }))
    for (const e of endpoints) await e.requests.warm()
    // Rounds alternate between the servers, so that drift on the shared machine hits both alike.
    for (let round = 0; round < ROUNDS; round++) for (const e of endpoints) e.rounds.push(await e.requests.round(PER_ROUND))
    for (const e of endpoints) results.push({ server: e.server.name, concurrency, exchange: medianRound(e.rounds.map((r) => r.exchange)), refresh: medianRound(e.rounds.map((r) => r.refresh)) })
  }
  const after = await rows()

  console.log(`\n${database}: ${ROUNDS} rounds of ${PER_ROUND} codes per server and concurrency, the servers alternating (the median round shown), load average ${sampleLoad()}\n`)
  console.log('| in flight | server | exchanges/s | p50 / p99 ms | refreshes/s | p50 / p99 ms | server CPU ms/req (exch. / refr.) | database CPU ms/req | generator CPU ms/req | failures |')
  console.log('|---|---|---|---|---|---|---|---|---|---|')
  for (const r of results) {
    const { exchange: e, refresh: f } = r
    console.log(`| ${r.concurrency} | ${r.server} | ${fmt(e.rps)} | ${fmt(e.p50, 1)} / ${fmt(e.p99, 1)} | ${fmt(f.rps)} | ${fmt(f.p50, 1)} / ${fmt(f.p99, 1)} | ${fmt(e.serverCpuMs, 2)} / ${fmt(f.serverCpuMs, 2)} | ${e.databaseCpuMs === null ? '–' : `${fmt(e.databaseCpuMs, 2)} / ${fmt(f.databaseCpuMs, 2)}`} | ${fmt(e.generatorCpuMs, 2)} / ${fmt(f.generatorCpuMs, 2)} | ${e.failures + f.failures} |`)
  }
  for (const baseline of baselines) {
    for (const concurrency of CONCURRENCY) {
      const [h, o] = [hub, baseline].map((server) => results.find((r) => r.concurrency === concurrency && r.server === server.name)!)
      console.log(`| ${concurrency} | **ratio ModHub / ${baseline.name}** | **${(h!.exchange.rps / o!.exchange.rps).toFixed(2)}** | | **${(h!.refresh.rps / o!.refresh.rps).toFixed(2)}** | | | | | |`)
    }
  }
  const exchanges = CONCURRENCY.length * (ROUNDS * PER_ROUND + WARMUP)
  const refreshes = CONCURRENCY.length * ROUNDS * PER_ROUND
  const expected = {
    codes: before.codes + exchanges,
    codesSpent: before.codesSpent + exchanges,
    accessTokens: before.accessTokens + exchanges + refreshes,
    refreshTokens: before.refreshTokens + exchanges + refreshes,
    refreshTokensSpent: before.refreshTokensSpent + refreshes,
    revoked: before.revoked,
    auditEntries: before.auditEntries,
  }
  console.log(`\nModHub rows before → after (expected after): ${Object.entries(after).map(([k, v]) => `${k} ${before[k as keyof typeof before]} → ${v} (${expected[k as keyof typeof expected]})`).join(', ')}`)
  console.log(JSON.stringify(after) === JSON.stringify(expected) ? 'rows: every exchange and refresh stored exactly its rows; nothing lost or duplicated' : 'ROWS DIFFER FROM WHAT THE REQUESTS SHOULD HAVE STORED')
  if (opPgProcess) {
    const counts = JSON.parse((await client(OP_PORT + 1, 1)('GET', '/__rows')).body) as { model: string; rows: number; consumed: number }[]
    console.log(`oidc-provider (PostgreSQL) rows after: ${counts.map((c) => `${c.model} ${c.rows} (${c.consumed} consumed)`).join(', ')}`)
  }
} finally {
  await stop(hubProcess)
  await stop(opProcess)
  if (opPgProcess) await stop(opPgProcess)
}
process.exit(0)
