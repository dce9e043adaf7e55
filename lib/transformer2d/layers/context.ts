import { DataType, type GraphBuilder } from '@/lib/onnx'

/** Where weights come from while a graph is built: a checkpoint, or anything else that knows the state-dict keys. */
export interface ParameterSource {
  take(name: string, shape: readonly number[]): Float32Array
}

/**
 * Shared state of one graph build: the ONNX graph, the weights, and outputs of modules that are reused (the DiT
 * output head re-runs block 0's conditioning embedding; building it once keeps the graph small).
 */
export class BuildContext {
  private readonly built = new Map<string, unknown>()

  constructor(
    readonly g: GraphBuilder,
    private readonly weights: ParameterSource,
  ) {}

  /** A checkpoint tensor as an initializer under its state-dict key. */
  weight(name: string, shape: readonly number[]): string {
    return this.g.initializer(name, { dataType: DataType.FLOAT, dims: shape, data: this.weights.take(name, shape) })
  }

  /**
   * Rows [rowStart, rowEnd) of a torch Linear weight [out, in], stored transposed as [in, rows] so that
   * MatMul(x, W) computes x·Wᵀ. Taking a row range lets a fused projection (GEGLU's value and gate halves) run as
   * two MatMuls without a Split of the activations; each output element is the same dot product either way.
   */
  linearWeight(name: string, outFeatures: number, inFeatures: number, rowStart = 0, rowEnd = outFeatures, label = name): string {
    const w = this.weights.take(name, [outFeatures, inFeatures])
    const rows = rowEnd - rowStart
    const transposed = new Float32Array(rows * inFeatures)
    for (let r = 0; r < rows; r++) {
      const src = (rowStart + r) * inFeatures
      for (let i = 0; i < inFeatures; i++) transposed[i * rows + r] = w[src + i]
    }
    return this.g.initializer(`${label}.T`, { dataType: DataType.FLOAT, dims: [inFeatures, rows], data: transposed })
  }

  /** Entries [start, end) of a 1-D weight (the bias half that goes with a `linearWeight` row range). */
  weightSlice(name: string, length: number, start: number, end: number, label: string): string {
    const data = this.weights.take(name, [length]).subarray(start, end)
    return this.g.initializer(label, { dataType: DataType.FLOAT, dims: [end - start], data })
  }

  /** Builds a module's output once per key and returns the same value names afterwards. */
  once<T>(key: string, build: () => T): T {
    if (!this.built.has(key)) this.built.set(key, build())
    return this.built.get(key) as T
  }
}
