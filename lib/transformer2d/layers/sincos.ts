/**
 * diffusers get_2d_sincos_pos_embed(dim, (gridH, gridW), base_size, interpolation_scale) as PatchEmbed uses it:
 * coordinates in float32, sin/cos in float64, result rounded to float32. Row t = i·gridW + j holds
 * [sin/cos of the column coordinate x_j | sin/cos of the row coordinate y_i] (the first half is the column).
 *
 * Computed here rather than in the graph so that it has float64 precision on every runtime (WebGPU has no float64).
 */
export function sincos2dPositionEmbedding(dim: number, gridH: number, gridW: number, baseSize: number, interpolationScale: number): Float32Array {
  const f = Math.fround
  const coordinates = (n: number): number[] =>
    Array.from({ length: n }, (_, k) => f(f(f(k) / f(n / baseSize)) / f(interpolationScale)))
  const ys = coordinates(gridH)
  const xs = coordinates(gridW)
  const half = dim / 2
  const quarter = half / 2
  // omega_k = 1 / 10000^(k / (half / 2)) for the half-width 1-D embedding of each coordinate.
  const omega = Array.from({ length: quarter }, (_, k) => 1 / 10000 ** (k / quarter))
  const table = new Float32Array(gridH * gridW * dim)
  for (let i = 0; i < gridH; i++) {
    for (let j = 0; j < gridW; j++) {
      const row = (i * gridW + j) * dim
      for (let k = 0; k < quarter; k++) {
        const ax = xs[j] * omega[k]
        const ay = ys[i] * omega[k]
        table[row + k] = Math.sin(ax)
        table[row + quarter + k] = Math.cos(ax)
        table[row + half + k] = Math.sin(ay)
        table[row + half + quarter + k] = Math.cos(ay)
      }
    }
  }
  return table
}
