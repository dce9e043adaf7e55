// Responses whose body is a Node stream (file downloads). Next needs a web stream; npm start's fast
// path (scripts/front.ts) can write the Node stream to the socket directly, which skips a web
// stream's reader, its promises and a copy of bookkeeping per chunk.
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
