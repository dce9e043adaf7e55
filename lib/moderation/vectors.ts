// Vector arithmetic shared by the API (similarity of two embeddings) and the offline engines.

/** Cosine similarity; a zero vector is similar to nothing (sentence-transformers' cos_sim gives 0). */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const plain = cosineOf(a, b, 1, 1)
  if (Number.isFinite(plain)) return plain
  // Squares of values near 1e308 (a caller's emb1/emb2) overflow to an infinite norm: a NaN (a null
  // in JSON) or a wrong 0. Each vector divided by its largest magnitude has the same cosine and no overflow; only
  // then, so that every other answer keeps its exact digits.
  return cosineOf(a, b, largestMagnitude(a), largestMagnitude(b))
}

function cosineOf(a: ArrayLike<number>, b: ArrayLike<number>, scaleA: number, scaleB: number): number {
  if (scaleA === 0 || scaleB === 0) return 0
  let dot = 0
  let normA = 0
  let normB = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i]! / scaleA
    const y = b[i]! / scaleB
    dot += x * y
    normA += x * x
    normB += y * y
  }
  // An overflowed sum makes the answer NaN (or a wrong 0): the caller then scales.
  if (!Number.isFinite(dot) || !Number.isFinite(normA) || !Number.isFinite(normB)) return Number.NaN
  const denominator = Math.sqrt(normA) * Math.sqrt(normB)
  return denominator === 0 ? 0 : dot / denominator
}

function largestMagnitude(v: ArrayLike<number>): number {
  let largest = 0
  for (let i = 0; i < v.length; i++) largest = Math.max(largest, Math.abs(v[i]!))
  return largest
}
