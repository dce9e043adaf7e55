/** Element types a forward argument may have; `bool` masks are stored one byte per element. */
export type TensorType = 'float32' | 'float64' | 'int64' | 'int32' | 'bool'

export type TensorArray = Float32Array | Float64Array | BigInt64Array | Int32Array | Uint8Array

/**
 * A dense, row-major tensor. ONNX Runtime `Tensor` objects fit this shape, so callers can pass them directly.
 * When `type` is absent it follows from the array (a Uint8Array is read as `bool`).
 */
export interface TensorLike {
  readonly data: TensorArray
  readonly dims: readonly number[]
  readonly type?: string
}

export interface FloatTensor {
  readonly data: Float32Array
  readonly dims: readonly number[]
  readonly type: 'float32'
}

export function tensorType(tensor: TensorLike): TensorType {
  if (tensor.type !== undefined) {
    if (['float32', 'float64', 'int64', 'int32', 'bool'].includes(tensor.type)) return tensor.type as TensorType
    throw new TypeError(`unsupported tensor type "${tensor.type}"`)
  }
  if (tensor.data instanceof Float32Array) return 'float32'
  if (tensor.data instanceof Float64Array) return 'float64'
  if (tensor.data instanceof BigInt64Array) return 'int64'
  if (tensor.data instanceof Int32Array) return 'int32'
  return 'bool'
}

export function numel(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1)
}
