/**
 * Transformer2DModel benchmark on onnxruntime-node (CPU, 2 intra-op threads): forward time, peak RSS and
 * achieved GFLOP/s, next to a plain large MatMul on the same runtime (the practical ceiling).
 *
 *   npx tsx bench/transformer2d/run.ts            # all workloads, prints a markdown table at the end
 *
 * Each workload runs in its own child process so that its peak RSS is its own (it includes the ~100 MiB of the
 * reference MatMuls' buffers). The MatMuls are timed alternately with the model, so all see the same CPU share.
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
  /** Reference MatMul runs by shape, timed alternately with the model in the same process (the machine is shared). */
  ceilingSeconds: Record<string, number[]>
  gflop: number
  peakRssMiB: number
  buildSeconds: number
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
  const forward = () => model.forward(args)
  const ceilings = await Promise.all(CEILING_SHAPES.map(matMul))
  log(`${w.name}: warm-up`)
  await forward()
  for (const run of ceilings) await run()
  // Alternate model and MatMul runs so all see the same share of the (shared) CPU.
  const seconds: number[] = []
  const ceilingSeconds: Record<string, number[]> = Object.fromEntries(CEILING_SHAPES.map((s) => [shapeName(s), []]))
  for (let i = 0; i < TIMED_RUNS; i++) {
    seconds.push(await time(forward))
    const line = [`forward ${seconds[i].toFixed(3)} s`]
    for (const [j, shape] of CEILING_SHAPES.entries()) {
      const t = await time(ceilings[j])
      ceilingSeconds[shapeName(shape)].push(t)
      line.push(`MatMul ${shapeName(shape)} ${t.toFixed(3)} s`)
    }
    log(`${w.name}: run ${i + 1}/${TIMED_RUNS} ${line.join(', ')}`)
  }
  await model.dispose()
  return { name: w.name, seconds, ceilingSeconds, gflop: forwardFlops(w) / 1e9, peakRssMiB: process.resourceUsage().maxRSS / 1024, buildSeconds }
}

async function child(name: string): Promise<void> {
  const workload = WORKLOADS.find((w) => w.name === name)
  if (!workload) throw new Error(`unknown workload ${name}`)
  process.stdout.write(JSON.stringify(await measureWorkload(workload)))
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function parent(): void {
  const started = performance.now()
  log(`${cpus().length} CPUs (${cpus()[0]?.model}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${THREADS} ORT threads`)
  const results: Measurement[] = []
  for (const { name } of WORKLOADS) {
    const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1], '--child', name], { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 })
    results.push(JSON.parse(out.toString()))
  }
  console.log(`\nload average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; total ${((performance.now() - started) / 1000).toFixed(0)} s\n`)
  const shapes = CEILING_SHAPES.map(shapeName)
  console.log(`| workload | GFLOP / forward | forward median s | forward best s | GFLOP/s (best) | ${shapes.map((s) => `MatMul ${s} GFLOP/s`).join(' | ')} | of ceiling (best MatMul) | peak RSS MiB | build + load s |`)
  console.log(`|---|---|---|---|---|${shapes.map(() => '---|').join('')}---|---|---|`)
  for (const r of results) {
    const rate = r.gflop / Math.min(...r.seconds)
    const ceilings = CEILING_SHAPES.map(([m, k, n]) => (2 * m * k * n) / 1e9 / Math.min(...r.ceilingSeconds[shapeName([m, k, n])]))
    const ceiling = Math.max(...ceilings)
    console.log(
      `| ${r.name} | ${r.gflop.toFixed(2)} | ${median(r.seconds).toFixed(3)} | ${Math.min(...r.seconds).toFixed(3)} | ${rate.toFixed(1)} | ${ceilings.map((c) => c.toFixed(1)).join(' | ')} | ${((100 * rate) / ceiling).toFixed(0)}% | ${r.peakRssMiB.toFixed(0)} | ${r.buildSeconds.toFixed(1)} |`,
    )
  }
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
