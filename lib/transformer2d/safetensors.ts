import { Transformer2DError } from './errors'

/**
 * Reader for the safetensors format: 8-byte little-endian header length, a JSON header mapping tensor names
 * to {dtype, shape, data_offsets}, then the raw little-endian data. Works on bytes, so it runs anywhere.
 */

export type SafetensorsDtype = 'F64' | 'F32' | 'F16' | 'BF16' | 'I64' | 'I32' | 'I16' | 'I8' | 'U8' | 'BOOL'

export interface SafetensorsTensor {
  dtype: SafetensorsDtype
  shape: number[]
  /** The tensor's bytes, a view into the file. */
  bytes: Uint8Array
}

export interface SafetensorsFile {
  metadata: Record<string, string>
  tensors: Map<string, SafetensorsTensor>
}

const BYTES_PER_ELEMENT: Record<SafetensorsDtype, number> = { F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1 }

function invalid(source: string, problem: string): never {
  throw new Transformer2DError('checkpoint', `${source} is not a valid safetensors file: ${problem}.`)
}

export function parseSafetensors(file: Uint8Array, source = 'safetensors data'): SafetensorsFile {
  if (file.length < 8) invalid(source, 'it is shorter than the 8-byte header length')
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const headerLength = Number(view.getBigUint64(0, true))
  if (8 + headerLength > file.length) invalid(source, `the header length ${headerLength} runs past the end of the file`)
  let header: Record<string, unknown>
  try {
    header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + headerLength)))
  } catch {
    invalid(source, 'the header is not JSON')
  }
  const data = file.subarray(8 + headerLength)
  const tensors = new Map<string, SafetensorsTensor>()
  let metadata: Record<string, string> = {}
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = entry as Record<string, string>
      continue
    }
    const { dtype, shape, data_offsets: offsets } = entry as { dtype: SafetensorsDtype; shape: number[]; data_offsets: [number, number] }
    if (!(dtype in BYTES_PER_ELEMENT)) invalid(source, `tensor "${name}" has unsupported dtype ${dtype}`)
    const expected = shape.reduce((a, b) => a * b, 1) * BYTES_PER_ELEMENT[dtype]
    if (offsets[1] - offsets[0] !== expected || offsets[1] > data.length) {
      invalid(source, `tensor "${name}" (${dtype} [${shape}]) has data offsets ${offsets} that do not fit its size`)
    }
    tensors.set(name, { dtype, shape, bytes: data.subarray(offsets[0], offsets[1]) })
  }
  return { metadata, tensors }
}

type TypedArrayConstructor<T> = { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number }

/** A typed view of the bytes without copying, or of a copy when they are not aligned for the element size. */
function typedView<T>(Type: TypedArrayConstructor<T>, bytes: Uint8Array): T {
  const source = bytes.byteOffset % Type.BYTES_PER_ELEMENT === 0 ? bytes : bytes.slice()
  return new Type(source.buffer as ArrayBuffer, source.byteOffset, source.byteLength / Type.BYTES_PER_ELEMENT)
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1
  const exponent = (h >> 10) & 0x1f
  const fraction = h & 0x3ff
  if (exponent === 0) return sign * fraction * 2 ** -24
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15)
}

/** Reads an integer or float tensor exactly as stored (used for test inputs and masks). */
export function readTensorData(tensor: SafetensorsTensor, name: string): Float32Array | Float64Array | BigInt64Array | Int32Array | Uint8Array {
  switch (tensor.dtype) {
    case 'F64':
      return typedView(Float64Array, tensor.bytes)
    case 'I64':
      return typedView(BigInt64Array, tensor.bytes)
    case 'I32':
      return typedView(Int32Array, tensor.bytes)
    case 'U8':
    case 'BOOL':
      return tensor.bytes
    default:
      return toFloat32(tensor, name)
  }
}

/** Converts a floating-point tensor (F32, F16, BF16 or F64) to float32, as diffusers does when it loads into a float32 model. */
export function toFloat32(tensor: SafetensorsTensor, name: string): Float32Array {
  const { bytes } = tensor
  switch (tensor.dtype) {
    case 'F32':
      return typedView(Float32Array, bytes)
    case 'F64':
      return Float32Array.from(typedView(Float64Array, bytes))
    case 'F16': {
      const halves = typedView(Uint16Array, bytes)
      const out = new Float32Array(halves.length)
      for (let i = 0; i < halves.length; i++) out[i] = halfToFloat(halves[i])
      return out
    }
    case 'BF16': {
      // bfloat16 is the upper half of a float32.
      const halves = typedView(Uint16Array, bytes)
      const words = new Uint32Array(halves.length)
      for (let i = 0; i < halves.length; i++) words[i] = halves[i] << 16
      return new Float32Array(words.buffer)
    }
    default:
      throw new Transformer2DError('checkpoint', `Tensor "${name}" has dtype ${tensor.dtype}; model weights must be F32, F16, BF16 or F64.`)
  }
}
