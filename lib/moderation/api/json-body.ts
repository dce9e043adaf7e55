import { BodyTooLargeError, readBoundedBody } from '@/lib/http/body'
import { ModerationApiError, notAnObject, validationError, type ErrorItem } from './errors'

/**
 * Reading the request body the way FastAPI does: at most `maxBytes` (413 beyond); read as JSON only
 * when its Content-Type says JSON or is absent, else validated as raw text (a 422); UTF-8 (400
 * otherwise), JSON with Python's decode error as a 422 `json_invalid` at `["body", <position>]`.
 * An empty body or JSON `null` is a missing body.
 */

export function payloadTooLarge(maxBytes: number): ModerationApiError {
  return new ModerationApiError(413, `Request body too large: at most ${maxBytes} bytes are accepted`)
}

export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  try {
    return await readBoundedBody(request, maxBytes)
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw payloadTooLarge(maxBytes)
    throw new ModerationApiError(400, 'Unreadable request body')
  }
}

const MISSING_BODY: ErrorItem = { type: 'missing', loc: ['body'], msg: 'Field required', input: null }

/**
 * Deepest nesting of arrays and objects a body may have. Python's json gives up near its recursion
 * limit (1000); deeper bodies than any request schema has are refused here, because a validation
 * error echoes its input and serialising thousands of levels overflows the stack.
 */
export const MAX_JSON_DEPTH = 256

/** Whether arrays and objects nest deeper than `max` (an explicit stack: the value may be deeper than the call stack allows). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]]
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!
    if (depth > max) return true
    for (const child of Array.isArray(node) ? node : Object.values(node as object)) {
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1])
    }
  }
  return false
}

/**
 * Whether FastAPI reads a body with this Content-Type as JSON: when there is none, or its type is
 * application/json or application/*+json (parameters aside; Python's email.message reads a type
 * without exactly one slash as text/plain).
 */
export function readsAsJson(contentType: string | null): boolean {
  if (!contentType) return true
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase()
  const parts = type.split('/')
  if (parts.length !== 2) return false
  const [main, sub] = parts as [string, string]
  return main === 'application' && (sub === 'json' || sub.endsWith('+json'))
}

/** FastAPI's answer when Starlette's `json.loads` fails other than on the JSON itself: a body that is not UTF-8. */
export function unparsableBody(): ModerationApiError {
  return new ModerationApiError(400, 'There was an error parsing the body')
}

export function parseJsonBody(bytes: Uint8Array, contentType: string | null): unknown {
  if (bytes.byteLength === 0) throw validationError([MISSING_BODY])
  // FastAPI hands a body of another type to pydantic as bytes, which no request model accepts; the
  // error echoes them as text (FastAPI's encoder decodes them; invalid UTF-8 becomes U+FFFD here, not a 500).
  if (!readsAsJson(contentType)) throw validationError([notAnObject(new TextDecoder().decode(bytes))])
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw unparsableBody()
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    const { position, message } = pythonJsonError(text)
    throw validationError([{ type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: message } }])
  }
  if (value === null) throw validationError([MISSING_BODY])
  if (typeof value === 'object' && nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    throw validationError([{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: { error: 'Maximum nesting depth exceeded' } }])
  }
  return value
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message)
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y
const WHITESPACE = /[ \t\n\r]*/y

/**
 * Where and why CPython's `json.loads` (its C scanner, Python 3.12) rejects `text`. Only called for
 * text that JSON.parse rejected; the position counts code points, as Python's does. NaN and
 * Infinity, which Python accepts, are rejected like any other unexpected value.
 */
export function pythonJsonError(text: string): { position: number; message: string } {
  const skipWhitespace = (i: number) => {
    WHITESPACE.lastIndex = i
    WHITESPACE.exec(text)
    return WHITESPACE.lastIndex
  }

  const scanString = (quote: number): number => {
    let i = quote + 1
    while (i < text.length) {
      const code = text.charCodeAt(i)
      if (code === 0x22) return i + 1
      if (code < 0x20) throw new JsonSyntaxError('Invalid control character at', i)
      if (code === 0x5c) {
        const escape = text[i + 1]
        if (escape === undefined) break
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new JsonSyntaxError('Invalid \\uXXXX escape', i + 1)
          i += 6
          continue
        }
        if (!'"\\/bfnrt'.includes(escape)) throw new JsonSyntaxError('Invalid \\escape', i)
        i += 2
        continue
      }
      i++
    }
    throw new JsonSyntaxError('Unterminated string starting at', quote)
  }

  const scanValue = (i: number): number => {
    const character = text[i]
    if (character === '"') return scanString(i)
    if (character === '{') return scanObject(i)
    if (character === '[') return scanArray(i)
    for (const literal of ['null', 'true', 'false']) {
      if (text.startsWith(literal, i)) return i + literal.length
    }
    NUMBER.lastIndex = i
    if (NUMBER.exec(text)) return NUMBER.lastIndex
    throw new JsonSyntaxError('Expecting value', i)
  }

  const scanObject = (open: number): number => {
    let i = skipWhitespace(open + 1)
    if (text[i] === '}') return i + 1
    for (;;) {
      if (text[i] !== '"') throw new JsonSyntaxError('Expecting property name enclosed in double quotes', i)
      i = skipWhitespace(scanString(i))
      if (text[i] !== ':') throw new JsonSyntaxError("Expecting ':' delimiter", i)
      i = skipWhitespace(scanValue(skipWhitespace(i + 1)))
      if (text[i] === '}') return i + 1
      if (text[i] !== ',') throw new JsonSyntaxError("Expecting ',' delimiter", i)
      i = skipWhitespace(i + 1)
    }
  }

  const scanArray = (open: number): number => {
    let i = skipWhitespace(open + 1)
    if (text[i] === ']') return i + 1
    for (;;) {
      i = skipWhitespace(scanValue(i))
      if (text[i] === ']') return i + 1
      if (text[i] !== ',') throw new JsonSyntaxError("Expecting ',' delimiter", i)
      i = skipWhitespace(i + 1)
    }
  }

  const codePointPosition = (index: number) => [...text.slice(0, index)].length
  try {
    const end = skipWhitespace(scanValue(skipWhitespace(0)))
    if (end < text.length) return { position: codePointPosition(end), message: 'Extra data' }
    return { position: 0, message: 'Expecting value' }
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { position: codePointPosition(error.index), message: error.message }
    // Python gives up on deep nesting too (RecursionError); report it at the start.
    if (error instanceof RangeError) return { position: 0, message: 'Maximum nesting depth exceeded' }
    throw error
  }
}
