/**
 * The script of nodeWorkerRuntime's threads (node-worker.ts), run by RequestThread (lib/threads/request-thread.ts says
 * why as text, and what `serve` and `projectRequire` are).
 *
 * Messages are handled one after another: a session is released only after the run before it, and a run starts only
 * after its session exists.
 * - create { session, model, options }: InferenceSession.create, kept under the session's number;
 * - weight { id, type, data, dims }: a weight, kept under its number until `drop { weights }`; posted;
 * - run { session, feeds, weights }: `feeds` are this run's tensors, `weights` name held weights by number; answered
 *   with { outputs }, their buffers moved (transferred) to the main thread, not copied;
 * - release { session } and drop { weights }: posted;
 * - stop: releases every session. The main thread ends a thread this way, never with Worker.terminate(): terminating
 *   a thread inside a run aborts the whole process when the run returns (onnxruntime-node throws a C++ Napi::Error
 *   into a terminating environment: "terminate called after throwing an instance of 'Napi::Error'", measured).
 */
export const SESSION_WORKER_SOURCE = `
const ort = projectRequire('onnxruntime-node')

const sessions = new Map()
const weights = new Map()

function tensor({ type, data, dims }) {
  return new ort.Tensor(type, data, dims)
}

async function handle(message, transfer) {
  switch (message.op) {
    case 'create':
      sessions.set(message.session, await ort.InferenceSession.create(message.model, message.options))
      return
    case 'weight':
      weights.set(message.id, tensor(message))
      return
    case 'run': {
      const feeds = {}
      for (const [name, feed] of Object.entries(message.feeds)) feeds[name] = tensor(feed)
      for (const [name, id] of Object.entries(message.weights)) feeds[name] = weights.get(id)
      const results = await sessions.get(message.session).run(feeds)
      const outputs = {}
      for (const [name, result] of Object.entries(results)) {
        // A view of part of a buffer would take the whole buffer with it.
        const whole = result.data.byteOffset === 0 && result.data.byteLength === result.data.buffer.byteLength
        const data = whole ? result.data : result.data.slice()
        outputs[name] = { type: result.type, data, dims: result.dims }
        transfer.push(data.buffer)
      }
      return { outputs }
    }
    case 'release': {
      const session = sessions.get(message.session)
      sessions.delete(message.session)
      await session?.release()
      return
    }
    case 'drop':
      for (const id of message.weights) weights.delete(id)
  }
}

serve(handle, async () => {
  for (const session of sessions.values()) await session.release()
})
`
