/** float32 (given as its bits) → IEEE half precision bits, rounded to nearest even (what torch's `.half()` does). */
export function floatBitsToHalf(x: number): number {
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

/** float32 values → float16 bits, for the weights of a `dtype: 'float16'` model. */
export function toFloat16Bits(values: Float32Array): Uint16Array {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length)
  const out = new Uint16Array(values.length)
  // A plain loop over the bits: a mapping callback per value takes minutes on a 600 M-value model.
  for (let i = 0; i < bits.length; i++) out[i] = floatBitsToHalf(bits[i])
  return out
}
