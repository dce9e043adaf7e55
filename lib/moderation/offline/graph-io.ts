/**
 * What the offline graphs take and give, independent of the ONNX runtime that runs them
 * (onnxruntime-node on the server, onnxruntime-web in the browser): pre-processing produces
 * `Feeds`, the platform wraps them in its own tensors, post-processing reads the outputs.
 */
export type Feed =
  | { type: 'int64'; data: BigInt64Array; dims: number[] }
  | { type: 'float32'; data: Float32Array; dims: number[] }

export type Feeds = Record<string, Feed>

export type GraphOutputs = Record<string, Float32Array>

/** Runs one graph by file name (e.g. "bancode.onnx") on one set of feeds. */
export type GraphRunner = (graph: string, feeds: Feeds) => Promise<GraphOutputs>

/** The bias feature every sparse linear graph reads at id 0 (see hashing.ts). */
export const BIAS_FEATURE_ID = 0

/**
 * Sparse features as the graphs' `ids`/`values` inputs. The bias feature is always present, so
 * the graph never sees an empty input, and repeated ids are summed.
 */
export class SparseFeatures {
  private readonly values = new Map<number, number>([[BIAS_FEATURE_ID, 1]])

  add(id: number, value = 1): void {
    this.values.set(id, (this.values.get(id) ?? 0) + value)
  }

  /** Scales every feature except the bias so that their values have unit L2 norm. */
  normalize(): this {
    let sum = 0
    for (const [id, v] of this.values) if (id !== BIAS_FEATURE_ID) sum += v * v
    const norm = Math.sqrt(sum)
    if (norm > 0) for (const [id, v] of this.values) if (id !== BIAS_FEATURE_ID) this.values.set(id, v / norm)
    return this
  }

  entries(): [number, number][] {
    return [...this.values]
  }

  toFeeds(idsName = 'ids', valuesName = 'values'): Feeds {
    const entries = this.entries()
    return {
      [idsName]: { type: 'int64', data: BigInt64Array.from(entries, ([id]) => BigInt(id)), dims: [entries.length] },
      [valuesName]: { type: 'float32', data: Float32Array.from(entries, ([, v]) => v), dims: [entries.length] },
    }
  }
}
