/**
 * A small ONNX model writer: build a graph with `GraphBuilder`, serialize it with `toBytes`, run it with any
 * ONNX runtime. No Node-only imports, so it works in the browser too.
 */
export { GraphBuilder, type BuildOptions } from './graph-builder'
export { encodeModel, encodeTensor } from './encode'
export { readModelMetadata } from './metadata'
export { ProtoWriter, readFields, type ProtoField } from './protobuf'
export { attr, DataType, type AttributeValue, type Dim, type GraphDef, type ModelDef, type NodeDef, type TensorData, type ValueInfo } from './types'
