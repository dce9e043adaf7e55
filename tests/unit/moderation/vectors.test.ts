import { describe, expect, it } from 'vitest'
import { cosineSimilarity } from '@/lib/moderation/vectors'

describe('cosineSimilarity', () => {
  it('answers a number for embeddings near the largest doubles (their squares overflow), the same cosine as scaled down', () => {
    expect(cosineSimilarity([1e308, 1e308], [1e308, 1e308])).toBeCloseTo(1, 12)
    expect(cosineSimilarity([1e308, 0], [0, -1e308])).toBe(0)
    expect(cosineSimilarity([1e308, 1e308], [1, 0])).toBeCloseTo(Math.SQRT1_2, 12)
    expect(cosineSimilarity([3e307, 4e307], [3, 4])).toBeCloseTo(1, 12)
  })

  it('keeps the exact digits of ordinary vectors, and 0 for a zero vector', () => {
    const a = [0.1, -0.7, 0.3]
    const b = [0.5, 0.2, -0.9]
    const dot = a.reduce((s, x, i) => s + x * b[i]!, 0)
    const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0))
    expect(cosineSimilarity(a, b)).toBe(dot / (norm(a) * norm(b)))
    expect(cosineSimilarity([0, 0], [1, 2])).toBe(0)
  })
})
