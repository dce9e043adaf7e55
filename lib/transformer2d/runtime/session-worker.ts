/**
 * The script of nodeWorkerRuntime's threads (node-worker.ts), as source text run with `eval: true`, not as a file next
 * to this one: Next bundles lib/ into chunks, and Turbopack (16.2 on) rewrites `new Worker(path)` and
 * `new Worker(new URL(..., import.meta.url))` into a bundled entry of its own, a path that has broken between minor
 * versions (vercel/next.js#93427), while it leaves a worker with `eval: true` alone (vercel/next.js#91666). The text
 * travels inside the chunk that imports it, the same under vitest, tsx and the built server. onnxruntime-node is
 * required from `requireFrom`, a path in the project (import.meta.url of node-worker.ts, which the built server maps
 * back to the project's folder), so the thread loads the package the server loads, whatever the working directory.
 *
 * Messages are handled one after another: a session is released only after the run before it, and a run starts only
 * after its session exists. Each request is answered with its `id`, with `error` (a message) when it failed.
 * - create { session, model, options }: InferenceSession.create, kept under the session's number;
 * - weight { id, type, data, dims }: a weight, kept under its number until `drop { weights }`; not answered;
 * - run { session, feeds, weights }: `feeds` are this run's tensors, `weights` name held weights by number; answered
 *   with the outputs, their buffers moved (transferred) to the main thread, not copied;
 * - release { session } and drop { weights }: not answered;
 * - stop: releases every session and ends the thread, after the requests before it. The main thread ends a thread
 *   this way, never with Worker.terminate(): terminating a thread inside a run aborts the whole process when the run
 *   returns (onnxruntime-node throws a C++ Napi::Error into a terminating environment: "terminate called after
 *   throwing an instance of 'Napi::Error'", measured).
 */
export const SESSION_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { createRequire } = require('node:module')
const ort = createRequire(workerData.requireFrom)('onnxruntime-node')

const sessions = new Map()
const weights = new Map()

function tensor({ type, data, dims }) {
  return new ort.Tensor(type, data, dims)
}

async function handle(message) {
  switch (message.op) {
    case 'create':
      sessions.set(message.session, await ort.InferenceSession.create(message.model, message.options))
      return { id: message.id }
    case 'weight':
      weights.set(message.id, tensor(message))
      return null
    case 'run': {
      const feeds = {}
      for (const [name, feed] of Object.entries(message.feeds)) feeds[name] = tensor(feed)
      for (const [name, id] of Object.entries(message.weights)) feeds[name] = weights.get(id)
      const results = await sessions.get(message.session).run(feeds)
      const outputs = {}
      const transfer = []
      for (const [name, result] of Object.entries(results)) {
        // A view of part of a buffer would take the whole buffer with it.
        const whole = result.data.byteOffset === 0 && result.data.byteLength === result.data.buffer.byteLength
        const data = whole ? result.data : result.data.slice()
        outputs[name] = { type: result.type, data, dims: result.dims }
        transfer.push(data.buffer)
      }
      return { id: message.id, outputs, transfer }
    }
    case 'release': {
      const session = sessions.get(message.session)
      sessions.delete(message.session)
      await session?.release()
      return null
    }
    case 'drop':
      for (const id of message.weights) weights.delete(id)
      return null
    case 'stop':
      // Ends even when a release throws: the thread holds its copy of the weights until it does.
      try {
        for (const session of sessions.values()) await session.release()
      } finally {
        process.exit(0)
      }
  }
}

let previous = Promise.resolve()
parentPort.on('message', (message) => {
  previous = previous.then(async () => {
    try {
      const answer = await handle(message)
      if (answer) parentPort.postMessage({ id: answer.id, outputs: answer.outputs }, answer.transfer ?? [])
    } catch (error) {
      parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) })
    }
  })
})
`
