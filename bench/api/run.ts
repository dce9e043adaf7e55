/**
 * Bearer-token API reads and moderation requests against the framework's floor, in one run and
 * one server (`npm start`, whose fast path answers the API routes measured here while Next
 * answers the static route; BENCH_SERVER=next for plain `next start`): a bare node:http server (a child process answering a fixed JSON body), a Next
 * route handler that touches no database (GET /.well-known/openid-configuration, the "static
 * route"), GET /api/health (one query, a statfs of the file store), GET /api/whoami-v2 and GET /api/datasets/alice/private-notes
 * with a personal token, and POST /rai/v1/raimoderationmodels/{check} with a write token for four
 * offline engines, from the cheapest (sentiment, rules) to the dearest per request (toxicity, prompt
 * injection, similarity: ONNX graphs and stacked classifiers), each with its check's own example. Each target gets BENCH_REQUESTS requests per concurrency level in three
 * interleaved rounds (so drift on the shared machine hits every target alike); rates and
 * latencies are the median round's.
 *
 *   npm run build && npx tsx bench/api/run.ts                       # fresh SQLite file
 *   DATABASE_URL=postgresql://... npx tsx bench/api/run.ts          # an empty PostgreSQL database
 *
 * Settings: BENCH_REQUESTS (default 1500), BENCH_CONCURRENCY (default 16,64), BENCH_PORT (3661;
 * the bare server takes the next port), NEXT_DIST_DIR as for next start, BENCH_TARGETS (a comma
 * list of target numbers, 0-8, to measure only those), BENCH_SERVER=next (`next start` instead of
 * `npm start`; FAST_PATH=0 keeps `npm start` but turns its fast path off), BENCH_PROFILE_DIR (the
 * server writes a V8 CPU profile there when it stops: read it with bench/profile-summary.ts).
 */
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'
import { benchDatabase, client, fmt, hubServer, loadSampler, localPostgresPid, medianRound, run, stop, waitFor, type Cell } from '../load'

const root = path.resolve(import.meta.dirname, '../..')
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1500)
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '16,64').split(',').map(Number)
const PORT = Number(process.env.BENCH_PORT ?? 3661)
const BARE_PORT = PORT + 1
const ROUNDS = 3
const { database } = await benchDatabase('./.tmp/bench-api.db')
if (spawnSync('npx', ['tsx', 'scripts/seed.ts'], { cwd: root, stdio: 'ignore' }).status !== 0) throw new Error('seeding failed')

const { db } = await import('@/lib/db')
const databasePid = await localPostgresPid()
const { issueToken } = await import('@/lib/auth/tokens')
const { CHECKS } = await import('@/lib/moderation/checks')
const alice = await db.user.findUniqueOrThrow({ where: { username: 'alice' } })
const reader = await issueToken({ kind: 'personal', userId: alice.id, displayName: 'bench read', role: 'read' })
const writer = await issueToken({ kind: 'personal', userId: alice.id, displayName: 'bench write', role: 'write' })
/** The moderation checks measured, each on the offline engine the hub serves by default. */
const MODERATION_CHECKS = ['sentimentmodel', 'detoxifymodel', 'promptinjectionmodel', 'multi-qa-mpnet-model_similarity']

async function counts() {
  return {
    accessTokens: await db.accessToken.count(),
    withLastUsed: await db.accessToken.count({ where: { lastUsedAt: { not: null } } }),
    rateLimitRows: await db.rateLimit.count(),
    auditEntries: await db.auditLogEntry.count(),
  }
}

// The floor: node:http alone, answering a JSON body like the discovery document's size.
const bareSource = `
const body = JSON.stringify({ issuer: 'http://127.0.0.1', padding: 'x'.repeat(1500) })
require('node:http').createServer((req, res) => { req.resume(); res.writeHead(200, { 'content-type': 'application/json' }); res.end(body) }).listen(${BARE_PORT}, '127.0.0.1')`
const bare = spawn(process.execPath, ['-e', bareSource], { stdio: 'ignore', detached: true })
const hubEnv = {
  OAUTH_TOKEN_LIMIT_PER_IP: '1000000000',
  OAUTH_TOKEN_LIMIT_PER_CLIENT: '1000000000',
  // Counted (the sliced limiter runs on every request) but never reached by one token's load.
  MODERATION_RATE_LIMIT_PER_MINUTE: '1000000000',
}
const { child: hub, label: serverLabel } = hubServer(root, PORT, hubEnv, process.env.BENCH_PROFILE_DIR && path.resolve(process.env.BENCH_PROFILE_DIR))
const sampleLoad = loadSampler()
const before = await counts()
try {
  await waitFor(BARE_PORT, '/', bare)
  await waitFor(PORT, '/api/health', hub)
  type Target = { name: string; port: number; pid: number; send: (get: ReturnType<typeof client>) => Promise<{ status: number; body: string }>; ok: (status: number, body: string) => boolean }
  const targets: Target[] = [
    { name: 'bare node:http', port: BARE_PORT, pid: bare.pid!, send: (c) => c('GET', '/'), ok: (s) => s === 200 },
    { name: 'Next route, no database (openid-configuration)', port: PORT, pid: hub.pid!, send: (c) => c('GET', '/.well-known/openid-configuration'), ok: (s, b) => s === 200 && b.includes('issuer') },
    { name: 'GET /api/health (one query, a statfs)', port: PORT, pid: hub.pid!, send: (c) => c('GET', '/api/health'), ok: (s) => s === 200 },
    { name: 'GET /api/whoami-v2, token', port: PORT, pid: hub.pid!, send: (c) => c('GET', '/api/whoami-v2', { authorization: `Bearer ${reader.token}` }), ok: (s, b) => s === 200 && b.includes('"alice"') },
    { name: 'GET /api/datasets/alice/private-notes, token', port: PORT, pid: hub.pid!, send: (c) => c('GET', '/api/datasets/alice/private-notes', { authorization: `Bearer ${reader.token}` }), ok: (s, b) => s === 200 && b.includes('private-notes') },
    ...MODERATION_CHECKS.map((check): Target => {
      const body = JSON.stringify(CHECKS.find((c) => c.path === check)!.example)
      return {
        name: `POST moderation ${check} (offline), token`,
        port: PORT,
        pid: hub.pid!,
        send: (c) => c('POST', `/rai/v1/raimoderationmodels/${check}`, { authorization: `Bearer ${writer.token}`, 'content-type': 'application/json' }, body),
        ok: (s, b) => s === 200 && b.includes('offline:'),
      }
    }),
  ]
  if (process.env.BENCH_TARGETS) {
    const keep = new Set(process.env.BENCH_TARGETS.split(',').map(Number))
    for (let i = targets.length - 1; i >= 0; i--) if (!keep.has(i) && i !== 1) targets.splice(i, 1) // the Next route is the yardstick
  }
  const results: { concurrency: number; target: string; cell: Cell }[] = []
  for (const concurrency of CONCURRENCY) {
    // A fresh keep-alive pool per cell: a socket left idle while other targets run can outlast the
    // server's keep-alive timeout, and a request sent on it as the server closes it fails.
    const cell = (t: Target, count: number, pid?: number) => {
      const get = client(t.port, concurrency)
      return run(count, concurrency, () => t.send(get), (a) => t.ok(a.status, a.body), pid, pid === hub.pid ? databasePid : undefined)
    }
    for (const t of targets) await cell(t, Math.min(200, REQUESTS)) // warm-up
    const rounds = new Map<Target, Cell[]>(targets.map((t) => [t, []]))
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets) rounds.get(t)!.push(await cell(t, Math.ceil(REQUESTS / ROUNDS), t.pid))
    }
    for (const t of targets) results.push({ concurrency, target: t.name, cell: medianRound(rounds.get(t)!) })
  }
  await stop(hub) // SIGTERM: the server writes its pending last-used times
  const after = await counts()
  console.log(`\n${serverLabel}, ${database}, ${REQUESTS} requests per target and concurrency (${ROUNDS} rounds, median round shown), load average ${sampleLoad()}\n`)
  console.log('| in flight | target | req/s | vs Next route | p50 ms | p99 ms | server CPU ms/req | CPU vs Next route | database CPU ms/req | failures |')
  console.log('|---|---|---|---|---|---|---|---|---|---|')
  for (const concurrency of CONCURRENCY) {
    const floor = results.find((r) => r.concurrency === concurrency && r.target.startsWith('Next route'))!.cell
    for (const r of results.filter((x) => x.concurrency === concurrency)) {
      const c = r.cell
      const cpuRatio = c.serverCpuMs === null || !floor.serverCpuMs ? '–' : (c.serverCpuMs / floor.serverCpuMs).toFixed(2)
      console.log(`| ${concurrency} | ${r.target} | ${fmt(c.rps)} | ${(c.rps / floor.rps).toFixed(2)} | ${fmt(c.p50, 1)} | ${fmt(c.p99, 1)} | ${fmt(c.serverCpuMs, 2)} | ${cpuRatio} | ${c.databaseCpuMs === null ? '–' : fmt(c.databaseCpuMs, 2)} | ${c.failures}/${c.requests} |`)
    }
  }
  console.log(`\nrows before → after: ${Object.entries(before).map(([k, v]) => `${k} ${v} → ${after[k as keyof typeof after]}`).join(', ')}`)
} finally {
  await stop(hub)
  await stop(bare)
}
process.exit(0)
