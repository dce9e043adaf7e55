import type { PrecisionChoice, WeightNeeds } from '../fit'
import type { ComputeDtype } from '../layers/context'

/**
 * What the model needs from an ONNX runtime. onnxruntime-node and onnxruntime-web both fit behind it
 * (see node.ts and web.ts next to this file); the model code never imports either package.
 */
export interface RuntimeTensor {
  readonly type: string
  readonly data: unknown
  readonly dims: readonly number[]
  /** Where the data lives ('cpu', or 'gpu-buffer' for a weight kept on the GPU). */
  readonly location?: string
  /** Frees what the tensor holds (a GPU buffer); called once, when the model is disposed. */
  dispose?(): void
}

export interface RuntimeSession {
  run(feeds: Record<string, RuntimeTensor>): Promise<Record<string, RuntimeTensor>>
  release(): Promise<void>
}

export interface InferenceRuntime {
  /** The execution provider sessions run on, e.g. "cpu", "webgpu" or "wasm". */
  readonly device: string
  /**
   * Weights as graph inputs fed on every run (true) or as initializers inside the model bytes (false). Inputs keep
   * one copy of the weights, shared by every graph of a model, and lift the 2 GB limit of one .onnx file; they suit
   * a CPU runtime that reads them in place, not a GPU runtime that would upload them on every run.
   */
  readonly weightsAsInputs: boolean
  /**
   * Why a model with these weights cannot run here, naming the sizes (null: it can). Asked after config.json is read
   * and before any weight file, so a browser says so before downloading gigabytes.
   */
  fitProblem?(needs: WeightNeeds, dtype: ComputeDtype): Promise<string | null>
  /** Bytes of memory a model may still use (undefined: unknown, not checked). */
  availableMemoryBytes?(): number
  createSession(model: Uint8Array): Promise<RuntimeSession>
  /** Whether the runtime runs the float16 graph (`dtype: 'float16'`: float16 weights and MatMuls). */
  readonly float16?: boolean
  /** The dtype a model takes here when `dtype` is not given, and why (default float32). */
  readonly precision?: PrecisionChoice
  /**
   * A weight tensor, made once per weight after the graph's session exists and fed to every run. A GPU runtime
   * uploads it here into a buffer of its own, so runs do not upload it again (default: `tensor`).
   */
  weightTensor?(type: 'float32' | 'float16', data: Float32Array | Uint16Array, dims: readonly number[]): Promise<RuntimeTensor>
  tensor(type: 'float32' | 'float16' | 'int64', data: Float32Array | Uint16Array | BigInt64Array, dims: readonly number[]): RuntimeTensor
}
