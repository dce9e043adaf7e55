// The one bounded reader of request bodies. Each protocol turns its errors into its own answer
// (the hub's {error} 413, RFC 6749 invalid_request, FastAPI's 413): the reading itself is the same.

import { Readable } from 'node:stream'
import type { ReadableStream as NodeWebStream } from 'node:stream/web'
import { processState } from '@/lib/config/process-state'

/** The body is (or says it is) larger than the route accepts. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Request body too large: at most ${maxBytes} bytes are accepted`)
  }
}

/** The client went away or sent a broken stream. */
export class UnreadableBodyError extends Error {
  constructor() {
    super('Unreadable request body')
  }
}

/**
 * Reads at most `maxBytes` of the body: a larger declared Content-Length is refused before a byte
 * is read, and a stream that grows past the limit is cancelled as soon as it does. Under the fast
 * path it reads the connection's own stream (see requestBodyStream), which for a token request's
 * few hundred bytes cost a twentieth of the request's CPU as a web stream.
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError(maxBytes)
  const source: AsyncIterable<Uint8Array> | null = takeNodeBody(request) ?? (request.body as AsyncIterable<Uint8Array> | null)
  if (!source) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    // Leaving the loop early (too large) cancels the stream, as the reader's cancel did.
    for await (const chunk of source) {
      size += chunk.byteLength
      if (size > maxBytes) throw new BodyTooLargeError(maxBytes)
      chunks.push(chunk)
    }
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error
    throw new UnreadableBodyError()
  }
  return Buffer.concat(chunks, size)
}

/** The bounded body as UTF-8 text. */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBoundedBody(request, maxBytes))
}

/** A body that is not a JSON object; the message says which way, in words a client can act on. */
export class NotJsonObjectError extends Error {}

export function parseJsonObject(text: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new NotJsonObjectError('Body must be valid JSON')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new NotJsonObjectError('Body must be a JSON object')
  return parsed as Record<string, unknown>
}

// Requests that npm start's fast path (scripts/front.ts) built over a Node request, with that
// request's own stream. Per process (lib/config/process-state): the fast path's copy of this module
// registers, the route bundle's copy reads.
const nodeBodies = processState('nodeRequestBodies', () => new WeakMap<Request, Readable>())

/** For the fast path: the bytes of `request`'s body are `body`'s, which requestBodyStream may read directly. */
export function attachNodeBody(request: Request, body: Readable) {
  nodeBodies.set(request, body)
}

/** The connection's own stream of a fast-path request, once, while nothing has read its web body. */
function takeNodeBody(request: Request): Readable | null {
  const node = nodeBodies.get(request)
  if (!node || request.bodyUsed) return null
  nodeBodies.delete(request)
  return node
}

/**
 * A request body as a Node stream, for handlers that stream it to storage (LFS uploads, the NDJSON
 * commit). Under the fast path it is the connection's own stream: the body as a web stream and back
 * to a Node stream cost about a fifth of an upload's CPU (bench/files/RESULTS.md). Otherwise, and
 * once anything has read the web body, the web body converted.
 */
export function requestBodyStream(request: Request): Readable {
  const node = takeNodeBody(request)
  if (node) return node
  return request.body ? Readable.fromWeb(request.body as unknown as NodeWebStream<Uint8Array>) : Readable.from([])
}
