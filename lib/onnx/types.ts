/** ONNX TensorProto.DataType values used by this writer (onnx.proto). */
export const DataType = {
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  INT32: 6,
  INT64: 7,
  BOOL: 9,
  FLOAT16: 10,
  DOUBLE: 11,
  BFLOAT16: 16,
} as const
export type DataType = (typeof DataType)[keyof typeof DataType]

/** A dimension is a fixed size or a symbolic name (dim_param) such as "batch". */
export type Dim = number | string

/** Tensor contents: the element type decides how `data` is stored in TensorProto.raw_data. */
export type TensorData =
  | { dataType: typeof DataType.FLOAT; dims: readonly number[]; data: Float32Array }
  | { dataType: typeof DataType.DOUBLE; dims: readonly number[]; data: Float64Array }
  | { dataType: typeof DataType.INT64; dims: readonly number[]; data: BigInt64Array }
  | { dataType: typeof DataType.INT32; dims: readonly number[]; data: Int32Array }
  | { dataType: typeof DataType.BOOL | typeof DataType.UINT8; dims: readonly number[]; data: Uint8Array }

export type AttributeValue =
  | { kind: 'float'; value: number }
  | { kind: 'int'; value: number | bigint }
  | { kind: 'string'; value: string }
  | { kind: 'floats'; value: readonly number[] }
  | { kind: 'ints'; value: readonly (number | bigint)[] }
  | { kind: 'tensor'; value: TensorData }

/** Attribute constructors: ONNX distinguishes 1 (INT) from 1.0 (FLOAT), so the kind is always explicit. */
export const attr = {
  float: (value: number): AttributeValue => ({ kind: 'float', value }),
  int: (value: number | bigint): AttributeValue => ({ kind: 'int', value }),
  string: (value: string): AttributeValue => ({ kind: 'string', value }),
  floats: (value: readonly number[]): AttributeValue => ({ kind: 'floats', value }),
  ints: (value: readonly (number | bigint)[]): AttributeValue => ({ kind: 'ints', value }),
  tensor: (value: TensorData): AttributeValue => ({ kind: 'tensor', value }),
}

export interface NodeDef {
  opType: string
  inputs: readonly string[]
  outputs: readonly string[]
  name: string
  domain?: string
  attributes?: Readonly<Record<string, AttributeValue>>
}

export interface ValueInfo {
  name: string
  elemType: DataType
  dims: readonly Dim[]
  doc?: string
}

export interface GraphDef {
  name: string
  nodes: readonly NodeDef[]
  initializers: readonly (TensorData & { name: string })[]
  inputs: readonly ValueInfo[]
  outputs: readonly ValueInfo[]
  doc?: string
}

export interface ModelDef {
  graph: GraphDef
  /** Operator sets by domain; "" is the default ai.onnx domain. */
  opsets: Readonly<Record<string, number>>
  irVersion: number
  producerName?: string
  producerVersion?: string
  doc?: string
  metadata?: Readonly<Record<string, string>>
}
