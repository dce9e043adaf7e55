/**
 * onnxruntime-web for the playground: the same ONNX files the server runs with onnxruntime-node.
 * WebGPU when the browser has an adapter, else WebAssembly. The WebAssembly binary comes from the
 * hub (/ort/, copied there by scripts/copy-ort.mjs) through the cached, cancellable downloader,
 * never from a CDN.
 */
import type * as Ort from 'onnxruntime-web'
import type { Feeds, GraphOutputs } from '@/lib/moderation/offline/graph-io'
import { fetchModelFile, type ModelFile, type ProgressListener } from './model-files'

export type BrowserDevice = 'webgpu' | 'wasm'

/** The onnxruntime-web default build runs WebGPU and WASM from this one binary (its "jsep" flavour). */
export const ORT_WASM_FILE: ModelFile = { url: '/ort/ort-wasm-simd-threaded.jsep.wasm', name: 'ort-wasm-simd-threaded.jsep.wasm', size: 0 }

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
export function loadOnnxRuntime(signal: AbortSignal, onProgress: ProgressListener): Promise<typeof Ort> {
  runtime ??= (async () => {
    const ort = await import('onnxruntime-web')
    // The page is not cross-origin isolated, so WebAssembly threads are unavailable anyway.
    ort.env.wasm.numThreads = 1
    ort.env.logLevel = 'error'
    // With the binary given and no wasmPaths, the bundle uses its built-in JavaScript glue and fetches nothing itself.
    ort.env.wasm.wasmBinary = await fetchModelFile(ORT_WASM_FILE, signal, onProgress)
    return ort
  })()
  // A cancelled or failed load is retried from the start next time.
  runtime.catch(() => {
    runtime = null
  })
  return runtime
}

export type OutputTensor = { data: Float32Array; dims: readonly number[] }

/** One graph loaded on one device. */
export type GraphSession = {
  device: BrowserDevice
  /** The graph's declared inputs (neural graphs differ in whether they take `token_type_ids`). */
  inputNames: readonly string[]
  run(feeds: Feeds): Promise<Record<string, OutputTensor>>
  release(): Promise<void>
}

export async function createGraphSession(ort: typeof Ort, bytes: Uint8Array, device: BrowserDevice): Promise<GraphSession> {
  const session = await ort.InferenceSession.create(bytes, { executionProviders: [device], graphOptimizationLevel: 'all' })
  return {
    device,
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
}

/** The float32 data of each output, as the offline engines' post-processing reads it. */
export function graphOutputs(outputs: Record<string, OutputTensor>): GraphOutputs {
  return Object.fromEntries(Object.entries(outputs).map(([name, tensor]) => [name, tensor.data]))
}
