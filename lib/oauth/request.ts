// Reading OAuth request parameters: form-encoded or JSON bodies (huggingface_hub's trusted-publisher
// client posts JSON), with a size limit. Unknown parameters are kept and ignored by whoever reads.
import { BodyTooLargeError, NotJsonObjectError, parseJsonObject, readBoundedText } from '@/lib/http/body'
import { invalidRequest } from '@/lib/oauth/errors'

export const MAX_BODY_BYTES = 16 * 1024
const MAX_VALUE_LENGTH = 4096

export type Params = Map<string, string>

/** Each parameter once (RFC 6749 3.1: repeated parameters are an error), bounded in length. */
export function paramsFrom(entries: Iterable<[string, unknown]>): Params {
  const params: Params = new Map()
  for (const [key, raw] of entries) {
    if (raw === undefined || raw === null) continue
    const value = typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : null
    if (value === null) throw invalidRequest(`Parameter ${key.slice(0, 40)} must be a string`)
    if (params.has(key)) throw invalidRequest(`Parameter ${key.slice(0, 40)} is repeated`)
    if (value.length > MAX_VALUE_LENGTH) throw invalidRequest(`Parameter ${key.slice(0, 40)} is too long`)
    params.set(key, value)
  }
  return params
}

/**
 * The first key a JSON object text names twice at its top level, or null. JSON.parse keeps the last
 * value of a repeated key; a repeated form parameter is refused, so a repeated JSON one is too (a
 * proxy reading the first value must not see another request than the hub). `text` is valid JSON.
 */
export function repeatedTopLevelKey(text: string): string | null {
  const seen = new Set<string>()
  let depth = 0
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (char === '"') {
      let end = i + 1
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      if (depth === 1 && expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string
        if (seen.has(key)) return key
        seen.add(key)
        expectKey = false
      }
      i = end
    } else if (char === '{' || char === '[') {
      depth++
      expectKey = depth === 1 && char === '{'
    } else if (char === '}' || char === ']') depth--
    else if (char === ',' && depth === 1) expectKey = true
  }
  return null
}

export async function bodyParams(request: Request): Promise<Params> {
  let text: string
  try {
    text = await readBoundedText(request, MAX_BODY_BYTES)
  } catch (error) {
    throw invalidRequest(error instanceof BodyTooLargeError ? 'Request body too large' : 'Unreadable request body')
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type === 'application/json') {
    try {
      const params = paramsFrom(Object.entries(parseJsonObject(text)))
      const repeated = repeatedTopLevelKey(text)
      if (repeated !== null) throw invalidRequest(`Parameter ${repeated.slice(0, 40)} is repeated`)
      return params
    } catch (error) {
      if (error instanceof NotJsonObjectError) throw invalidRequest(error.message)
      throw error
    }
  }
  if (type === 'application/x-www-form-urlencoded' || (type === '' && text === '')) return paramsFrom(new URLSearchParams(text))
  throw invalidRequest('Content-Type must be application/x-www-form-urlencoded or application/json')
}

/** A parameter that must be present and non-empty. */
export function required(params: Params, name: string): string {
  const value = params.get(name)
  if (!value) throw invalidRequest(`Missing parameter: ${name}`)
  return value
}
