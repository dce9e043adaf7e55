/**
 * Whether a model can run on a runtime, answered from its configuration alone (no weight is read), so the browser can
 * say before downloading gigabytes. The browser feeds the weights as graph inputs, as the server does: on WebAssembly
 * onnxruntime-web copies every input into the module's memory for each run, so the float32 weights and a forward's
 * working memory must share WebAssembly's 32-bit address space; on WebGPU each weight is a buffer of its own, so the
 * limit is the adapter's largest buffer.
 */
import { resolveConfig } from './config'
import type { ComputeDtype } from './layers/context'
import { buildTransformer2DGraph } from './graph'
import { defaultSignature } from './signature'
import { numel } from './tensor'
import { formatBytes, slotBytes } from './weights'

/** What a model's weights ask of a runtime. */
export interface WeightNeeds {
  /** Float32 bytes of the weights the default graph takes. */
  weightBytes: number
  /** The largest single weight tensor, float32 bytes. */
  largestTensorBytes: number
}

export function weightNeeds(config: Readonly<Record<string, unknown>>): WeightNeeds {
  const resolved = resolveConfig(config)
  const { slots } = buildTransformer2DGraph(resolved, { kind: 'inputs' }, defaultSignature(resolved))
  return { weightBytes: slotBytes(slots), largestTensorBytes: Math.max(0, ...slots.map((s) => numel(s.dims) * 4)) }
}

/** onnxruntime-web's WebAssembly module is wasm32: its memory can grow to 65536 pages of 64 KiB, 4 GiB. */
export const WASM_MEMORY_BYTES = 2 ** 32

/**
 * WebAssembly memory kept for everything besides the weights: the runtime itself and a forward's activations and
 * scratch. An estimate, not a measurement of the heap: a 1024-token PixArt-XL-2 forward's largest intermediates are
 * tens of MB each, and DiT-XL-2 (3.00 GB of weights, leaving 1.29 GB) ran in Chromium (bench/transformer2d/RESULTS.md).
 */
export const WASM_WORKING_BYTES = 2 ** 29

export interface RuntimeFit {
  fits: boolean
  /** Bytes the model needs of the limiting resource. */
  needBytes: number
  /** What the runtime can give. */
  limitBytes: number
  /** One sentence for people, naming both sizes. */
  message: string
}

export function wasmFit(needs: WeightNeeds): RuntimeFit {
  const needBytes = needs.weightBytes + WASM_WORKING_BYTES
  const fits = needBytes <= WASM_MEMORY_BYTES
  const message = fits
    ? `Fits on WebAssembly: ${formatBytes(needs.weightBytes)} of float32 weights plus ${formatBytes(WASM_WORKING_BYTES)} of working memory, within its ${formatBytes(WASM_MEMORY_BYTES)} address space.`
    : `Does not fit on WebAssembly: its float32 weights take ${formatBytes(needs.weightBytes)} and a forward needs about ${formatBytes(needBytes)} with working memory, over WebAssembly's ${formatBytes(WASM_MEMORY_BYTES)} address space.`
  return { fits, needBytes, limitBytes: WASM_MEMORY_BYTES, message }
}

/** The WebGPU adapter limits that bound one weight buffer. */
export interface GpuBufferLimits {
  maxBufferSize: number
  maxStorageBufferBindingSize: number
}

/** Bytes per weight value in a compute dtype (WeightNeeds counts float32). */
const BYTES_PER_VALUE: Record<ComputeDtype, number> = { float32: 4, float16: 2 }

export function webGpuFit(needs: WeightNeeds, limits: GpuBufferLimits, dtype: ComputeDtype = 'float32'): RuntimeFit {
  const limitBytes = Math.min(limits.maxBufferSize, limits.maxStorageBufferBindingSize)
  const scale = BYTES_PER_VALUE[dtype] / 4
  const largest = needs.largestTensorBytes * scale
  const kind = dtype === 'float32' ? '' : ` ${dtype}`
  const fits = largest <= limitBytes
  const message = fits
    ? `Fits on this WebGPU adapter: its largest${kind} weight (${formatBytes(largest)}) is within the adapter's ${formatBytes(limitBytes)} buffer limit; all ${formatBytes(needs.weightBytes * scale)} of${kind} weights must fit the GPU's memory, which WebGPU does not report.`
    : `Does not fit on this WebGPU adapter: its largest${kind} weight takes ${formatBytes(largest)}, over the adapter's ${formatBytes(limitBytes)} buffer limit.`
  return { fits, needBytes: largest, limitBytes, message }
}

/** The precision a browser device computes in, and why, in words for the page. */
export interface PrecisionChoice {
  dtype: ComputeDtype
  reason: string
}

/**
 * float16 on a WebGPU adapter with the `shader-f16` feature (float16 weights: half the buffers and half the upload,
 * and float16 MatMuls), float32 on one without it (WGSL has no f16 there) and on WebAssembly (whose CPU kernels widen
 * float16 MatMuls to float32, as onnxruntime-node's do: no gain). Pure, so both feature sets are tested in unit tests.
 */
export function browserPrecision(device: 'webgpu' | 'wasm', adapterFeatures: Iterable<string> = []): PrecisionChoice {
  if (device === 'wasm') return { dtype: 'float32', reason: 'WebAssembly computes in float32 (its kernels would widen float16 MatMuls to float32 anyway).' }
  return new Set(adapterFeatures).has('shader-f16')
    ? { dtype: 'float16', reason: 'This WebGPU adapter has shader-f16: float16 weights (half the GPU memory) and float16 MatMuls.' }
    : { dtype: 'float32', reason: 'This WebGPU adapter lacks shader-f16, so it computes in float32.' }
}
