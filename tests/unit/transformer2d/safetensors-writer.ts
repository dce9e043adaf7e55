/** Writes safetensors files for tests (fp16/bf16 copies and shards of golden checkpoints). */

export type WriteDtype = 'F32' | 'F16' | 'BF16'

const f32 = new Float32Array(1)
const u32 = new Uint32Array(f32.buffer)

/** float32 → IEEE half, round to nearest even (what torch's .half() does). */
function floatToHalf(value: number): number {
  f32[0] = value
  const x = u32[0]
  const sign = (x >>> 16) & 0x8000
  const exponent = (x >>> 23) & 0xff
  const mantissa = x & 0x7fffff
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0)
  const e = exponent - 127 + 15
  if (e >= 0x1f) return sign | 0x7c00
  if (e <= 0) {
    if (e < -10) return sign
    const m = mantissa | 0x800000
    const shift = 14 - e
    const half = m >>> shift
    const rest = m & ((1 << shift) - 1)
    const midpoint = 1 << (shift - 1)
    return sign | (half + (rest > midpoint || (rest === midpoint && half & 1) ? 1 : 0))
  }
  const half = (e << 10) | (mantissa >>> 13)
  const rest = mantissa & 0x1fff
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0))
}

/** float32 → bfloat16, round to nearest even (torch's .bfloat16()). */
function floatToBfloat16(value: number): number {
  f32[0] = value
  const x = u32[0]
  return ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff
}

export function encodeSafetensors(tensors: Map<string, { shape: readonly number[]; data: Float32Array }>, dtype: WriteDtype): Uint8Array {
  const header: Record<string, unknown> = {}
  const chunks: Uint8Array[] = []
  let offset = 0
  for (const [name, { shape, data }] of tensors) {
    let bytes: Uint8Array
    if (dtype === 'F32') bytes = new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength))
    else bytes = new Uint8Array(Uint16Array.from(data, dtype === 'F16' ? floatToHalf : floatToBfloat16).buffer)
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes.length] }
    chunks.push(bytes)
    offset += bytes.length
  }
  let json = JSON.stringify(header)
  json += ' '.repeat((8 - ((8 + json.length) % 8)) % 8)
  const headerBytes = new TextEncoder().encode(json)
  const out = new Uint8Array(8 + headerBytes.length + offset)
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true)
  out.set(headerBytes, 8)
  let pos = 8 + headerBytes.length
  for (const chunk of chunks) {
    out.set(chunk, pos)
    pos += chunk.length
  }
  return out
}
