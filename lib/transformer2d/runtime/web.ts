import * as ort from 'onnxruntime-web'
import type { InferenceRuntime } from './types'

export interface WebRuntimeOptions {
  /** URL folder the ORT .wasm/.mjs files are served from; the hub serves them at /ort/ (nothing from a CDN). */
  wasmPaths?: string
  /** Force a device; by default WebGPU when the browser has an adapter, else WASM. */
  device?: 'webgpu' | 'wasm'
}

async function hasWebGpuAdapter(): Promise<boolean> {
  const gpu = (globalThis.navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } } | undefined)?.gpu
  if (!gpu) return false
  try {
    return (await gpu.requestAdapter()) !== null
  } catch {
    return false
  }
}

/** onnxruntime-web on WebGPU when available, else WASM. The same exported .onnx runs on both. */
export async function webRuntime(options: WebRuntimeOptions = {}): Promise<InferenceRuntime> {
  ort.env.wasm.wasmPaths = options.wasmPaths ?? '/ort/'
  const device = options.device ?? ((await hasWebGpuAdapter()) ? 'webgpu' : 'wasm')
  return {
    device,
    weightsAsInputs: false,
    async createSession(model) {
      return ort.InferenceSession.create(model, { executionProviders: [device], graphOptimizationLevel: 'all' })
    },
    tensor: (type, data, dims) => new ort.Tensor(type, data, dims),
  }
}
