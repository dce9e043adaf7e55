/**
 * onnxruntime-web for the playground's offline graphs: the same ONNX files the server runs with
 * onnxruntime-node. WebGPU when the browser has an adapter, else WebAssembly. The WebAssembly
 * binary comes from the hub (/ort/, copied there by scripts/copy-ort.mjs) through the cached,
 * cancellable downloader, never from a CDN. The WebGPU-against-WASM agreement check
 * (`verifiedSession`) also wraps the neural models, which transformers.js runs (neural.ts).
 */
import type * as Ort from 'onnxruntime-web'
import type { Feeds, GraphOutputs } from '@/lib/moderation/offline/graph-io'
import { fetchModelFile, type ModelFile, type ProgressListener } from './model-files'

export type BrowserDevice = 'webgpu' | 'wasm'


let runtime: Promise<typeof Ort> | null = null

type GpuNavigator = Navigator & { gpu?: { requestAdapter(): Promise<{ info?: { vendor?: string; architecture?: string } } | null> } }

/** The adapter's vendor/architecture (e.g. "google swiftshader"), or null when the browser has no WebGPU adapter. */
export async function webGpuAdapter(): Promise<string | null> {
  const gpu = (navigator as GpuNavigator).gpu
  if (!gpu) return null
  try {
    const adapter = await gpu.requestAdapter()
    if (!adapter) return null
    return [adapter.info?.vendor, adapter.info?.architecture].filter(Boolean).join(' ') || 'unknown adapter'
  } catch {
    return null
  }
}

/** Loads onnxruntime-web once; the WebAssembly binary is downloaded (or read from the cache) with progress. */
export function loadOnnxRuntime(wasmFile: ModelFile, signal: AbortSignal, onProgress: ProgressListener): Promise<typeof Ort> {
  runtime ??= (async () => {
    const ort = await import('onnxruntime-web')
    // The page is not cross-origin isolated, so WebAssembly threads are unavailable anyway.
    ort.env.wasm.numThreads = 1
    ort.env.logLevel = 'error'
    // With the binary given and no wasmPaths, the bundle uses its built-in JavaScript glue and fetches nothing itself.
    ort.env.wasm.wasmBinary = await fetchModelFile(wasmFile, signal, onProgress)
    return ort
  })()
  // A cancelled or failed load is retried from the start next time.
  runtime.catch(() => {
    runtime = null
  })
  return runtime
}

export type OutputTensor = { data: Float32Array; dims: readonly number[] }
type Outputs = Record<string, OutputTensor>

/**
 * One graph loaded for one device. A WebGPU session checks its first run against WASM: some
 * kernels answer differently on some adapters (on Chromium's SwiftShader adapter the RoBERTa and
 * MPNet graphs, which compute position ids with CumSum, come out wrong), and a model that
 * disagrees then runs on WASM, with `fallbackReason` saying why. `device` is where it runs now.
 */
export type GraphSession = {
  readonly device: BrowserDevice
  readonly fallbackReason: string | null
  /** The graph's declared inputs (neural graphs differ in whether they take `token_type_ids`). */
  inputNames: readonly string[]
  run(feeds: Feeds): Promise<Outputs>
  release(): Promise<void>
}

/** Outputs agree when every value is within this much (relative to the value's size beyond 1). */
export const WEBGPU_AGREEMENT_TOLERANCE = 1e-3

function largestDifference(a: Outputs, b: Outputs): number {
  let largest = 0
  for (const [name, tensor] of Object.entries(a)) {
    const other = b[name]
    if (!other || other.data.length !== tensor.data.length) return Infinity
    for (let i = 0; i < tensor.data.length; i++) {
      const difference = Math.abs(tensor.data[i] - other.data[i]) / Math.max(1, Math.abs(other.data[i]))
      if (Number.isNaN(difference)) return Infinity
      largest = Math.max(largest, difference)
    }
  }
  return largest
}

/** A model loaded on one device, before the agreement check: what `verifiedSession` wraps. */
export type DeviceSession = { inputNames: readonly string[]; run(feeds: Feeds): Promise<Outputs>; release(): Promise<void> }

export async function createGraphSession(ort: typeof Ort, bytes: Uint8Array, device: BrowserDevice): Promise<GraphSession> {
  return verifiedSession(async (on) => {
    const session = await ort.InferenceSession.create(bytes, { executionProviders: [on], graphOptimizationLevel: 'all' })
    return {
      inputNames: session.inputNames,
      async run(feeds) {
        const tensors = Object.fromEntries(Object.entries(feeds).map(([name, feed]) => [name, new ort.Tensor(feed.type, feed.data, feed.dims)]))
        const outputs = await session.run(tensors)
        // getData() also reads back outputs that stay on the GPU; every graph the checks use answers float32.
        const entries = await Promise.all(
          Object.entries(outputs).map(async ([name, tensor]) => [name, { data: (await tensor.getData(true)) as Float32Array, dims: tensor.dims }] as const),
        )
        return Object.fromEntries(entries)
      },
      release: () => session.release(),
    }
  }, device)
}

/**
 * A model on `device` (made by `create`, which loads it on a device: an onnxruntime-web session,
 * or a transformers.js model), with the agreement check: on WebGPU its first run is compared with
 * a WASM copy, which replaces it when they disagree.
 */
export async function verifiedSession(create: (on: BrowserDevice) => Promise<DeviceSession>, device: BrowserDevice): Promise<GraphSession> {
  let active = await create(device)
  let verification: Promise<void> | null = device === 'webgpu' ? null : Promise.resolve()
  const graph: GraphSession = {
    device,
    fallbackReason: null,
    inputNames: active.inputNames,
    async run(feeds) {
      if (!verification) {
        let firstOutputs: Outputs | null = null
        verification = (async () => {
          const onGpu = await active.run(feeds)
          const reference = await create('wasm')
          const onCpu = await reference.run(feeds)
          const difference = largestDifference(onGpu, onCpu)
          if (difference <= WEBGPU_AGREEMENT_TOLERANCE) {
            await reference.release()
            firstOutputs = onGpu
            return
          }
          await active.release()
          active = reference
          Object.assign(graph, {
            device: 'wasm',
            fallbackReason: `WebGPU's outputs for this model differ from WASM's on this adapter (largest difference ${difference.toExponential(2)}), so it runs on WASM.`,
          })
          firstOutputs = onCpu
        })()
        // A failed first run is tried again (and verified) next time.
        verification.catch(() => {
          verification = null
        })
        await verification
        return firstOutputs!
      }
      await verification
      return active.run(feeds)
    },
    release: () => active.release(),
  }
  return graph
}

/** The float32 data of each output, as the offline engines' post-processing reads it. */
export function graphOutputs(outputs: Record<string, OutputTensor>): GraphOutputs {
  return Object.fromEntries(Object.entries(outputs).map(([name, tensor]) => [name, tensor.data]))
}
