import { attr, DataType, type GraphBuilder } from '@/lib/onnx'

/** Where weights come from: a checkpoint, or anything else that knows the state-dict keys. */
export interface ParameterSource {
  /** The float32 values of state-dict key `name`, which must have `shape`; a checkpoint reads them from disk here. */
  take(name: string, shape: readonly number[]): Float32Array | Promise<Float32Array>
  /** Checks that `name` exists with `shape` without reading it, so a mismatch fails before any weight is read. */
  check?(name: string, shape: readonly number[]): void
}

/** How a graph tensor is cut from its checkpoint tensor. */
export type WeightLayout =
  /** The checkpoint tensor as it is. */
  | { kind: 'as-is' }
  /** Rows [start, end) of a torch Linear weight [out, in], transposed to [in, end - start] for MatMul(x, W). */
  | { kind: 'transposed-rows'; start: number; end: number }
  /** Entries [start, end) of a 1-D tensor. */
  | { kind: 'slice'; start: number; end: number }

/** One weight tensor of the graph: its graph name and shape, and which checkpoint tensor it is cut from. */
export interface WeightSlot {
  name: string
  dims: readonly number[]
  key: string
  keyShape: readonly number[]
  layout: WeightLayout
}

/**
 * How the graph gets its weights: as graph inputs fed on every run (the server: one copy of the weights, owned by
 * the model and shared by every graph, with no 2 GB protobuf limit), or as initializers inside the .onnx file
 * (exports and the browser), taken from already loaded values.
 */
export type WeightBinding = { kind: 'inputs'; dtype?: ComputeDtype } | { kind: 'initializers'; values: ReadonlyMap<string, Float32Array> }

/**
 * How the graph computes: all float32, or float16 weights with the MatMuls (the projections, nearly all of the
 * work) in float16 and everything else (norms, attention, activations, sums) in float32, as torch's autocast does.
 */
export type ComputeDtype = 'float32' | 'float16'

/**
 * Shared state of one graph build: the ONNX graph, the weight slots it declares, and outputs of modules that are
 * reused (the DiT output head re-runs block 0's conditioning embedding; building it once keeps the graph small).
 * Building reads no weight values: the slots say what to read, and `loadWeights` reads them afterwards.
 */
export class BuildContext {
  private readonly built = new Map<string, unknown>()
  readonly slots: WeightSlot[] = []

  private readonly half: boolean

  constructor(
    readonly g: GraphBuilder,
    private readonly binding: WeightBinding,
  ) {
    this.half = binding.kind === 'inputs' && binding.dtype === 'float16'
  }

  /**
   * x · W for a weight from `linearWeight`. In float16 the activations are cast down for the MatMul and its product
   * back up, so only the projections run in half precision.
   */
  matMul(x: string, w: string): string {
    if (!this.half) return this.g.op('MatMul', [x, w])
    const product = this.g.op('MatMul', [this.g.op('Cast', [x], { to: attr.int(DataType.FLOAT16) }), w])
    return this.g.op('Cast', [product], { to: attr.int(DataType.FLOAT) })
  }

  /** A checkpoint tensor under its state-dict key. */
  weight(name: string, shape: readonly number[]): string {
    return this.asFloat(this.bind({ name, dims: shape, key: name, keyShape: shape, layout: { kind: 'as-is' } }))
  }

  /**
   * Rows [rowStart, rowEnd) of a torch Linear weight [out, in], stored transposed as [in, rows] so that
   * MatMul(x, W) computes x·Wᵀ. Taking a row range lets a fused projection (GEGLU's value and gate halves) run as
   * two MatMuls without a Split of the activations; each output element is the same dot product either way.
   */
  linearWeight(name: string, outFeatures: number, inFeatures: number, rowStart = 0, rowEnd = outFeatures, label = name): string {
    return this.bind({
      name: `${label}.T`,
      dims: [inFeatures, rowEnd - rowStart],
      key: name,
      keyShape: [outFeatures, inFeatures],
      layout: { kind: 'transposed-rows', start: rowStart, end: rowEnd },
    })
  }

  /** Entries [start, end) of a 1-D weight (the bias half that goes with a `linearWeight` row range). */
  weightSlice(name: string, length: number, start: number, end: number, label: string): string {
    return this.asFloat(this.bind({ name: label, dims: [end - start], key: name, keyShape: [length], layout: { kind: 'slice', start, end } }))
  }

  /** A weight used outside a MatMul: in float16 mode it is stored in half precision and cast up where it is used. */
  private asFloat(weight: string): string {
    return this.half ? this.g.op('Cast', [weight], { to: attr.int(DataType.FLOAT) }) : weight
  }

  /** Builds a module's output once per key and returns the same value names afterwards. */
  once<T>(key: string, build: () => T): T {
    if (!this.built.has(key)) this.built.set(key, build())
    return this.built.get(key) as T
  }

  private bind(slot: WeightSlot): string {
    this.slots.push(slot)
    if (this.binding.kind === 'inputs') return this.g.input(slot.name, this.half ? DataType.FLOAT16 : DataType.FLOAT, slot.dims)
    const data = this.binding.values.get(slot.name)
    if (!data) throw new Error(`transformer2d: weight ${slot.name} was not loaded before the graph was built`)
    return this.g.initializer(slot.name, { dataType: DataType.FLOAT, dims: slot.dims, data })
  }
}
