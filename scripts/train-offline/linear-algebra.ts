/** The little dense linear algebra the embedding trainer needs: randomized truncated SVD of a row-major matrix. */
import { seededRandom } from './random'

export type Matrix = { rows: number; cols: number; data: Float32Array }

export function matrix(rows: number, cols: number): Matrix {
  return { rows, cols, data: new Float32Array(rows * cols) }
}

/** a · b, or aᵀ · b when `transposeA` (without building aᵀ). */
function multiply(a: Matrix, b: Matrix, transposeA = false): Matrix {
  const out = matrix(transposeA ? a.cols : a.rows, b.cols)
  for (let i = 0; i < a.rows; i++) {
    for (let k = 0; k < a.cols; k++) {
      const v = a.data[i * a.cols + k]
      if (v === 0) continue
      // a[i][k] adds v·b[k] to out[i] for a · b, and v·b[i] to out[k] for aᵀ · b.
      const target = (transposeA ? k : i) * b.cols
      const source = (transposeA ? i : k) * b.cols
      for (let j = 0; j < b.cols; j++) out.data[target + j] += v * b.data[source + j]
    }
  }
  return out
}

/** Orthonormalises the columns in place (modified Gram-Schmidt, in float64 per column). */
function orthonormaliseColumns(m: Matrix): void {
  const column = (j: number) => Float64Array.from({ length: m.rows }, (_, i) => m.data[i * m.cols + j])
  const columns: Float64Array[] = []
  for (let j = 0; j < m.cols; j++) {
    const v = column(j)
    for (const q of columns) {
      let dot = 0
      for (let i = 0; i < v.length; i++) dot += v[i] * q[i]
      for (let i = 0; i < v.length; i++) v[i] -= dot * q[i]
    }
    let norm = 0
    for (let i = 0; i < v.length; i++) norm += v[i] * v[i]
    norm = Math.sqrt(norm) || 1
    for (let i = 0; i < v.length; i++) v[i] /= norm
    columns.push(v)
    for (let i = 0; i < m.rows; i++) m.data[i * m.cols + j] = v[i]
  }
}

/** Eigen-decomposition of a small symmetric matrix by cyclic Jacobi rotations; eigenvalues descending. */
export function symmetricEigen(a: Float64Array[], sweeps = 30): { values: number[]; vectors: Float64Array[] } {
  const n = a.length
  const m = a.map((row) => Float64Array.from(row))
  const v = Array.from({ length: n }, (_, i) => Float64Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)))
  for (let sweep = 0; sweep < sweeps; sweep++) {
    let off = 0
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += m[p][q] * m[p][q]
    if (off < 1e-18) break
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(m[p][q]) < 1e-30) continue
        const theta = (m[q][q] - m[p][p]) / (2 * m[p][q])
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1)
        const s = t * c
        for (let k = 0; k < n; k++) {
          const mkp = m[k][p]
          const mkq = m[k][q]
          m[k][p] = c * mkp - s * mkq
          m[k][q] = s * mkp + c * mkq
        }
        for (let k = 0; k < n; k++) {
          const mpk = m[p][k]
          const mqk = m[q][k]
          m[p][k] = c * mpk - s * mqk
          m[q][k] = s * mpk + c * mqk
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p]
          const vkq = v[k][q]
          v[k][p] = c * vkp - s * vkq
          v[k][q] = s * vkp + c * vkq
        }
      }
    }
  }
  const order = m.map((row, i) => [row[i], i] as const).sort((x, y) => y[0] - x[0])
  return { values: order.map(([value]) => value), vectors: order.map(([, i]) => Float64Array.from(v, (row) => row[i])) }
}

/**
 * Rank-`rank` SVD of `m` by the randomized range finder (Halko et al.): returns the left
 * singular vectors (rows x rank, row-major) and the singular values.
 */
export function truncatedSvd(m: Matrix, rank: number, options: { oversample: number; powerIterations: number; seed: number; log?: (line: string) => void }): { u: Matrix; singular: number[] } {
  const random = seededRandom(options.seed)
  const k = rank + options.oversample
  const omega = matrix(m.cols, k)
  for (let i = 0; i < omega.data.length; i++) omega.data[i] = random() * 2 - 1
  let y = multiply(m, omega)
  orthonormaliseColumns(y)
  for (let iteration = 0; iteration < options.powerIterations; iteration++) {
    const z = multiply(m, y, true)
    orthonormaliseColumns(z)
    y = multiply(m, z)
    orthonormaliseColumns(y)
    options.log?.(`  power iteration ${iteration + 1}/${options.powerIterations}`)
  }
  // B = Qᵀ M is k x cols; B Bᵀ = U_B Σ² U_Bᵀ gives the singular vectors in the range of Q.
  const b = multiply(y, m, true)
  const gram = Array.from({ length: k }, (_, i) =>
    Float64Array.from({ length: k }, (_, j) => {
      let s = 0
      for (let c = 0; c < b.cols; c++) s += b.data[i * b.cols + c] * b.data[j * b.cols + c]
      return s
    }),
  )
  const { values, vectors } = symmetricEigen(gram)
  const u = matrix(m.rows, rank)
  for (let i = 0; i < m.rows; i++) {
    for (let r = 0; r < rank; r++) {
      let s = 0
      for (let j = 0; j < k; j++) s += y.data[i * k + j] * vectors[r][j]
      u.data[i * rank + r] = s
    }
  }
  return { u, singular: values.slice(0, rank).map((v) => Math.sqrt(Math.max(0, v))) }
}
