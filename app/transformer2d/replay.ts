/**
 * The page's hook for the end-to-end tests: a model given by config + weights (a golden case, read by the test
 * process) is loaded in this browser on a chosen device and dtype, run, and disposed in separate steps, so the test
 * can look at the GPU between them (what was uploaded by a load, by each forward; what a dispose freed).
 */
import type { CheckpointFiles, ComputeDtype, ForwardArgs, InferenceRuntime, TensorLike } from '@/lib/transformer2d'
import { Transformer2DModel, webRuntime, type GpuWeightStats } from '@/lib/transformer2d/browser'

/** A tensor passed in from a test process: raw little-endian bytes, base64. */
export interface SerializedTensor {
  type: 'float32' | 'int64' | 'bool'
  dims: number[]
  base64: string
}

export interface ReplayRequest {
  config: Record<string, unknown>
  /** The checkpoint as safetensors bytes, base64. */
  weights: string
  args: Record<string, SerializedTensor | Record<string, SerializedTensor> | number | boolean>
  /** Default wasm. */
  device?: 'webgpu' | 'wasm'
  /** Default: the runtime's choice (`browserPrecision`). */
  dtype?: ComputeDtype
  /** WebGPU: weights kept in GPU buffers (default true), or fed from the page on every run. */
  gpuWeights?: boolean
}

export interface ReplayLoaded {
  device: string
  dtype: ComputeDtype
  /** Why the runtime picks the precision it picks (shown on the page too). */
  precisionReason: string
  /** SHA-256 (hex) of each ONNX graph the model handed to the runtime so far (a call's signature may add one). */
  graphs: string[]
  gpuWeights: GpuWeightStats
}

export interface ReplayApi {
  load(request: ReplayRequest): Promise<ReplayLoaded>
  forward(): Promise<{ dims: number[]; data: number[]; gpuWeights: GpuWeightStats; graphs: string[] }>
  dispose(): Promise<GpuWeightStats>
}

declare global {
  interface Window {
    transformer2dReplay?: ReplayApi
  }
}

function bytes(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
}

function tensor(t: SerializedTensor): TensorLike {
  const raw = bytes(t.base64).buffer
  const data = t.type === 'float32' ? new Float32Array(raw) : t.type === 'int64' ? new BigInt64Array(raw) : new Uint8Array(raw)
  return { data, dims: t.dims, type: t.type }
}

function isTensor(value: unknown): value is SerializedTensor {
  return typeof value === 'object' && value !== null && 'base64' in value
}

async function sha256(data: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>))
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')
}

export function replayApi(): ReplayApi {
  let current: { model: Transformer2DModel; args: ForwardArgs; stats: GpuWeightStats; graphs: Promise<string>[] } | null = null
  return {
    async load(request) {
      if (current) throw new Error('transformer2dReplay: dispose the loaded model first.')
      const files: CheckpointFiles = {
        location: 'replay',
        readBytes: async (name) =>
          name === 'config.json' ? new TextEncoder().encode(JSON.stringify(request.config)) : name === 'diffusion_pytorch_model.safetensors' ? bytes(request.weights) : null,
      }
      const runtime = await webRuntime({ device: request.device ?? 'wasm', gpuWeights: request.gpuWeights })
      const graphs: Promise<string>[] = []
      const recording: InferenceRuntime = { ...runtime, createSession: (model) => (graphs.push(sha256(model)), runtime.createSession(model)) }
      const model = await Transformer2DModel.fromFiles(files, recording, request.dtype ? { dtype: request.dtype } : {})
      const args = Object.fromEntries(
        Object.entries(request.args).map(([key, value]) => [
          key,
          isTensor(value) ? tensor(value) : typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tensor(v)])) : value,
        ]),
      ) as unknown as ForwardArgs
      current = { model, args, stats: runtime.gpuWeights, graphs }
      return { device: runtime.device, dtype: model.dtype, precisionReason: runtime.precision!.reason, graphs: await Promise.all(graphs), gpuWeights: { ...runtime.gpuWeights } }
    },
    async forward() {
      if (!current) throw new Error('transformer2dReplay: load a model first.')
      const [sample] = await current.model.forward({ ...current.args, return_dict: false })
      return { dims: [...sample.dims], data: Array.from(sample.data), gpuWeights: { ...current.stats }, graphs: await Promise.all(current.graphs) }
    },
    async dispose() {
      if (!current) throw new Error('transformer2dReplay: nothing is loaded.')
      const { model, stats } = current
      current = null
      await model.dispose()
      return { ...stats }
    },
  }
}
