/**
 * Transformer2DModel benchmark on onnxruntime-node (CPU, 2 intra-op threads): forward time, peak RSS and
 * achieved GFLOP/s, next to a plain large MatMul on the same runtime (the practical ceiling).
 *
 *   npx tsx bench/transformer2d/run.ts            # all workloads, prints a markdown table at the end
 *
 * Each measurement runs in its own child process so that its peak RSS is its own.
 */
import { execFileSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import * as ort from 'onnxruntime-node'
import { DataType, GraphBuilder } from '@/lib/onnx'
import { Transformer2DModel } from '@/lib/transformer2d/node'
import { nodeRuntime } from '@/lib/transformer2d/runtime/node'
import { forwardFlops, WORKLOADS, type Workload } from './workloads'

const THREADS = 2
const TIMED_RUNS = 5

interface Measurement {
  name: string
  seconds: number[]
  gflop: number
  peakRssMiB: number
  buildSeconds?: number
}

const log = (message: string) => process.stderr.write(`[t2d-bench] ${message}\n`)

function randomSource(seed: number) {
  let state = seed >>> 0
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5)
  return {
    take: (_name: string, shape: readonly number[]) => Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => next() * 0.05),
  }
}

function randomFloats(n: number, seed: number): Float32Array {
  const source = randomSource(seed)
  return source.take('', [n])
}

async function timeRuns(label: string, run: () => Promise<unknown>): Promise<number[]> {
  log(`${label}: warm-up`)
  await run()
  const seconds: number[] = []
  for (let i = 0; i < TIMED_RUNS; i++) {
    const start = performance.now()
    await run()
    seconds.push((performance.now() - start) / 1000)
    log(`${label}: run ${i + 1}/${TIMED_RUNS} ${seconds[i].toFixed(3)} s`)
  }
  return seconds
}

/** The ceiling: one 2048×2048 · 2048×2048 MatMul (17.2 GFLOP) in an ONNX graph on the same runtime and threads. */
async function measureMatMul(): Promise<Measurement> {
  const n = 2048
  const g = new GraphBuilder('matmul')
  const a = g.input('a', DataType.FLOAT, [n, n])
  const b = g.initializer('b', { dataType: DataType.FLOAT, dims: [n, n], data: randomFloats(n * n, 2) })
  g.output(g.op('MatMul', [a, b]), 'c', DataType.FLOAT, [n, n])
  const session = await ort.InferenceSession.create(g.toBytes({ opset: 17 }), { intraOpNumThreads: THREADS, interOpNumThreads: 1 })
  const input = new ort.Tensor('float32', randomFloats(n * n, 3), [n, n])
  const seconds = await timeRuns('matmul 2048³', () => session.run({ a: input }))
  return { name: 'matmul-2048', seconds, gflop: (2 * n ** 3) / 1e9, peakRssMiB: process.resourceUsage().maxRSS / 1024 }
}

async function measureWorkload(w: Workload): Promise<Measurement> {
  log(`${w.name}: building the ONNX graph and session`)
  const buildStart = performance.now()
  const model = await Transformer2DModel.fromConfig(w.config, randomSource(1), nodeRuntime({ threads: THREADS }))
  const buildSeconds = (performance.now() - buildStart) / 1000
  const c = model.config
  const args = {
    hidden_states: { data: randomFloats(w.batch * c.in_channels! * w.height * w.width, 4), dims: [w.batch, c.in_channels!, w.height, w.width] },
    encoder_hidden_states: {
      data: randomFloats(w.batch * w.encoderTokens * (c.caption_channels ?? c.cross_attention_dim!), 5),
      dims: [w.batch, w.encoderTokens, c.caption_channels ?? c.cross_attention_dim!],
    },
    ...(c.norm_type === 'ada_norm_single'
      ? {
          timestep: { data: Float32Array.from({ length: w.batch }, () => 500), dims: [w.batch] },
          added_cond_kwargs: {
            resolution: { data: Float32Array.from({ length: 2 * w.batch }, () => 1024), dims: [w.batch, 2] },
            aspect_ratio: { data: Float32Array.from({ length: w.batch }, () => 1), dims: [w.batch, 1] },
          },
        }
      : {}),
  }
  const seconds = await timeRuns(w.name, () => model.forward(args))
  await model.dispose()
  return { name: w.name, seconds, gflop: forwardFlops(w) / 1e9, peakRssMiB: process.resourceUsage().maxRSS / 1024, buildSeconds }
}

async function child(name: string): Promise<void> {
  const workload = WORKLOADS.find((w) => w.name === name)
  const result = name === 'matmul-2048' ? await measureMatMul() : await measureWorkload(workload!)
  process.stdout.write(JSON.stringify(result))
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function parent(): void {
  const started = performance.now()
  log(`${cpus().length} CPUs (${cpus()[0]?.model}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${THREADS} ORT threads`)
  const results: Measurement[] = []
  for (const name of ['matmul-2048', ...WORKLOADS.map((w) => w.name)]) {
    const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1], '--child', name], { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 })
    results.push(JSON.parse(out.toString()))
  }
  const ceiling = results[0].gflop / Math.min(...results[0].seconds)
  const rows = results.map((r) => {
    const best = Math.min(...r.seconds)
    const rate = r.gflop / best
    return `| ${r.name} | ${r.gflop.toFixed(2)} | ${median(r.seconds).toFixed(3)} | ${best.toFixed(3)} | ${rate.toFixed(1)} | ${((100 * rate) / ceiling).toFixed(0)}% | ${r.peakRssMiB.toFixed(0)} | ${r.buildSeconds?.toFixed(1) ?? '–'} |`
  })
  console.log(`\nload average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; total ${((performance.now() - started) / 1000).toFixed(0)} s\n`)
  console.log('| workload | GFLOP / forward | median s | best s | GFLOP/s (best) | of MatMul ceiling | peak RSS MiB | build + load s |')
  console.log('|---|---|---|---|---|---|---|---|')
  for (const row of rows) console.log(row)
}

const childAt = process.argv.indexOf('--child')
if (childAt >= 0) {
  child(process.argv[childAt + 1]).catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
} else {
  parent()
}
