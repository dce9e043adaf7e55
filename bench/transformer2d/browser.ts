/**
 * Transformer2DModel in Debian's Chromium on WebAssembly (no GPU here): the largest real-size model that fits, loaded
 * the way a page loads it (browser `fromPretrained`: fit check, fp16 shards streamed into the Cache API with progress,
 * float32 weights fed as graph inputs), and its time per forward.
 *
 *   npx tsx bench/transformer2d/browser.ts [workload] [--layers N] [--latent N] [--forwards N] [--device wasm|webgpu] [--cpu-weights]
 *   # default dit-xl-2-256, 28 layers, 2 forwards, WASM
 *
 * `--device webgpu` launches Chromium with --enable-unsafe-webgpu: without a GPU that is SwiftShader, Chromium's
 * software adapter (a CPU figure, not a GPU one). `--cpu-weights` feeds the weights from the page on every run
 * instead of keeping them in GPU buffers (the comparison in RESULTS.md). `sd15-block` (no checkpoint of its own on the
 * server side) gets an fp16 one written here too. `--latent N` runs an N×N latent instead of the workload's (fewer
 * tokens, the same weights: SwiftShader is slow enough that a 64×64 PixArt latent takes minutes per layer).
 *
 * A static server on BENCH_PORT (default 3711) serves the bundled page script, onnxruntime-web's files and the
 * generated checkpoint (.tmp/bench-t2d/, as bench/transformer2d/run.ts writes it). Chromium runs with a fresh
 * persistent profile, so the Cache API is on disk as in a normal browser; after the timed forwards the page is
 * reloaded and the model loaded again, from the cache. Peak RSS is the sum over Chromium's processes, sampled.
 */
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import { chromium } from '@playwright/test'
import { stateDictKeys } from '../../tests/unit/transformer2d/generated-checkpoint'
import type { BrowserRun } from './browser-entry'
import { CHECKPOINT_DIR, ensureCheckpoint } from './checkpoint'
import { WORKLOADS, type Workload } from './workloads'

const log = (message: string) => process.stderr.write(`[t2d-browser] ${message}\n`)
const port = Number(process.env.BENCH_PORT ?? 3711)
const argv = process.argv.slice(2)
const option = (name: string) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : undefined)
const name = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--')) ?? 'dit-xl-2-256'
const layers = option('--layers')
const forwards = option('--forwards') ?? 2
const device = argv.includes('--device') ? (argv[argv.indexOf('--device') + 1] as 'wasm' | 'webgpu') : 'wasm'
const gpuWeights = !argv.includes('--cpu-weights')

const found = WORKLOADS.find((w) => w.name === name)
if (!found) throw new Error(`unknown workload ${name}`)
const base: Workload = { ...found, checkpoint: found.checkpoint ?? { variant: 'fp16', maxShardBytes: 500e6 } }
const latent = option('--latent')
const layered: Workload = layers ? { ...base, name: `${base.name}-${layers}l`, config: { ...base.config, num_layers: layers } } : base
// The checkpoint (named by workload and layers) is the same for any latent size.
const workload: Workload = latent ? { ...layered, height: latent, width: latent } : layered
const weightsBytes = stateDictKeys(workload.config).reduce((sum, { shape }) => sum + shape.reduce((a, b) => a * b, 1), 0) * 4
const checkpoint = ensureCheckpoint(workload, log)

const outDir = path.resolve('.tmp/bench-t2d-web')
await build({ entryPoints: ['bench/transformer2d/browser-entry.ts'], bundle: true, format: 'esm', outfile: path.join(outDir, 'entry.js'), platform: 'browser', logLevel: 'warning' })
const ortDir = path.resolve('node_modules/onnxruntime-web/dist')
const page = '<!doctype html><meta charset="utf-8"><title>t2d bench</title><script type="module" src="/entry.js"></script>'

function fileFor(url: string): string | null {
  const p = decodeURIComponent(new URL(url, 'http://x').pathname)
  if (p === '/entry.js') return path.join(outDir, 'entry.js')
  if (p.startsWith('/ort/')) return path.join(ortDir, path.basename(p))
  if (p.startsWith('/model/')) {
    const [, , model, file] = p.split('/')
    return model === workload.name && file && !file.includes('..') ? path.join(CHECKPOINT_DIR, model, file) : null
  }
  return null
}

const server = createServer((req, res) => {
  if (req.url === '/') return res.writeHead(200, { 'Content-Type': 'text/html' }).end(page)
  const file = fileFor(req.url ?? '/')
  if (!file || !existsSync(file)) return res.writeHead(404).end()
  const { size, mtimeMs } = statSync(file)
  const type = file.endsWith('.js') || file.endsWith('.mjs') ? 'text/javascript' : file.endsWith('.json') ? 'application/json' : 'application/octet-stream'
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': size, ETag: `"${size}-${Math.floor(mtimeMs)}"` })
  if (req.method === 'HEAD') return res.end()
  createReadStream(file).pipe(res)
})
await new Promise<void>((resolve) => server.listen(port, 'localhost', resolve))

/** RSS (and peak) of Chromium's processes: the browser process found by its profile folder, and its descendants. */
function chromiumRss(profile: string): number {
  const pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p))
  const roots = pids.filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(profile)
    } catch {
      return false
    }
  })
  const tree = new Set(roots)
  for (let grew = true; grew; ) {
    grew = false
    for (const p of pids) {
      if (tree.has(p)) continue
      try {
        const ppid = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')[1]
        if (tree.has(ppid)) (tree.add(p), (grew = true))
      } catch {
        /* exited */
      }
    }
  }
  let kb = 0
  for (const p of tree) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0)
    } catch {
      /* exited */
    }
  }
  return kb * 1024
}

const profile = mkdtempSync(path.join(tmpdir(), 't2d-chromium-'))
log(`${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${workload.name}: ${(weightsBytes / 1e9).toFixed(2)} GB float32 weights`)
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', ...(device === 'webgpu' ? ['--enable-unsafe-webgpu'] : []), '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
let peak = 0
const sampler = setInterval(() => (peak = Math.max(peak, chromiumRss(profile))), 500)
try {
  const tab = context.pages()[0] ?? (await context.newPage())
  await tab.exposeFunction('t2dLog', (m: string) => log(m))
  tab.setDefaultTimeout(0)
  await tab.goto(`http://localhost:${port}/`)
  await tab.waitForFunction(() => typeof window.t2dBench === 'function')
  const baseline = chromiumRss(profile)
  const options = { device, gpuWeights }
  const first = (await tab.evaluate(([w, n, o]) => window.t2dBench(w, n, o), [workload, forwards, options] as const)) as BrowserRun
  const firstPeak = peak
  log(`first load ${first.loadSeconds.toFixed(1)} s, forwards ${first.forwardSeconds.map((s) => s.toFixed(1)).join(', ')} s, peak RSS ${(firstPeak / 2 ** 20).toFixed(0)} MiB`)
  await tab.reload()
  await tab.waitForFunction(() => typeof window.t2dBench === 'function')
  const cached = (await tab.evaluate(([w, o]) => window.t2dBench(w, 0, o), [workload, options] as const)) as BrowserRun
  log(`load from the cache ${cached.loadSeconds.toFixed(1)} s (${cached.downloads.map((d) => d.source).join(', ')})`)
  console.log(
    JSON.stringify({ workload: workload.name, latent: [workload.height, workload.width], weightsBytes, device: first.device, adapter: first.adapter, dtype: first.dtype, gpuWeights: first.gpuWeights, dims: first.dims, finite: first.finite, loadSeconds: first.loadSeconds, forwardSeconds: first.forwardSeconds, cachedLoadSeconds: cached.loadSeconds, cachedSources: cached.downloads.map((d) => d.source), downloads: first.downloads, baselineRssMiB: baseline / 2 ** 20, peakRssMiB: firstPeak / 2 ** 20, peakRssMiBIncludingReload: peak / 2 ** 20, load: loadavg() }, null, 1),
  )
} finally {
  clearInterval(sampler)
  await context.close()
  server.close()
  rmSync(profile, { recursive: true, force: true })
}
