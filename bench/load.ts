// Shared by the HTTP benchmarks: a keep-alive load generator, latency percentiles, the CPU a server
// process tree used, and starting/stopping servers.
//
// The generator writes HTTP/1.1 requests on plain sockets and reads the answers with a small parser
// (status, Content-Length or chunked bodies), one request at a time per connection. On this 2-core
// machine every millisecond the generator spends is taken from the server being measured; node:http's
// client spent 0.13-0.18 ms per token request, this one about half of that, and undici's fetch
// several times more (bench/oauth/RESULTS.md). A server that is bound by one event loop (oidc-provider)
// barely notices; one that uses both cores (the hub with HUB_WORKERS=2, and PostgreSQL) does.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setting } from '@/lib/config/settings'

export type Answer = { status: number; body: string }

const CRLF = Buffer.from('\r\n')
const HEAD_END = Buffer.from('\r\n\r\n')

/** One answer being read: its head once complete, then the body (Content-Length, chunked, or until close). */
class AnswerReader {
  private buffered: Buffer = Buffer.alloc(0)
  private status = 0
  private length: number | null = null
  private chunked = false
  private untilClose = false
  private headRead = false
  private readonly chunks: Buffer[] = []
  closeAfter = false

  constructor(private readonly noBody: boolean) {}

  /** Takes bytes; returns the answer once it is whole. */
  push(data: Buffer): Answer | null {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, data]) : data
    if (!this.headRead) {
      const end = this.buffered.indexOf(HEAD_END)
      if (end === -1) return null
      const lines = this.buffered.subarray(0, end).toString('latin1').split('\r\n')
      this.status = Number(lines[0]!.split(' ')[1])
      for (let i = 1; i < lines.length; i++) {
        const colon = lines[i]!.indexOf(':')
        const name = lines[i]!.slice(0, colon).trim().toLowerCase()
        const value = lines[i]!.slice(colon + 1).trim()
        if (name === 'content-length') this.length = Number(value)
        else if (name === 'transfer-encoding') this.chunked = value.toLowerCase().includes('chunked')
        else if (name === 'connection') this.closeAfter = value.toLowerCase() === 'close'
      }
      this.headRead = true
      this.buffered = this.buffered.subarray(end + 4)
      if (this.noBody || this.status === 204 || this.status === 304 || (this.status >= 100 && this.status < 200)) this.length = 0
      else if (!this.chunked && this.length === null) this.untilClose = true
    }
    if (this.untilClose) {
      this.chunks.push(this.buffered)
      this.buffered = Buffer.alloc(0)
      return null
    }
    if (!this.chunked) {
      if (this.buffered.length < this.length!) return null
      return { status: this.status, body: this.buffered.subarray(0, this.length!).toString('utf8') }
    }
    // Chunked: size line, data, CRLF; a zero size ends it (trailers are not expected).
    for (;;) {
      const lineEnd = this.buffered.indexOf(CRLF)
      if (lineEnd === -1) return null
      const size = parseInt(this.buffered.subarray(0, lineEnd).toString('latin1'), 16)
      if (size === 0) {
        if (this.buffered.length < lineEnd + 4) return null
        return { status: this.status, body: Buffer.concat(this.chunks).toString('utf8') }
      }
      if (this.buffered.length < lineEnd + 2 + size + 2) return null
      this.chunks.push(this.buffered.subarray(lineEnd + 2, lineEnd + 2 + size))
      this.buffered = this.buffered.subarray(lineEnd + 2 + size + 2)
    }
  }

  /** The connection closed: the answer, if its body runs to the close. */
  closed(): Answer | null {
    return this.headRead && this.untilClose ? { status: this.status, body: Buffer.concat(this.chunks).toString('utf8') } : null
  }
}

type Connection = { socket: net.Socket; reading: AnswerReader | null; settle: ((error: Error | null, answer?: Answer) => void) | null }

/**
 * Keep-alive requests to 127.0.0.1:port over at most `concurrency` connections; a request waits
 * for a free one. A connection the server closes is dropped and a new one opened for the next
 * request; a request whose connection fails before its answer is whole rejects (no retry: a token
 * request may not be sent twice).
 */
export function client(port: number, concurrency: number) {
  const idle: Connection[] = []
  const waiting: ((connection: Connection) => void)[] = []
  let open = 0

  function connect(): Connection {
    const socket = net.connect({ host: '127.0.0.1', port, noDelay: true })
    const connection: Connection = { socket, reading: null, settle: null }
    open++
    const drop = (error: Error) => {
      const index = idle.indexOf(connection)
      if (index !== -1) idle.splice(index, 1)
      if (!socket.destroyed) socket.destroy()
      const settle = connection.settle
      connection.settle = null
      if (settle) {
        const answer = connection.reading?.closed()
        if (answer) settle(null, answer)
        else settle(error)
      }
    }
    socket.on('data', (data: Buffer) => {
      const reading = connection.reading
      if (!reading) return
      const answer = reading.push(data)
      if (!answer) return
      const settle = connection.settle!
      connection.reading = null
      connection.settle = null
      if (reading.closeAfter) socket.destroy()
      settle(null, answer)
    })
    socket.on('error', drop)
    socket.on('close', () => {
      open--
      drop(new Error('socket hang up'))
      // A request waiting for a connection gets a new one in place of this.
      if (waiting.length && open < concurrency) waiting.shift()!(connect())
    })
    return connection
  }

  function acquire(): Promise<Connection> {
    for (;;) {
      const connection = idle.pop()
      if (!connection) break
      if (!connection.socket.destroyed) return Promise.resolve(connection)
    }
    if (open < concurrency) return Promise.resolve(connect())
    return new Promise((resolve) => waiting.push(resolve))
  }

  function release(connection: Connection) {
    if (connection.socket.destroyed) return
    const next = waiting.shift()
    if (next) next(connection)
    else idle.push(connection)
  }

  return async (method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> => {
    const connection = await acquire()
    let head = `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`
    if (body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`
    const answer = new Promise<Answer>((resolve, reject) => {
      connection.reading = new AnswerReader(method === 'HEAD')
      connection.settle = (error, answer) => (error ? reject(error) : resolve(answer!))
    })
    connection.socket.write(body === undefined ? `${head}\r\n` : `${head}\r\n${body}`)
    try {
      return await answer
    } finally {
      release(connection)
    }
  }
}

/** generatorCpuMs: this process's CPU per request while the cell ran (the load generator and its checks). */
export type Cell = { requests: number; failures: number; seconds: number; rps: number; p50: number; p99: number; serverCpuMs: number | null; databaseCpuMs: number | null; generatorCpuMs: number }

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
  const generatorBefore = process.cpuUsage()
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
  const generator = process.cpuUsage(generatorBefore)
  latencies.sort((a, b) => a - b)
  const serverCpuMs = serverPid ? ((treeTicks(serverPid) - ticksBefore) * 10) / count : null
  const databaseCpuMs = databasePid ? ((treeTicks(databasePid) - databaseTicksBefore) * 10) / count : null
  return { requests: count, failures, seconds, rps: count / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), serverCpuMs, databaseCpuMs, generatorCpuMs: (generator.user + generator.system) / 1000 / count }
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
