import { Transformer2DError } from './errors'
import { toFloat16Bits } from './half'
import type { ComputeDtype, ParameterSource, WeightSlot } from './layers/context'
import { numel } from './tensor'

/** Sizes in messages: GB with two decimals for model-sized numbers, MB or bytes for small ones. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`
  return `${bytes} bytes`
}

/** Bytes of float32 values the slots need. */
export function slotBytes(slots: readonly WeightSlot[]): number {
  return slots.reduce((sum, s) => sum + numel(s.dims) * 4, 0)
}

function allocate(slot: WeightSlot, loadedBytes: number): Float32Array {
  try {
    return new Float32Array(numel(slot.dims))
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    throw new Transformer2DError('checkpoint', `Out of memory: could not allocate ${formatBytes(numel(slot.dims) * 4)} for weight ${slot.name} after ${formatBytes(loadedBytes)} of weights were loaded.`)
  }
}

/** The slot's tensor cut from its checkpoint tensor (no copy when it is the tensor as stored). */
function cut(slot: WeightSlot, values: Float32Array, loadedBytes: number): Float32Array {
  const { layout } = slot
  if (layout.kind === 'as-is') return values
  if (layout.kind === 'slice') return values.slice(layout.start, layout.end)
  const inFeatures = slot.keyShape[1]
  const rows = layout.end - layout.start
  const transposed = allocate(slot, loadedBytes)
  for (let r = 0; r < rows; r++) {
    const src = (layout.start + r) * inFeatures
    for (let i = 0; i < inFeatures; i++) transposed[i * rows + r] = values[src + i]
  }
  return transposed
}

export interface LoadWeightsOptions {
  /** Where the weights come from, for messages. */
  location: string
  /** Memory that may be used; loading refuses to start when the weights need more. */
  availableBytes?: number
  /** Keep the weights as float32 values, or as float16 bits (half the memory, for a float16 graph). */
  dtype?: ComputeDtype
}

/** A weight as the model keeps it: float32 values, or float16 bits. */
export type WeightValues = Float32Array | Uint16Array

/**
 * Reads the weights of every slot that `loaded` does not have yet, one checkpoint tensor at a time, and stores each
 * slot's float32 values in `loaded` under its graph name. Every key and shape is checked first, and the total size
 * against the available memory, so a checkpoint that cannot load fails before anything is read.
 */
export async function loadWeights(slots: readonly WeightSlot[], source: ParameterSource, loaded: Map<string, WeightValues>, options: LoadWeightsOptions): Promise<void> {
  const missing = slots.filter((s) => !loaded.has(s.name))
  for (const slot of missing) source.check?.(slot.key, slot.keyShape)
  const half = options.dtype === 'float16'
  const parameters = slotBytes(missing) / 4
  const needed = parameters * (half ? 2 : 4)
  if (options.availableBytes !== undefined && needed > options.availableBytes) {
    throw new Transformer2DError(
      'checkpoint',
      `Not enough memory to load ${options.location}: its ${half ? 'float16' : 'float32'} weights take ${formatBytes(needed)} (${parameters.toLocaleString('en-US')} values) but only ${formatBytes(options.availableBytes)} are available.`,
    )
  }
  const byKey = new Map<string, WeightSlot[]>()
  for (const slot of missing) byKey.set(slot.key, [...(byKey.get(slot.key) ?? []), slot])
  let loadedBytes = 0
  for (const [key, group] of byKey) {
    let values: Float32Array
    try {
      values = await source.take(key, group[0].keyShape)
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      throw new Transformer2DError('checkpoint', `Out of memory reading weight ${key} [${group[0].keyShape}] after ${formatBytes(loadedBytes)} of weights were loaded.`)
    }
    for (const slot of group) {
      const values32 = cut(slot, values, loadedBytes)
      loaded.set(slot.name, half ? toFloat16Bits(values32) : values32)
      loadedBytes += numel(slot.dims) * (half ? 2 : 4)
    }
  }
}
