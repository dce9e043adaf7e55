/**
 * File throughput: upload and download of 100 files of 1 MB and of one 1 GB file through ModHub
 * (`npm start`, whose fast path serves resolve and LFS uploads; BENCH_SERVER=next for `next start`; SQLite, local-disk blob store, the unmodified @huggingface/hub for uploads), against
 * a bare Node http server that streams the same files to and from disk in the same run; and the
 * hub's peak RSS (VmHWM of the next start process tree, which covers the 1 GB transfers).
 *
 *   npm run build && npx tsx bench/files/run.ts       # BENCH_BIG_MB=1024 by default
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
const HUB_PORT = Number(process.env.BENCH_PORT ?? 3631)
const BARE_PORT = HUB_PORT + 1
const root = path.resolve(import.meta.dirname, '../..')
const work = path.join(root, '.tmp', 'bench-files')

fs.rmSync(work, { recursive: true, force: true })
fs.mkdirSync(path.join(work, 'small'), { recursive: true })
process.env.DATABASE_URL = `file:${path.join(work, 'hub.db')}`
process.env.AUTH_SECRET ||= 'bench-only-secret'
process.env.STORAGE_DIR = path.join(work, 'blobs')

const MB = 1024 * 1024

function makeFiles() {
  for (let i = 0; i < SMALL_COUNT; i++) fs.writeFileSync(path.join(work, 'small', `f${i}.bin`), randomBytes(MB))
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
  const [command, args] = process.env.BENCH_SERVER === 'next'
    ? [path.join(root, 'node_modules/.bin/next'), ['start', '-p', String(HUB_PORT), '-H', '127.0.0.1']]
    : [process.execPath, ['scripts/serve.mjs']]
  // BENCH_HUB_NODE_OPTIONS: node flags for the hub only (--cpu-prof, a memory logger with --import).
  const nodeOptions = process.env.BENCH_HUB_NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? ''
  const hub = spawn(command, args, { cwd: root, env: { ...process.env, NODE_OPTIONS: nodeOptions, PORT: String(HUB_PORT), HUB_URL: '' }, stdio: 'inherit' })
  const bare = await bareServer()
  const hubUrl = `http://127.0.0.1:${HUB_PORT}`
  const bareUrl = `http://127.0.0.1:${BARE_PORT}`
  try {
    await waitFor(`${hubUrl}/api/health`, hub)
    await drain(`${hubUrl}/api/models/bench/files`)
    const idleRss = peakRssKb(hub.pid!)
    const { commit } = await import('@huggingface/hub')
    const small = Array.from({ length: SMALL_COUNT }, (_, i) => `small/f${i}.bin`)
    const rows: string[][] = []
    const mbps = (bytes: number, s: number) => (bytes / MB / s).toFixed(0)

    // Uploads: the hub through the client (sha256 on the client, preupload, LFS batch, PUTs, commit);
    // the bare server the same bytes as plain PUTs, 5 in flight like the client's LFS uploads.
    const hubSmallUp = await timed(() => commit({ repo: 'bench/files', accessToken, hubUrl, title: 'small', operations: small.map((p) => ({ operation: 'addOrUpdate' as const, path: p, content: pathToFileURL(path.join(work, p)) })) }))
    const bareSmallUp = await timed(() => parallel(small, 5, (p) => fetch(`${bareUrl}/${p}`, { method: 'PUT', body: fs.readFileSync(path.join(work, p)) })))
    rows.push([`upload ${SMALL_COUNT} × 1 MB`, mbps(SMALL_COUNT * MB, hubSmallUp), mbps(SMALL_COUNT * MB, bareSmallUp)])

    const hubBigUp = await timed(() => commit({ repo: 'bench/files', accessToken, hubUrl, title: 'big', operations: [{ operation: 'addOrUpdate', path: 'big.bin', content: pathToFileURL(path.join(work, 'big.bin')) }] }))
    const bareBigUp = await timed(async () => {
      const res = await fetch(`${bareUrl}/big.bin`, { method: 'PUT', body: fs.createReadStream(path.join(work, 'big.bin')) as unknown as BodyInit, duplex: 'half' } as RequestInit)
      if (!res.ok) throw new Error('bare upload failed')
    })
    rows.push([`upload 1 × ${BIG_MB} MB`, mbps(BIG_MB * MB, hubBigUp), mbps(BIG_MB * MB, bareBigUp)])

    // Downloads: resolve/ against the bare server's GET, 8 in flight for the small files.
    if (process.env.BENCH_PROFILE) {
      for (let i = 0; i < 5; i++) console.log('one small download (s):', await timed(() => drain(`${hubUrl}/bench/files/resolve/main/${small[i]}`)))
    }
    const hubSmallDown = await timed(() => parallel(small, 8, (p) => drain(`${hubUrl}/bench/files/resolve/main/${p}`)))
    const bareSmallDown = await timed(() => parallel(small, 8, (p) => drain(`${bareUrl}/${p}`)))
    rows.push([`download ${SMALL_COUNT} × 1 MB`, mbps(SMALL_COUNT * MB, hubSmallDown), mbps(SMALL_COUNT * MB, bareSmallDown)])
    const hubBigDown = await timed(() => drain(`${hubUrl}/bench/files/resolve/main/big.bin`))
    const bareBigDown = await timed(() => drain(`${bareUrl}/big.bin`))
    rows.push([`download 1 × ${BIG_MB} MB`, mbps(BIG_MB * MB, hubBigDown), mbps(BIG_MB * MB, bareBigDown)])

    const peak = peakRssKb(hub.pid!)
    console.log(`\n| transfer | ModHub MB/s | bare Node MB/s | ratio |\n|---|---|---|---|`)
    for (const [name, a, b] of rows) console.log(`| ${name} | ${a} | ${b} | ${(Number(a) / Number(b)).toFixed(2)} |`)
    console.log(`\npeak RSS of the hub (${process.env.BENCH_SERVER === "next" ? "next start" : "npm start"}): ${(idleRss / 1024).toFixed(0)} MB after start and a first request, ${(peak / 1024).toFixed(0)} MB over the run (${BIG_MB} MB up and down included)`)
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
