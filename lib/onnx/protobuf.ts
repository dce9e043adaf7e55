/**
 * Minimal protocol-buffers wire encoding and decoding: exactly what ONNX model files need.
 *
 * Hand-written rather than generated so that the writer has no runtime dependency and works the same in
 * Node and in the browser. Large byte fields (tensor raw_data) are kept by reference until `finish()`,
 * so a model with hundreds of MB of weights is copied once, not once per nesting level.
 */

const WIRE_VARINT = 0
const WIRE_FIXED64 = 1
const WIRE_LENGTH_DELIMITED = 2
const WIRE_FIXED32 = 5

/** Byte fields at least this long are referenced instead of copied into the scratch buffer. */
const REFERENCE_THRESHOLD = 256

export class ProtoWriter {
  private readonly parts: Uint8Array[] = []
  private scratch: number[] = []
  private partsLength = 0

  get length(): number {
    return this.partsLength + this.scratch.length
  }

  varint(field: number, value: number | bigint): this {
    this.tag(field, WIRE_VARINT)
    this.rawVarint(value)
    return this
  }

  float32(field: number, value: number): this {
    this.tag(field, WIRE_FIXED32)
    this.rawBytes(new Uint8Array(new Float32Array([value]).buffer))
    return this
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value))
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WIRE_LENGTH_DELIMITED)
    this.rawVarint(value.length)
    this.rawBytes(value)
    return this
  }

  message(field: number, message: ProtoWriter): this {
    this.tag(field, WIRE_LENGTH_DELIMITED)
    this.rawVarint(message.length)
    message.flush()
    this.flush()
    for (const part of message.parts) this.pushPart(part)
    return this
  }

  packedVarints(field: number, values: readonly (number | bigint)[]): this {
    const packed = new ProtoWriter()
    for (const v of values) packed.rawVarint(v)
    return this.message(field, packed)
  }

  packedFloat32(field: number, values: readonly number[]): this {
    return this.bytes(field, new Uint8Array(new Float32Array(values).buffer))
  }

  finish(): Uint8Array {
    this.flush()
    const out = new Uint8Array(this.partsLength)
    let offset = 0
    for (const part of this.parts) {
      out.set(part, offset)
      offset += part.length
    }
    return out
  }

  private tag(field: number, wireType: number): void {
    this.rawVarint(field * 8 + wireType)
  }

  private rawVarint(value: number | bigint): void {
    // Negative int64 values are written as their 64-bit two's complement (10 bytes), as protobuf requires.
    let v = BigInt.asUintN(64, BigInt(value))
    while (v >= 0x80n) {
      this.scratch.push(Number(v & 0x7fn) | 0x80)
      v >>= 7n
    }
    this.scratch.push(Number(v))
  }

  private rawBytes(bytes: Uint8Array): void {
    if (bytes.length < REFERENCE_THRESHOLD) {
      for (let i = 0; i < bytes.length; i++) this.scratch.push(bytes[i])
      return
    }
    this.flush()
    this.pushPart(bytes)
  }

  private pushPart(part: Uint8Array): void {
    this.parts.push(part)
    this.partsLength += part.length
  }

  private flush(): void {
    if (this.scratch.length === 0) return
    this.pushPart(Uint8Array.from(this.scratch))
    this.scratch = []
  }
}

/** One decoded field: varints as bigint, length-delimited fields as a view into the source bytes. */
export type ProtoField =
  | { field: number; wireType: typeof WIRE_VARINT; value: bigint }
  | { field: number; wireType: typeof WIRE_LENGTH_DELIMITED; value: Uint8Array }
  | { field: number; wireType: typeof WIRE_FIXED32 | typeof WIRE_FIXED64; value: Uint8Array }

/** Iterates the top-level fields of one encoded message without decoding nested messages. */
export function* readFields(bytes: Uint8Array): Generator<ProtoField> {
  let pos = 0
  const varint = (): bigint => {
    let result = 0n
    let shift = 0n
    for (;;) {
      if (pos >= bytes.length) throw new Error('protobuf: truncated varint')
      const b = bytes[pos++]
      result |= BigInt(b & 0x7f) << shift
      if ((b & 0x80) === 0) return result
      shift += 7n
    }
  }
  while (pos < bytes.length) {
    const key = Number(varint())
    const field = key >>> 3
    const wireType = key & 7
    if (wireType === WIRE_VARINT) {
      yield { field, wireType, value: varint() }
    } else if (wireType === WIRE_LENGTH_DELIMITED) {
      const length = Number(varint())
      if (pos + length > bytes.length) throw new Error('protobuf: truncated length-delimited field')
      yield { field, wireType, value: bytes.subarray(pos, pos + length) }
      pos += length
    } else if (wireType === WIRE_FIXED32 || wireType === WIRE_FIXED64) {
      const length = wireType === WIRE_FIXED32 ? 4 : 8
      yield { field, wireType, value: bytes.subarray(pos, pos + length) }
      pos += length
    } else {
      throw new Error(`protobuf: unsupported wire type ${wireType}`)
    }
  }
}
