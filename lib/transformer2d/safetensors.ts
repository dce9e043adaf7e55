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

/** A tensor's entry in a safetensors header: where its bytes are, relative to the start of the data section. */
export interface SafetensorsEntry {
  dtype: SafetensorsDtype
  shape: number[]
  begin: number
  end: number
}

export interface SafetensorsHeader {
  metadata: Record<string, string>
  entries: Map<string, SafetensorsEntry>
  /** Byte offset of the data section in the file (8 + header length). */
  dataStart: number
}

/** Headers larger than this are refused before they are read (safetensors itself caps them at 100 MB). */
const MAX_HEADER_BYTES = 100_000_000

/** Reads the 8-byte header length at the start of a safetensors file and checks it fits `fileSize`. */
export function safetensorsHeaderLength(prefix: Uint8Array, fileSize: number, source: string): number {
  if (fileSize < 8 || prefix.length < 8) invalid(source, `it is ${fileSize} bytes, shorter than the 8-byte header length`)
  const headerLength = Number(new DataView(prefix.buffer, prefix.byteOffset, 8).getBigUint64(0, true))
  if (headerLength > MAX_HEADER_BYTES) invalid(source, `the header length ${headerLength} is over the ${MAX_HEADER_BYTES}-byte limit`)
  if (8 + headerLength > fileSize) invalid(source, `the header length ${headerLength} runs past the end of the file (${fileSize} bytes)`)
  return headerLength
}

/**
 * Parses and checks a safetensors JSON header: every tensor's dtype is known, its byte range matches its shape
 * and lies inside the file (`fileSize` bytes).
 */
export function parseSafetensorsHeader(headerBytes: Uint8Array, fileSize: number, source: string): SafetensorsHeader {
  let header: Record<string, unknown>
  try {
    header = JSON.parse(new TextDecoder().decode(headerBytes))
  } catch {
    invalid(source, 'the header is not JSON')
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) invalid(source, 'the header is not a JSON object')
  const dataStart = 8 + headerBytes.length
  const dataLength = fileSize - dataStart
  const entries = new Map<string, SafetensorsEntry>()
  let metadata: Record<string, string> = {}
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = entry as Record<string, string>
      continue
    }
    const { dtype, shape, data_offsets: offsets } = (entry ?? {}) as { dtype: unknown; shape: unknown; data_offsets: unknown }
    if (typeof dtype !== 'string') invalid(source, `tensor "${name}" has no dtype`)
    if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) invalid(source, `tensor "${name}" has no valid shape`)
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isInteger(o) && o >= 0)) invalid(source, `tensor "${name}" has no valid data_offsets`)
    if (!(dtype in BYTES_PER_ELEMENT)) {
      throw new Transformer2DError('checkpoint', `Tensor "${name}" in ${source} has dtype ${dtype}, which this loader cannot read; model weights must be F32, F16, BF16 or F64.`)
    }
    const expected = shape.reduce((a: number, b: number) => a * b, 1) * BYTES_PER_ELEMENT[dtype as SafetensorsDtype]
    const [begin, end] = offsets as [number, number]
    if (end - begin !== expected) {
      invalid(source, `tensor "${name}" (${dtype} [${shape}], ${expected} bytes) has data offsets [${begin}, ${end}] (${end - begin} bytes)`)
    }
    if (end > dataLength) {
      invalid(source, `tensor "${name}" ends at data byte ${end} but the file has only ${dataLength} bytes of data (${fileSize} bytes in all): the file is truncated`)
    }
    entries.set(name, { dtype: dtype as SafetensorsDtype, shape, begin, end })
  }
  return { metadata, entries, dataStart }
}

export function parseSafetensors(file: Uint8Array, source = 'safetensors data'): SafetensorsFile {
  const headerLength = safetensorsHeaderLength(file, file.length, source)
  const { metadata, entries, dataStart } = parseSafetensorsHeader(file.subarray(8, 8 + headerLength), file.length, source)
  const tensors = new Map<string, SafetensorsTensor>()
  for (const [name, { dtype, shape, begin, end }] of entries) tensors.set(name, { dtype, shape, bytes: file.subarray(dataStart + begin, dataStart + end) })
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

let halfValues: Float32Array | null = null

/** Every half-precision bit pattern's float32 value: a table lookup converts a 1 GB fp16 checkpoint in seconds. */
function halfTable(): Float32Array {
  if (!halfValues) halfValues = Float32Array.from({ length: 65536 }, (_, h) => halfToFloat(h))
  return halfValues
}

/** A tensor to write: its bytes are the typed array's (little-endian, as every JavaScript platform stores them). */
export type TensorToWrite = { dtype: SafetensorsDtype; shape: readonly number[]; data: ArrayBufferView }

/**
 * safetensors bytes, written as the safetensors library writes them: `__metadata__` first when there is any, then
 * the tensors sorted by name, each right after the previous one, the header padded with spaces to a multiple of 8.
 */
export function encodeSafetensors(tensors: ReadonlyMap<string, TensorToWrite>, metadata?: Readonly<Record<string, string>>): Uint8Array {
  const names = [...tensors.keys()].sort()
  const header: Record<string, unknown> = metadata && Object.keys(metadata).length > 0 ? { __metadata__: metadata } : {}
  let offset = 0
  for (const name of names) {
    const { dtype, shape, data } = tensors.get(name)!
    const count = shape.reduce((a, b) => a * b, 1)
    if (data.byteLength !== count * BYTES_PER_ELEMENT[dtype]) {
      throw new Transformer2DError('input', `${name}: ${data.byteLength} bytes do not hold shape [${shape.join(', ')}] of ${dtype}.`)
    }
    header[name] = { dtype, shape, data_offsets: [offset, offset + data.byteLength] }
    offset += data.byteLength
  }
  let json = JSON.stringify(header)
  json += ' '.repeat((8 - ((8 + new TextEncoder().encode(json).length) % 8)) % 8)
  const headerBytes = new TextEncoder().encode(json)
  const out = new Uint8Array(8 + headerBytes.length + offset)
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true)
  out.set(headerBytes, 8)
  let position = 8 + headerBytes.length
  for (const name of names) {
    const { data } = tensors.get(name)!
    out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), position)
    position += data.byteLength
  }
  return out
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
      const table = halfTable()
      const out = new Float32Array(halves.length)
      for (let i = 0; i < halves.length; i++) out[i] = table[halves[i]]
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
