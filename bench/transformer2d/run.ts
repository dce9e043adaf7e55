/**
 * Transformer2DModel benchmark on onnxruntime-node (CPU, 2 intra-op threads): forward time, peak RSS and
 * achieved GFLOP/s, next to a plain large MatMul on the same runtime (the practical ceiling).
 *
 *   npx tsx bench/transformer2d/run.ts [workload ...] [--layers N]   # default all; prints a markdown table at the end
 *
 * The full-size models (PixArt-α XL-2, DiT-XL-2) load from fp16 checkpoints in diffusers' sharded layout that the
 * first run writes to .tmp/bench-t2d/ (seeded values of the real shapes, about 1.3 GB each), so load time and peak
 * RSS are those of `fromPretrained` on a real-size checkpoint; they run once in float32 and once with
 * `dtype: 'float16'`. `--layers N` cuts the full-size models to N layers (for trying changes quickly).
 *
 * Each row runs in its own child process so that its peak RSS is the model's own. The reference MatMuls run in a
 * sibling process (their ~100 MiB of buffers are not the model's), timed alternately with the model's forwards over
 * IPC, so both see the same share of the shared CPU.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import * as ort from 'onnxruntime-node'
import { DataType, GraphBuilder } from '@/lib/onnx'
import type { ComputeDtype } from '@/lib/transformer2d'
import { Transformer2DModel } from '@/lib/transformer2d/node'
import { nodeRuntime } from '@/lib/transformer2d/runtime/node'
import { stateDictKeys } from '../../tests/unit/transformer2d/generated-checkpoint'
import { ensureCheckpoint } from './checkpoint'
import { forwardArgs, forwardFlops, randomFloats, randomSource, WORKLOADS, type Workload } from './workloads'

const THREADS = 2

interface Measurement {
  name: string
  dtype: ComputeDtype
  seconds: number[]
  /** Reference MatMul runs by shape, timed alternately with the model in the same process (the machine is shared). */
  ceilingSeconds: Record<string, number[]>
  gflop: number
  peakRssMiB: number
  /** The model's weights as it keeps them (float32, or float16 with dtype float16). */
  weightsMiB: number
  /** RSS right after loading, before any forward. */
  loadedRssMiB: number
  buildSeconds: number
  /** Where the weights came from: generated in memory, or an fp16 checkpoint on disk. */
  loadedFrom: string
  /** fp16 MatMul 1024×1152×4608 on the same runtime (the CPU execution provider's fp16 kernel), best seconds. */
  fp16MatMulSeconds: number[]
}

/**
 * Plain MatMuls [M, K] · [K, N] whose best rate is the practical ceiling: a square one, and the shape of a wide
 * transformer projection (MLAS runs that one faster, so neither alone is an upper bound).
 */
const CEILING_SHAPES: [number, number, number][] = [
  [2048, 2048, 2048],
  [1024, 1152, 4608],
]
const shapeName = ([m, k, n]: [number, number, number]) => `${m}×${k}×${n}`

const log = (message: string) => process.stderr.write(`[t2d-bench] ${message}\n`)

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return (performance.now() - start) / 1000
}

async function matMul([m, k, n]: [number, number, number]): Promise<() => Promise<unknown>> {
  const g = new GraphBuilder('matmul')
  const a = g.input('a', DataType.FLOAT, [m, k])
  const b = g.initializer('b', { dataType: DataType.FLOAT, dims: [k, n], data: randomFloats(k * n, 2) })
  g.output(g.op('MatMul', [a, b]), 'c', DataType.FLOAT, [m, n])
  const session = await ort.InferenceSession.create(g.toBytes({ opset: 17 }), { intraOpNumThreads: THREADS, interOpNumThreads: 1 })
  const input = new ort.Tensor('float32', randomFloats(m * k, 3), [m, k])
  return () => session.run({ a: input })
}

/**
 * The same wide MatMul in fp16 (both operands inputs, values 1.0 and 2⁻¹¹). onnxruntime-node 1.30's CPU provider has
 * no float16 MatMul kernel on x86-64: it inserts Casts to float32 around a float32 MatMul (its profile shows them),
 * so this times that emulation.
 */
async function fp16MatMul([m, k, n]: [number, number, number]): Promise<() => Promise<unknown>> {
  const g = new GraphBuilder('matmul-fp16')
  g.output(g.op('MatMul', [g.input('a', DataType.FLOAT16, [m, k]), g.input('b', DataType.FLOAT16, [k, n])]), 'c', DataType.FLOAT16, [m, n])
  const session = await ort.InferenceSession.create(g.toBytes({ opset: 17 }), { intraOpNumThreads: THREADS, interOpNumThreads: 1 })
  const a = new ort.Tensor('float16', new Uint16Array(m * k).fill(0x3c00), [m, k])
  const b = new ort.Tensor('float16', new Uint16Array(k * n).fill(0x1000), [k, n])
  return () => session.run({ a, b })
}

type CeilingTimes = { ceilings: Record<string, number>; fp16: number }

/** The reference MatMuls, in a process of their own: each message runs them once and answers their times. */
async function ceilingProcess(): Promise<void> {
  const ceilings = await Promise.all(CEILING_SHAPES.map(matMul))
  const halfMatMul = await fp16MatMul(CEILING_SHAPES[1])
  // Each sample is the best of 3 runs: the ceiling is what the CPU can do at that moment, and on a shared machine
  // a single short MatMul is easily caught by another process's burst.
  const best = async (run: () => Promise<unknown>) => Math.min(await time(run), await time(run), await time(run))
  process.on('message', async () => {
    const times: CeilingTimes = { ceilings: {}, fp16: 0 }
    for (const [j, shape] of CEILING_SHAPES.entries()) times.ceilings[shapeName(shape)] = await best(ceilings[j])
    times.fp16 = await best(halfMatMul)
    process.send!(times)
  })
  process.send!('ready')
}

function startCeilings(): { sibling: ChildProcess; run: () => Promise<CeilingTimes>; ready: Promise<void> } {
  const sibling = fork(process.argv[1], ['--ceilings'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const ready = new Promise<void>((resolve) => sibling.once('message', () => resolve()))
  const run = () =>
    new Promise<CeilingTimes>((resolve) => {
      sibling.once('message', (m) => resolve(m as CeilingTimes))
      sibling.send('run')
    })
  return { sibling, run, ready }
}

async function measureWorkload(w: Workload, dtype: ComputeDtype): Promise<Measurement> {
  const float32Bytes = stateDictKeys(w.config).reduce((sum, { shape }) => sum + shape.reduce((a, b) => a * b, 1), 0) * 4
  const weightsMiB = float32Bytes / (dtype === 'float16' ? 2 : 1) / 2 ** 20
  const checkpoint = w.checkpoint ? ensureCheckpoint(w, log) : null
  const ceilings = startCeilings()
  await ceilings.ready
  log(`${w.name}: loading (${weightsMiB.toFixed(0)} MiB of ${dtype} weights)`)
  const buildStart = performance.now()
  const model = checkpoint
    ? await Transformer2DModel.fromPretrained(checkpoint, { variant: w.checkpoint!.variant, threads: THREADS, dtype })
    : await Transformer2DModel.fromConfig(w.config, randomSource(1), nodeRuntime({ threads: THREADS }), { dtype })
  const buildSeconds = (performance.now() - buildStart) / 1000
  const loadedRssMiB = process.memoryUsage().rss / 2 ** 20
  log(`${w.name}: loaded in ${buildSeconds.toFixed(1)} s, RSS ${loadedRssMiB.toFixed(0)} MiB`)
  const args = forwardArgs(w, model.config)
  const forward = () => model.forward(args)
  log(`${w.name}: warm-up`)
  await forward()
  await ceilings.run()
  const fp16MatMulSeconds: number[] = []
  // Alternate model and MatMul runs so all see the same share of the (shared) CPU.
  const seconds: number[] = []
  const ceilingSeconds: Record<string, number[]> = Object.fromEntries(CEILING_SHAPES.map((s) => [shapeName(s), []]))
  for (let i = 0; i < w.timedRuns; i++) {
    seconds.push(await time(forward))
    const times = await ceilings.run()
    for (const [shape, t] of Object.entries(times.ceilings)) ceilingSeconds[shape].push(t)
    fp16MatMulSeconds.push(times.fp16)
    log(`${w.name} ${dtype}: run ${i + 1}/${w.timedRuns} forward ${seconds[i].toFixed(3)} s, ${Object.entries(times.ceilings).map(([s, t]) => `MatMul ${s} ${t.toFixed(3)} s`).join(', ')}, fp16 MatMul ${times.fp16.toFixed(3)} s`)
  }
  ceilings.sibling.kill()
  await model.dispose()
  return {
    name: w.name,
    dtype,
    seconds,
    ceilingSeconds,
    gflop: forwardFlops(w) / 1e9,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    weightsMiB,
    loadedRssMiB,
    buildSeconds,
    loadedFrom: checkpoint ? `${w.checkpoint!.variant} shards on disk` : 'generated in memory',
    fp16MatMulSeconds,
  }
}

/** The workloads, full-size ones cut to `--layers N` when given. */
function workloads(): Workload[] {
  const at = process.argv.indexOf('--layers')
  if (at < 0) return WORKLOADS
  const layers = Number(process.argv[at + 1])
  return WORKLOADS.map((w) => (w.checkpoint ? { ...w, name: `${w.name}-${layers}l`, config: { ...w.config, num_layers: layers } } : w))
}

async function child(name: string, dtype: ComputeDtype): Promise<void> {
  const workload = workloads().find((w) => w.name === name)
  if (!workload) throw new Error(`unknown workload ${name}`)
  process.stdout.write(JSON.stringify(await measureWorkload(workload, dtype)))
  process.exit(0)
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function parent(): void {
  const started = performance.now()
  log(`${cpus().length} CPUs (${cpus()[0]?.model}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${THREADS} ORT threads`)
  const results: Measurement[] = []
  const only = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--layers')
  const layersArg = process.argv.includes('--layers') ? ['--layers', process.argv[process.argv.indexOf('--layers') + 1]] : []
  for (const w of workloads().filter((w) => only.length === 0 || only.some((name) => w.name.startsWith(name)))) {
    for (const dtype of w.checkpoint ? (['float32', 'float16'] as const) : (['float32'] as const)) {
      const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1], '--child', w.name, dtype, ...layersArg], { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 })
      results.push(JSON.parse(out.toString()))
    }
  }
  console.log(`\nload average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; total ${((performance.now() - started) / 1000).toFixed(0)} s\n`)
  const shapes = CEILING_SHAPES.map(shapeName)
  const [m, k, n] = CEILING_SHAPES[1]
  console.log(
    `| workload | compute | GFLOP / forward | forward median s | forward best s | GFLOP/s (best) | ${shapes.map((s) => `MatMul ${s} GFLOP/s`).join(' | ')} | of ceiling (best MatMul) | fp16 MatMul ${shapeName([m, k, n])} GFLOP/s | weights MiB (as kept) | RSS after load MiB | peak RSS MiB | peak RSS / weights | load s | loaded from |`,
  )
  console.log(`|---|---|---|---|---|---|${shapes.map(() => '---|').join('')}---|---|---|---|---|---|---|---|`)
  for (const r of results) {
    const rate = r.gflop / Math.min(...r.seconds)
    const ceilings = CEILING_SHAPES.map(([m, k, n]) => (2 * m * k * n) / 1e9 / Math.min(...r.ceilingSeconds[shapeName([m, k, n])]))
    const ceiling = Math.max(...ceilings)
    const fp16 = (2 * m * k * n) / 1e9 / Math.min(...r.fp16MatMulSeconds)
    console.log(
      `| ${r.name} | ${r.dtype} | ${r.gflop.toFixed(2)} | ${median(r.seconds).toFixed(3)} | ${Math.min(...r.seconds).toFixed(3)} | ${rate.toFixed(1)} | ${ceilings.map((c) => c.toFixed(1)).join(' | ')} | ${((100 * rate) / ceiling).toFixed(0)}% | ${fp16.toFixed(1)} | ${r.weightsMiB.toFixed(0)} | ${r.loadedRssMiB.toFixed(0)} | ${r.peakRssMiB.toFixed(0)} | ${(r.peakRssMiB / r.weightsMiB).toFixed(2)} | ${r.buildSeconds.toFixed(1)} | ${r.loadedFrom} |`,
    )
  }
}

const childAt = process.argv.indexOf('--child')
if (process.argv.includes('--ceilings')) {
  void ceilingProcess()
} else if (childAt >= 0) {
  child(process.argv[childAt + 1], process.argv[childAt + 2] as ComputeDtype).catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
} else {
  parent()
}
