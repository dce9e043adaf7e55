/**
 * Platform-neutral exports of the Transformer2DModel port. Import `./node` (file system + onnxruntime-node) or
 * `./browser` (fetch + onnxruntime-web) for a `Transformer2DModel` with `fromPretrained`.
 */
export { fileTooLarge, MAX_JSON_BYTES, readConfig, readStateDict, StateDict, type CheckpointFiles, type CheckpointOptions, type Parameter, type RandomAccessFile } from './checkpoint'
export { ACTIVATION_FUNCTIONS, DEFAULT_CONFIG, resolveConfig, type ResolvedConfig, type Transformer2DConfig } from './config'
export { Transformer2DError, type Transformer2DErrorKind } from './errors'
export type { ForwardArgs } from './forward-args'
export { buildTransformer2DGraph, CONTRIB_OPSET, OPSET } from './graph'
export type { ComputeDtype, ParameterSource } from './layers/context'
export { oneFileFit, Transformer2DModelBase, type GraphSource, type ModelOptions, type OneFileFit, type WeightSource } from './model'
export type { InferenceRuntime, RuntimeSession, RuntimeTensor } from './runtime/types'
export { encodeSafetensors, parseSafetensors, readTensorData, toFloat32, type SafetensorsDtype, type SafetensorsFile, type SafetensorsTensor, type TensorToWrite } from './safetensors'
export { defaultSignature, type GraphSignature } from './signature'
export type { FloatTensor, TensorLike, TensorType } from './tensor'
export { formatBytes } from './weights'
export { hubFiles, isRepoId, type HubLoadOptions, type StoredFile, type WeightStore } from './hub'
export { browserPrecision, WASM_MEMORY_BYTES, WASM_WORKING_BYTES, wasmFit, webGpuFit, weightNeeds, type GpuBufferLimits, type PrecisionChoice, type RuntimeFit, type WeightNeeds } from './fit'
