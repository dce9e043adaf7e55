/**
 * What the model needs from an ONNX runtime. onnxruntime-node and onnxruntime-web both fit behind it
 * (see node.ts and web.ts next to this file); the model code never imports either package.
 */
export interface RuntimeTensor {
  readonly type: string
  readonly data: unknown
  readonly dims: readonly number[]
}

export interface RuntimeSession {
  run(feeds: Record<string, RuntimeTensor>): Promise<Record<string, RuntimeTensor>>
  release(): Promise<void>
}

export interface InferenceRuntime {
  /** The execution provider sessions run on, e.g. "cpu", "webgpu" or "wasm". */
  readonly device: string
  createSession(model: Uint8Array): Promise<RuntimeSession>
  tensor(type: 'float32' | 'int64', data: Float32Array | BigInt64Array, dims: readonly number[]): RuntimeTensor
}
