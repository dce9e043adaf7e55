import * as ort from 'onnxruntime-web'
import { browserPrecision, wasmFit, webGpuFit, type GpuBufferLimits } from '../fit'
import { Transformer2DError } from '../errors'
import type { InferenceRuntime, RuntimeTensor } from './types'

export interface WebRuntimeOptions {
  /** URL folder the ORT .wasm/.mjs files are served from; the hub serves them at /ort/ (nothing from a CDN). */
  wasmPaths?: string
  /** Force a device; by default WebGPU when the browser has an adapter, else WASM. */
  device?: 'webgpu' | 'wasm'
  /**
   * On WebGPU, upload each weight once into a GPU buffer of its own and feed that buffer to every run (default true).
   * false feeds them from the page's memory, so onnxruntime-web uploads every weight again on each run: kept for
   * the benchmark's comparison (bench/transformer2d/RESULTS.md).
   */
  gpuWeights?: boolean
}

/** The slice of WebGPU's types this file uses (the DOM library has no WebGPU types). */
interface GpuBuffer {
  readonly size: number
  destroy(): void
}
interface GpuDevice {
  createBuffer(descriptor: { size: number; usage: number; label?: string }): GpuBuffer
  queue: { writeBuffer(buffer: GpuBuffer, offset: number, data: ArrayBufferView): void }
}
type GpuAdapter = { limits: GpuBufferLimits; features: ReadonlySet<string> }
type GpuNavigator = Navigator & { gpu?: { requestAdapter(): Promise<GpuAdapter | null> } }

/** GPUBufferUsage.STORAGE | COPY_SRC | COPY_DST, as onnxruntime-web's own buffers: a kernel input it may also copy. */
const WEIGHT_BUFFER_USAGE = 0x80 | 0x04 | 0x08

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

/** Weights in GPU buffers on one runtime, counted so a page (and its tests) can see uploads and releases. */
export interface GpuWeightStats {
  /** Weights uploaded since the runtime was made (each once, when its model's first graph loads). */
  uploads: number
  uploadedBytes: number
  /** Buffers allocated and not yet destroyed. */
  liveBuffers: number
  liveBytes: number
}

/**
 * onnxruntime-web on WebGPU when available, else WASM. The weights are graph inputs, as on the server: no 2 GB limit
 * of one .onnx file. On WASM the runtime copies the inputs into its memory for each run (a memcpy, small next to the
 * forward). On WebGPU each weight is uploaded once into a GPUBuffer on onnxruntime-web's device and fed to every run
 * as a GPU tensor (`Tensor.fromGpuBuffer`), so a forward uploads only its activations; the buffers are destroyed when
 * the model is disposed. `precision` picks float16 on an adapter with `shader-f16`, float32 otherwise.
 */
export async function webRuntime(options: WebRuntimeOptions = {}): Promise<InferenceRuntime & { gpuWeights: GpuWeightStats }> {
  ort.env.wasm.wasmPaths = options.wasmPaths ?? '/ort/'
  const adapter = options.device === 'wasm' ? null : await webGpuAdapter()
  const device = options.device ?? (adapter ? 'webgpu' : 'wasm')
  const precision = browserPrecision(device, adapter?.features ?? [])
  const gpuWeights: GpuWeightStats = { uploads: 0, uploadedBytes: 0, liveBuffers: 0, liveBytes: 0 }
  const keepOnGpu = device === 'webgpu' && options.gpuWeights !== false
  const tensor: InferenceRuntime['tensor'] = (type, data, dims) => new ort.Tensor(type, data, dims)
  return {
    device,
    weightsAsInputs: true,
    // WebGPU runs float16 where the adapter has shader-f16; WASM runs the server's float16 graph when asked (its CPU
    // kernels widen the MatMuls to float32 as onnxruntime-node's do), which lets the browser's graph be checked there.
    float16: device === 'wasm' || precision.dtype === 'float16',
    precision,
    gpuWeights,
    async fitProblem(needs, dtype) {
      const fit = device === 'webgpu' ? (adapter ? webGpuFit(needs, adapter.limits, dtype) : null) : wasmFit(needs)
      return fit && !fit.fits ? fit.message : null
    },
    async createSession(model) {
      // Errors only: onnxruntime-web prints its warnings as console errors, and on WebGPU every session warns that
      // it keeps the shape ops on the CPU, which is by design.
      return ort.InferenceSession.create(model, { executionProviders: [device], graphOptimizationLevel: 'all', logSeverityLevel: 3 })
    },
    tensor,
    async weightTensor(type, data, dims): Promise<RuntimeTensor> {
      if (!keepOnGpu) return tensor(type, data, dims)
      // onnxruntime-web made its device with the first WebGPU session (the model creates a graph's session before
      // its weights); the buffers must be on that device.
      const gpu = (await (ort.env.webgpu as { device?: unknown }).device) as GpuDevice | undefined
      if (!gpu) throw new Transformer2DError('input', 'onnxruntime-web has no WebGPU device yet: a weight buffer is made after a WebGPU session.')
      // writeBuffer takes whole 4-byte words (a float16 weight of odd length is padded); sizes like onnxruntime-web's.
      const bytes = data.byteLength
      const padded = Math.ceil(bytes / 16) * 16
      const buffer = gpu.createBuffer({ size: padded, usage: WEIGHT_BUFFER_USAGE, label: 'transformer2d weight' })
      const words = bytes % 4 === 0 ? new Uint8Array(data.buffer, data.byteOffset, bytes) : padTo4(data)
      gpu.queue.writeBuffer(buffer, 0, words)
      gpuWeights.uploads++
      gpuWeights.uploadedBytes += bytes
      gpuWeights.liveBuffers++
      gpuWeights.liveBytes += padded
      let destroyed = false
      return ort.Tensor.fromGpuBuffer(buffer as unknown as ort.Tensor.GpuBufferType, {
        dataType: type,
        dims,
        dispose: () => {
          if (destroyed) return
          destroyed = true
          buffer.destroy()
          gpuWeights.liveBuffers--
          gpuWeights.liveBytes -= padded
        },
      })
    },
  }
}

function padTo4(data: ArrayBufferView): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.byteLength / 4) * 4)
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
  return out
}
