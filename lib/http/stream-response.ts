// Responses whose body is a Node stream (file downloads). Next needs a web stream; npm start's fast
// path (scripts/front.ts) can write the Node stream to the socket directly, which skips a web
// stream's reader, its promises and a copy of bookkeeping per chunk.
import fs from 'node:fs'
import type http from 'node:http'
import type { Readable } from 'node:stream'
import { processState } from '@/lib/config/process-state'

// Per process (lib/config/process-state): the route bundle's copy of this module registers, the
// fast path's copy takes.
const nodeBodies = processState('nodeResponseBodies', () => new WeakMap<Response, Readable>())

/** A response over a Node stream, read one chunk per pull when read as a web stream. */
export function streamResponse(node: Readable, init: ResponseInit): Response {
  const chunks = node[Symbol.asyncIterator]()
  // highWaterMark 0: nothing is pulled before someone reads, so the fast path can still take `node` whole.
  // (Readable.toWeb measured several times slower for large files under next start: bench/files/RESULTS.md.)
  const web = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await chunks.next()
        if (done) controller.close()
        else controller.enqueue(value as Uint8Array)
      },
      async cancel() {
        node.destroy()
      },
    },
    { highWaterMark: 0 },
  )
  const response = new Response(web, init)
  nodeBodies.set(response, node)
  return response
}

/** For the fast path: the Node stream behind a response, once, while nothing has read its web body. */
export function takeNodeResponseBody(response: Response): Readable | null {
  const node = nodeBodies.get(response)
  if (!node || response.bodyUsed) return null
  nodeBodies.delete(response)
  return node
}

const CHUNK = 1024 * 1024
/** Reusable 1 MiB read buffers for file downloads (at most this many idle, process-wide). */
const pool = processState('downloadBufferPool', () => [] as Buffer[])
const POOL_MAX = 8

/** Waits until the socket takes more (or has closed). */
export function drained(res: http.ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/**
 * Writes a response's Node stream to the socket with back-pressure, then ends it; destroys the
 * stream if the client goes away. A file on disk (an fs.ReadStream over an open descriptor, as the
 * disk store makes) is read here instead, into buffers that are used again once the socket has
 * taken them: the stream would allocate a fresh 1 MiB buffer per read, each a new mapping whose
 * pages the kernel zero-fills and npm start's malloc settings (which keep the process small)
 * return at once.
 */
export async function sendNodeBody(node: Readable, res: http.ServerResponse): Promise<void> {
  try {
    // fs.ReadStream keeps its descriptor and range as fields that @types/node does not declare.
    const file = node instanceof fs.ReadStream ? (node as fs.ReadStream & { fd: unknown; start: unknown; end: unknown }) : null
    if (file && typeof file.fd === 'number' && typeof file.start === 'number' && file.bytesRead === 0) {
      await sendFile(file.fd, file.start, typeof file.end === 'number' ? file.end : Infinity, res)
      node.destroy() // closes the descriptor
    } else {
      // Leaving the loop early (the client went away) destroys the stream.
      for await (const chunk of node) {
        if (res.destroyed) break
        if (!res.write(chunk as Uint8Array)) await drained(res)
      }
    }
    if (!res.destroyed) res.end()
  } catch (error) {
    node.destroy()
    res.destroy(error as Error)
  }
}

function readAt(fd: number, buffer: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => fs.read(fd, buffer, 0, length, position, (error, n) => (error ? reject(error) : resolve(n))))
}

/** Resolves once the socket has taken `chunk` (its write callback) or the response has closed. */
function written(res: http.ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('close', done)
      resolve()
    }
    res.once('close', done)
    res.write(chunk, done)
  })
}

/**
 * Bytes start..end (inclusive) of a file, in two buffers: one is read while the socket takes the
 * other, and a buffer is read into again only once the socket has taken it (which also bounds
 * what waits in the socket's queue to two chunks: the back-pressure).
 */
async function sendFile(fd: number, start: number, end: number, res: http.ServerResponse) {
  const buffers = [pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK), pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK)]
  const taken: Promise<void>[] = [Promise.resolve(), Promise.resolve()]
  try {
    let position = start
    for (let turn = 0; position <= end; turn ^= 1) {
      await taken[turn]
      if (res.destroyed) return
      const n = await readAt(fd, buffers[turn]!, Math.min(CHUNK, end - position + 1), position)
      if (n === 0) return
      position += n
      taken[turn] = written(res, buffers[turn]!.subarray(0, n))
    }
  } finally {
    await Promise.all(taken)
    for (const buffer of buffers) if (pool.length < POOL_MAX) pool.push(buffer)
  }
}
