import type { ParameterSource } from '@/lib/transformer2d'

/** Deterministic pseudo-random weights for any state-dict key the graph asks for (configs without a golden checkpoint). */
export function randomWeights(seed = 1): ParameterSource {
  let state = seed >>> 0
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32 - 0.5
  }
  const cache = new Map<string, Float32Array>()
  return {
    take(name, shape) {
      let data = cache.get(name)
      if (!data) {
        data = Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => next() * 0.2)
        cache.set(name, data)
      }
      return data
    },
  }
}
