/**
 * File throughput: upload and download of 100 files of 1 MB and of one 1 GB file through ModHub
 * (`npm start`, whose fast path serves resolve and LFS uploads; BENCH_SERVER=next for `next start`; SQLite, local-disk blob store, the unmodified @huggingface/hub for uploads), against
 * a bare Node http server that streams the same files to and from disk in the same run; and the
 * hub's peak RSS (VmHWM of the hub's process tree, which covers the 1 GB transfers). The hub runs
 * with npm start's own command line (package.json), node flags included.
 *
 *   npm run build && npx tsx bench/files/run.ts       # BENCH_BIG_MB=1024, BENCH_REPS=4, BENCH_DOWNLOAD_PASSES=3 by default
 *
 * Ports BENCH_PORT (3631, the hub) and the next one (the bare server). Everything lives under .tmp/bench-files/ and is removed.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { pipeline } from 'node:stream/promises'
import { pathToFileURL } from 'node:url'

const BIG_MB = Number(process.env.BENCH_BIG_MB ?? 1024)
const SMALL_COUNT = 100
// The small transfers run REPS times, each time with new content (else the hub would skip uploads
// it already holds), the hub first in even repetitions and the bare server first in odd ones (the
// second to write pays for the first's dirty pages): an even count, so each order runs as often.
// The table has each side's rate over all repetitions (a loaded machine moves single ones 2-5x).
const REPS = Number(process.env.BENCH_REPS ?? 4)
const DOWNLOAD_PASSES = Number(process.env.BENCH_DOWNLOAD_PASSES ?? 3)
const HUB_PORT = Number(process.env.BENCH_PORT ?? 3631)
const BARE_PORT = HUB_PORT + 1
const root = path.resolve(import.meta.dirname, '../..')
const work = path.join(root, '.tmp', 'bench-files')

fs.rmSync(work, { recursive: true, force: true })
fs.mkdirSync(work, { recursive: true })
process.env.DATABASE_URL = `file:${path.join(work, 'hub.db')}`
process.env.AUTH_SECRET ||= 'bench-only-secret'
process.env.STORAGE_DIR = path.join(work, 'blobs')

const MB = 1024 * 1024

function makeSmallFiles(rep: number) {
  fs.mkdirSync(path.join(work, `small${rep}`), { recursive: true })
  for (let i = 0; i < SMALL_COUNT; i++) fs.writeFileSync(path.join(work, `small${rep}`, `f${i}.bin`), randomBytes(MB))
}

function makeFiles() {
  for (let rep = 0; rep < REPS; rep++) makeSmallFiles(rep)
  const fd = fs.openSync(path.join(work, 'big.bin'), 'w')
  const block = randomBytes(16 * MB)
  for (let i = 0; i < BIG_MB / 16; i++) {
    block[0] = i & 255 // no two blocks alike
    fs.writeSync(fd, block)
  }
  fs.closeSync(fd)
}

/** The baseline: PUT writes the body to a file, GET streams a file, nothing else. */
function bareServer(): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    const file = path.join(work, decodeURIComponent(new URL(req.url!, 'http://x').pathname))
    if (req.method === 'PUT') {
      await pipeline(req, fs.createWriteStream(file + '.bare'))
      res.end()
    } else {
      const stat = fs.statSync(file)
      res.writeHead(200, { 'content-length': stat.size })
      await pipeline(fs.createReadStream(file, { highWaterMark: MB }), res) // the hub's disk store reads 1 MiB at a time too
    }
  })
  return new Promise((resolve) => server.listen(BARE_PORT, '127.0.0.1', () => resolve(server)))
}

async function waitFor(url: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      if ((await fetch(url)).ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${url} did not come up`)
}

/** Peak resident memory (kB) of a process and its children, from /proc. */
function peakRssKb(pid: number): number {
  let total = 0
  const visit = (p: number) => {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8')
      total += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
      for (const task of fs.readdirSync(`/proc/${p}/task`)) {
        for (const child of fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) visit(Number(child))
      }
    } catch {}
  }
  visit(pid)
  return total
}

/** Starts a new peak (VmHWM) for a process and its children: Linux resets it on "5" in clear_refs. */
function resetPeakRss(pid: number) {
  const visit = (p: number) => {
    try {
      fs.writeFileSync(`/proc/${p}/clear_refs`, '5')
      for (const task of fs.readdirSync(`/proc/${p}/task`)) {
        for (const child of fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) visit(Number(child))
      }
    } catch {}
  }
  visit(pid)
}

async function timed(fn: () => Promise<unknown>) {
  const start = performance.now()
  await fn()
  return (performance.now() - start) / 1000
}

async function drain(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers })
  if (!res.ok) throw new Error(`${url}: ${res.status}`)
  let n = 0
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) n += chunk.length
  return n
}

async function parallel<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>) {
  let next = 0
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await fn(items[next++]!)
  }))
}

async function main() {
  makeFiles()
  const { deploy } = await import('../../scripts/db')
  await deploy(process.env.DATABASE_URL!)
  const { createUser } = await import('@/lib/hub/users')
  const { createRepo } = await import('@/lib/hub/repos')
  const { createPersonalToken } = await import('@/lib/auth/personal-tokens')
  const user = await createUser({ username: 'bench', email: 'bench@bench.dev', password: 'bench-password' })
  await createRepo({ userId: user.id, principal: null }, { namespace: 'bench', name: 'files' })
  const accessToken = (await createPersonalToken(user.id, { name: 'bench', role: 'write' })).token
  // `npm start`'s own command line (its node flags included), run without npm, whose processes
  // would count in the peak RSS of the tree.
  const start = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/)
  const startEnv: Record<string, string> = {}
  while (/^[A-Z_]+=/.test(start[0] ?? '')) {
    const [name, ...value] = start.shift()!.split('=')
    startEnv[name!] = value.join('=')
  }
  if (start[0] !== 'node') throw new Error(`npm start is not a node command: ${start.join(' ')}`)
  const [command, args] = process.env.BENCH_SERVER === 'next'
    ? [path.join(root, 'node_modules/.bin/next'), ['start', '-p', String(HUB_PORT), '-H', '127.0.0.1']]
    : [process.execPath, start.slice(1)]
  // BENCH_HUB_NODE_OPTIONS: node flags for the hub only (--cpu-prof, a memory logger with --import).
  const nodeOptions = process.env.BENCH_HUB_NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? ''
  const hub = spawn(command, args, { cwd: root, env: { ...process.env, ...startEnv, NODE_OPTIONS: nodeOptions, PORT: String(HUB_PORT), HUB_URL: '' }, stdio: 'inherit' })
  const bare = await bareServer()
  const hubUrl = `http://127.0.0.1:${HUB_PORT}`
  const bareUrl = `http://127.0.0.1:${BARE_PORT}`
  try {
    await waitFor(`${hubUrl}/api/health`, hub)
    await drain(`${hubUrl}/api/models/bench/files`)
    const idleRss = peakRssKb(hub.pid!)
    const { commit } = await import('@huggingface/hub')
    const rows: string[][] = []
    const mbps = (bytes: number, s: number) => (bytes / MB / s).toFixed(0)
    const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
    const reps: { up: [number, number]; down: [number, number] }[] = []
    for (let rep = 0; rep < REPS; rep++) {
      const small = Array.from({ length: SMALL_COUNT }, (_, i) => `small${rep}/f${i}.bin`)
      // Uploads: the hub through the client (sha256 on the client, preupload, LFS batch, PUTs, commit);
      // the bare server the same bytes as plain PUTs, 5 in flight like the client's LFS uploads.
      const hubUp = () => timed(() => commit({ repo: 'bench/files', accessToken, hubUrl, title: `small ${rep}`, operations: small.map((p) => ({ operation: 'addOrUpdate' as const, path: p, content: pathToFileURL(path.join(work, p)) })) }))
      const bareUp = () => timed(() => parallel(small, 5, (p) => fetch(`${bareUrl}/${p}`, { method: 'PUT', body: fs.readFileSync(path.join(work, p)) })))
      // Downloads: resolve/ against the bare server's GET, 8 in flight.
      const hubDown = () => timed(() => parallel(small, 8, (p) => drain(`${hubUrl}/bench/files/resolve/main/${p}`)))
      const bareDown = () => timed(() => parallel(small, 8, (p) => drain(`${bareUrl}/${p}`)))
      const pair = async (hub: () => Promise<number>, bare: () => Promise<number>): Promise<[number, number]> => {
        if (rep % 2 === 0) return [await hub(), await bare()]
        const b = await bare()
        return [await hub(), b]
      }
      const up = await pair(hubUp, bareUp)
      if (process.env.BENCH_PROFILE && rep === 0) {
        for (let i = 0; i < 5; i++) console.log('one small download (s):', await timed(() => drain(`${hubUrl}/bench/files/resolve/main/${small[i]}`)))
      }
      // Reading 100 MB takes a few tenths of a second, short enough for one descheduling to move
      // a ratio by half: each repetition reads its files DOWNLOAD_PASSES times, hub and bare server
      // taking turns, and counts the time of all the passes.
      const down: [number, number] = [0, 0]
      for (let pass = 0; pass < DOWNLOAD_PASSES; pass++) {
        const [hubSeconds, bareSeconds] = await pair(hubDown, bareDown)
        down[0] += hubSeconds / DOWNLOAD_PASSES
        down[1] += bareSeconds / DOWNLOAD_PASSES
      }
      reps.push({ up, down })
      const r = (x: [number, number]) => `${mbps(SMALL_COUNT * MB, x[0])} / ${mbps(SMALL_COUNT * MB, x[1])} (${(x[1] / x[0]).toFixed(2)})`
      console.log(`repetition ${rep + 1}: upload ${SMALL_COUNT} × 1 MB ${r(up)}, download ${r(down)} MB/s hub / bare (ratio)`)
    }
    rows.push([`upload ${SMALL_COUNT} × 1 MB (${REPS} repetitions)`, mbps(REPS * SMALL_COUNT * MB, total(reps.map((x) => x.up[0]))), mbps(REPS * SMALL_COUNT * MB, total(reps.map((x) => x.up[1])))])

    // The goal's peak is the one while the 1 GB file moves: measured from here, and over the whole run.
    const peakSmall = peakRssKb(hub.pid!)
    resetPeakRss(hub.pid!)
    const hubBigUp = await timed(() => commit({ repo: 'bench/files', accessToken, hubUrl, title: 'big', operations: [{ operation: 'addOrUpdate', path: 'big.bin', content: pathToFileURL(path.join(work, 'big.bin')) }] }))
    const bareBigUp = await timed(async () => {
      const res = await fetch(`${bareUrl}/big.bin`, { method: 'PUT', body: fs.createReadStream(path.join(work, 'big.bin')) as unknown as BodyInit, duplex: 'half' } as RequestInit)
      if (!res.ok) throw new Error('bare upload failed')
    })
    rows.push([`upload 1 × ${BIG_MB} MB`, mbps(BIG_MB * MB, hubBigUp), mbps(BIG_MB * MB, bareBigUp)])

    rows.push([`download ${SMALL_COUNT} × 1 MB (${REPS} repetitions)`, mbps(REPS * SMALL_COUNT * MB, total(reps.map((x) => x.down[0]))), mbps(REPS * SMALL_COUNT * MB, total(reps.map((x) => x.down[1])))])
    const hubBigDown = await timed(() => drain(`${hubUrl}/bench/files/resolve/main/big.bin`))
    const bareBigDown = await timed(() => drain(`${bareUrl}/big.bin`))
    rows.push([`download 1 × ${BIG_MB} MB`, mbps(BIG_MB * MB, hubBigDown), mbps(BIG_MB * MB, bareBigDown)])

    const peakBig = peakRssKb(hub.pid!)
    const peak = Math.max(peakSmall, peakBig)
    console.log(`\n| transfer | ModHub MB/s | bare Node MB/s | ratio |\n|---|---|---|---|`)
    for (const [name, a, b] of rows) console.log(`| ${name} | ${a} | ${b} | ${(Number(a) / Number(b)).toFixed(2)} |`)
    const mb = (kb: number) => (kb / 1024).toFixed(0)
    console.log(`\npeak RSS of the hub (${process.env.BENCH_SERVER === 'next' ? 'next start' : 'npm start'}): ${mb(idleRss)} MB after start and a first request, ${mb(peakSmall)} MB over the small transfers, ${mb(peakBig)} MB while the ${BIG_MB} MB file moves up and down, ${mb(peak)} MB over the run`)
  } finally {
    hub.kill('SIGTERM')
    bare.close()
    await new Promise((r) => setTimeout(r, 500))
    fs.rmSync(work, { recursive: true, force: true })
  }
  process.exit(0)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
