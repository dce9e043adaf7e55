/** float32 → IEEE half precision bits, rounded to nearest even (torch's `.half()`), for fp16 weights. */
export function toFloat16Bits(values: Float32Array): Uint16Array {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length)
  const out = new Uint16Array(values.length)
  // A plain loop over the bits: a callback per value takes minutes on a 600 M-value model.
  for (let i = 0; i < bits.length; i++) {
    const x = bits[i]
    const sign = (x >>> 16) & 0x8000
    const exponent = (x >>> 23) & 0xff
    const mantissa = x & 0x7fffff
    if (exponent === 0xff) {
      out[i] = sign | 0x7c00 | (mantissa ? 0x200 : 0)
      continue
    }
    const e = exponent - 127 + 15
    if (e >= 0x1f) {
      out[i] = sign | 0x7c00
      continue
    }
    if (e <= 0) {
      if (e < -10) {
        out[i] = sign
        continue
      }
      const m = mantissa | 0x800000
      const shift = 14 - e
      const half = m >>> shift
      const rest = m & ((1 << shift) - 1)
      const midpoint = 1 << (shift - 1)
      out[i] = sign | (half + (rest > midpoint || (rest === midpoint && half & 1) ? 1 : 0))
      continue
    }
    const half = (e << 10) | (mantissa >>> 13)
    const rest = mantissa & 0x1fff
    out[i] = sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0))
  }
  return out
}
