/**
 * Whether a model can run on a runtime, answered from its configuration alone (no weight is read), so the browser can
 * say before downloading gigabytes. The browser feeds the weights as graph inputs, as the server does: on WebAssembly
 * onnxruntime-web copies every input into the module's memory for each run, so the float32 weights and a forward's
 * working memory must share WebAssembly's 32-bit address space; on WebGPU each weight is a buffer of its own, so the
 * limit is the adapter's largest buffer.
 */
import { resolveConfig } from './config'
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

export function webGpuFit(needs: WeightNeeds, limits: GpuBufferLimits): RuntimeFit {
  const limitBytes = Math.min(limits.maxBufferSize, limits.maxStorageBufferBindingSize)
  const fits = needs.largestTensorBytes <= limitBytes
  const message = fits
    ? `Fits on this WebGPU adapter: its largest weight (${formatBytes(needs.largestTensorBytes)}) is within the adapter's ${formatBytes(limitBytes)} buffer limit; all ${formatBytes(needs.weightBytes)} of weights must fit the GPU's memory, which WebGPU does not report.`
    : `Does not fit on this WebGPU adapter: its largest weight takes ${formatBytes(needs.largestTensorBytes)}, over the adapter's ${formatBytes(limitBytes)} buffer limit.`
  return { fits, needBytes: needs.largestTensorBytes, limitBytes, message }
}
