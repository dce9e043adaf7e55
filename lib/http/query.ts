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
