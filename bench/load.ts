// Shared by the HTTP benchmarks: a keep-alive load generator on node:http (undici's fetch costs the
// client several times the CPU, which on a 2-core machine is taken from the server being measured),
// latency percentiles, the CPU a server process tree used, and starting/stopping servers.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { setting } from '@/lib/config/settings'

export type Answer = { status: number; body: string }

export function client(port: number, concurrency: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
  return (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, method, path, agent, headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      })
      request.on('error', reject)
      request.end(body)
    })
}

export type Cell = { requests: number; failures: number; seconds: number; rps: number; p50: number; p99: number; serverCpuMs: number | null; databaseCpuMs: number | null }

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! : NaN
}

/**
 * CPU of a process and all its descendants, in clock ticks (10 ms): each one's utime + stime, and
 * the cutime + cstime of the children it has reaped, so that a child that exits mid-measurement (a
 * PostgreSQL backend whose pooled connection was closed) keeps counting instead of taking its ticks
 * out of the sum.
 */
export function treeTicks(rootPid: number): number {
  const children = new Map<number, number[]>()
  const ticks = new Map<number, number>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]))
      const ppid = Number(fields[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {
      // exited meanwhile
    }
  }
  let sum = 0
  const stack = [rootPid]
  while (stack.length) {
    const pid = stack.pop()!
    sum += ticks.get(pid) ?? 0
    stack.push(...(children.get(pid) ?? []))
  }
  return sum
}

const ROOT = path.resolve(import.meta.dirname, '..')

/**
 * The benchmark's database, migrated: DATABASE_URL, or else a fresh SQLite file (relative to the
 * project); AUTH_SECRET defaults to a fixed one. Call it before lib/db is imported.
 */
export async function benchDatabase(defaultFile: string): Promise<{ url: string; database: 'SQLite' | 'PostgreSQL' }> {
  process.env.DATABASE_URL ||= `file:${defaultFile}`
  process.env.AUTH_SECRET ||= 'bench-only-secret'
  const url = process.env.DATABASE_URL
  const { deploy, removeSqliteFiles } = await import('../scripts/db')
  if (url.startsWith('file:')) removeSqliteFiles(path.join(ROOT, url.slice(5)))
  await deploy(url)
  return { url, database: url.startsWith('file:') ? 'SQLite' : 'PostgreSQL' }
}

/**
 * The postmaster of the PostgreSQL server lib/db talks to, when it runs on this machine (every
 * backend is the postmaster's child), so that its CPU per request is reported beside the hub's;
 * undefined on SQLite, or for a server on another host.
 */
export async function localPostgresPid(): Promise<number | undefined> {
  const { databaseUrl, db } = await import('@/lib/db')
  if (!/^postgres(ql)?:/.test(databaseUrl())) return undefined
  const [backend] = await db.$queryRawUnsafe<{ pid: number }[]>('select pg_backend_pid() as pid')
  try {
    const stat = fs.readFileSync(`/proc/${backend!.pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined // another host, or another PID namespace
  }
}

/**
 * Sends `count` requests (request(i) for the i-th) with `concurrency` in flight; a request fails
 * unless ok(answer). serverPid: whose CPU to charge per request; databasePid: a database server's
 * process tree (a PostgreSQL postmaster: localPostgresPid) whose CPU to report beside it.
 */
export async function run(count: number, concurrency: number, request: (i: number) => Promise<Answer>, ok: (a: Answer, i: number) => boolean, serverPid?: number, databasePid?: number): Promise<Cell> {
  const latencies: number[] = []
  let failures = 0
  let next = 0
  let firstFailure = true
  const ticksBefore = serverPid ? treeTicks(serverPid) : 0
  const databaseTicksBefore = databasePid ? treeTicks(databasePid) : 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++
        const t = performance.now()
        let answer: Answer
        try {
          answer = await request(i)
        } catch (error) {
          answer = { status: 0, body: String(error) }
        }
        latencies.push(performance.now() - t)
        if (!ok(answer, i)) {
          failures++
          if (firstFailure) console.error(`first failure: ${answer.status} ${answer.body.slice(0, 300)}`)
          firstFailure = false
        }
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const serverCpuMs = serverPid ? ((treeTicks(serverPid) - ticksBefore) * 10) / count : null
  const databaseCpuMs = databasePid ? ((treeTicks(databasePid) - databaseTicksBefore) * 10) / count : null
  return { requests: count, failures, seconds, rps: count / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), serverCpuMs, databaseCpuMs }
}

/** Rounds of one cell measured apart: the round of median rate, with every round's requests and failures. */
export function medianRound(rounds: Cell[]): Cell {
  const sorted = [...rounds].sort((a, b) => a.rps - b.rps)
  return { ...sorted[Math.floor(sorted.length / 2)]!, failures: rounds.reduce((n, c) => n + c.failures, 0), requests: rounds.reduce((n, c) => n + c.requests, 0) }
}

export async function waitFor(port: number, path: string, child: ChildProcess) {
  const get = client(port, 1)
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited with ${child.exitCode}`)
    try {
      if ((await get('GET', path)).status === 200) return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`server on ${port} did not come up`)
}

/**
 * `next start` of the production build (NEXT_DIST_DIR as for next start), detached so it can be
 * stopped with its children; with profileDir, the server writes a V8 CPU profile there as it stops.
 */
export function nextStart(root: string, port: number, env: Record<string, string>, profileDir?: string): ChildProcess {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  return spawn(process.execPath, [...profile, 'node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', HUB_URL: `http://127.0.0.1:${port}`, ...env },
    detached: true,
  })
}

/**
 * The hub as the benchmark serves it: BENCH_SERVER=start (default) is `npm start` (scripts/serve.mjs:
 * the fast path for the hot API routes, Next for the rest; FAST_PATH=0 in the environment turns the
 * fast path off), BENCH_SERVER=next is plain `next start`.
 */
export function hubServer(root: string, port: number, env: Record<string, string>, profileDir?: string): { child: ChildProcess; label: string } {
  if (process.env.BENCH_SERVER === 'next') return { child: nextStart(root, port, env, profileDir), label: 'next start' }
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  // BENCH_HUB_NODE_FLAGS: V8/Node flags for the hub's process only (GC experiments, tracing to BENCH_HUB_LOG).
  const flags = (process.env.BENCH_HUB_NODE_FLAGS ?? '').split(' ').filter(Boolean)
  const log = process.env.BENCH_HUB_LOG ? fs.openSync(process.env.BENCH_HUB_LOG, 'w') : 'ignore'
  const child = spawn(process.execPath, [...profile, ...flags, 'scripts/serve.mjs'], {
    cwd: root,
    stdio: ['ignore', log, 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', PORT: String(port), HUB_URL: `http://127.0.0.1:${port}`, ...env },
    detached: true,
  })
  const fast = setting('FAST_PATH', { ...process.env, ...env })
  const workers = setting('HUB_WORKERS', { ...process.env, ...env })
  return { child, label: `${fast ? 'npm start (fast path)' : 'npm start, FAST_PATH=0'}${workers > 1 ? `, HUB_WORKERS=${workers}` : ''}` }
}

export async function stop(server: ChildProcess) {
  if (server.exitCode !== null || server.signalCode !== null) return
  const exited = new Promise((resolve) => server.once('exit', resolve))
  process.kill(-server.pid!, 'SIGTERM')
  await exited
}

/** The 1-minute load average, sampled every 2 s while the benchmark runs. */
export function loadSampler() {
  const samples: number[] = []
  const timer = setInterval(() => samples.push(os.loadavg()[0]), 2000)
  timer.unref()
  return () => {
    const sorted = [...samples].sort((a, b) => a - b)
    return sorted.length ? `${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)} (median ${percentile(sorted, 50).toFixed(1)}) on ${os.cpus().length} CPUs` : 'not sampled'
  }
}

export const fmt = (n: number | null, digits = 0) => (n === null || !Number.isFinite(n) ? '-' : n.toFixed(digits))
