import { badRequest } from '@/lib/http/errors'

// Flags in query strings and form bodies as the Hub's clients spell them: `true`/`1` from the JS
// client and httpx, `True` from Python's requests (huggingface_hub before 1.0 passes a bool).
export function isTrueFlag(value: string | null | undefined): boolean {
  if (value == null) return false
  const v = value.toLowerCase()
  return v === 'true' || v === '1'
}

export function queryFlag(params: URLSearchParams, name: string): boolean {
  return isTrueFlag(params.get(name))
}

/**
 * A whole-number query parameter (`limit`, a page number): `fallback` when absent or empty; a larger number than
 * `max` asks for `max` (the Hub caps a listing's limit the same way, and clients ask for more than a page holds);
 * anything else, a fraction or less than `min`, is a 400 that names it.
 */
export function queryInteger(params: URLSearchParams, name: string, range: { min: number; max: number; fallback: number }): number {
  const value = params.get(name)
  if (value === null || value === '') return range.fallback
  // Digits only, as the Hub's clients write numbers ("1e2", "0x10" and " 5" are not what they send).
  const asked = /^\d{1,20}$/.test(value) ? Number(value) : NaN
  if (!Number.isInteger(asked) || asked < range.min) {
    throw badRequest(`Invalid ${name} ${JSON.stringify(value.slice(0, 40))}: give a whole number of at least ${range.min}`)
  }
  return Math.min(asked, range.max)
}
