/**
 * How far two answers to the same check are apart (browser vs server): labels, lengths and keys
 * must be equal; numbers may differ by floating-point noise between onnxruntime-web and
 * onnxruntime-node. Timings and engine names are not part of the answer and are skipped.
 */
const NOT_COMPARED = new Set(['time_taken', 'modelcalltime', 'engine'])

/** Numbers the API rounds to 2 or 4 decimals can land on either side of a rounding step. */
export const AGREEMENT_TOLERANCE = 1e-3

export type AnswerDifference = { maxAbsDifference: number; mismatches: string[]; agree: boolean }

export function compareAnswers(a: unknown, b: unknown, tolerance = AGREEMENT_TOLERANCE): AnswerDifference {
  let maxAbsDifference = 0
  const mismatches: string[] = []
  const walk = (x: unknown, y: unknown, where: string) => {
    if (typeof x === 'number' && typeof y === 'number') {
      maxAbsDifference = Math.max(maxAbsDifference, Math.abs(x - y))
      return
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) mismatches.push(`${where || 'answer'}: ${x.length} vs ${y.length} items`)
      else x.forEach((item, i) => walk(item, y[i], `${where}[${i}]`))
      return
    }
    if (x && y && typeof x === 'object' && typeof y === 'object') {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)].filter((k) => !NOT_COMPARED.has(k)))
      for (const key of keys) walk((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], where ? `${where}.${key}` : key)
      return
    }
    if (x !== y) mismatches.push(`${where || 'answer'}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`)
  }
  walk(a, b, '')
  return { maxAbsDifference, mismatches, agree: mismatches.length === 0 && maxAbsDifference <= tolerance }
}
