import * as ort from 'onnxruntime-web'
import { wasmFit, webGpuFit, type GpuBufferLimits } from '../fit'
import type { InferenceRuntime } from './types'

export interface WebRuntimeOptions {
  /** URL folder the ORT .wasm/.mjs files are served from; the hub serves them at /ort/ (nothing from a CDN). */
  wasmPaths?: string
  /** Force a device; by default WebGPU when the browser has an adapter, else WASM. */
  device?: 'webgpu' | 'wasm'
}

type GpuAdapter = { limits: GpuBufferLimits }
type GpuNavigator = Navigator & { gpu?: { requestAdapter(): Promise<GpuAdapter | null> } }

/** The browser's WebGPU adapter, or null when it has none. */
export async function webGpuAdapter(): Promise<GpuAdapter | null> {
  const gpu = (globalThis.navigator as GpuNavigator | undefined)?.gpu
  if (!gpu) return null
  try {
    return await gpu.requestAdapter()
  } catch {
    return null
  }
}

/**
 * onnxruntime-web on WebGPU when available, else WASM. The weights are graph inputs, as on the server: one float32
 * copy owned by the model, no 2 GB limit of one .onnx file. On WASM the runtime copies the inputs into its memory
 * for each run (a memcpy, small next to the forward); on WebGPU they are uploaded for each run.
 */
export async function webRuntime(options: WebRuntimeOptions = {}): Promise<InferenceRuntime> {
  ort.env.wasm.wasmPaths = options.wasmPaths ?? '/ort/'
  const adapter = options.device === 'wasm' ? null : await webGpuAdapter()
  const device = options.device ?? (adapter ? 'webgpu' : 'wasm')
  return {
    device,
    weightsAsInputs: true,
    async fitProblem(needs) {
      const fit = device === 'webgpu' ? (adapter ? webGpuFit(needs, adapter.limits) : null) : wasmFit(needs)
      return fit && !fit.fits ? fit.message : null
    },
    async createSession(model) {
      return ort.InferenceSession.create(model, { executionProviders: [device], graphOptimizationLevel: 'all' })
    },
    tensor: (type, data, dims) => new ort.Tensor(type, data, dims),
  }
}
