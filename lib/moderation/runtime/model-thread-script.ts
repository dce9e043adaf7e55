/**
 * The script of a neural model's worker thread (model-thread.ts), as source text run with `eval: true` for the reason
 * lib/transformer2d/runtime/session-worker.ts gives (Turbopack rewrites `new Worker(path)`, leaves `eval: true` alone).
 * transformers.js is required from `requireFrom`, a path in the project (import.meta.url of model-thread.ts, which
 * the built server maps back to the project's folder), so the thread loads the package the server loads. A thread
 * holds one model and has its own copy of transformers.js, and so of its global `env`: its load takes no turn with
 * the loads of other threads.
 *
 * Messages are handled one after another: a run starts only after the load, and stop only after the run before it.
 * Each request is answered with its `id`, with `error` ({ name, message }) when it failed.
 * - load { root, folder, output, options }: `options` for AutoModelForSequenceClassification (when `output` is
 *   logits) or AutoModel's from_pretrained of `folder`, read only from `root` (remote models off);
 * - run { feeds, output }: `feeds` are int64 tensors ({ data, dims }) by input name; answered with the output named
 *   `output` ({ data, dims }, its buffer moved to the main thread, not copied), or none when the model has no such
 *   output;
 * - stop: disposes the model and ends the thread, after the requests before it. The main thread ends a thread this
 *   way, never with Worker.terminate(), which aborts the whole process when it lands inside a run (session-worker.ts).
 */
export const MODEL_THREAD_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads')
const { createRequire } = require('node:module')
const path = require('node:path')
const { AutoModel, AutoModelForSequenceClassification, Tensor, env } = createRequire(workerData.requireFrom)('@huggingface/transformers')

let model = null

async function handle(message) {
  switch (message.op) {
    case 'load': {
      env.allowRemoteModels = false
      env.allowLocalModels = true
      env.useFSCache = false
      env.localModelPath = message.root + path.sep
      const modelClass = message.output === 'logits' ? AutoModelForSequenceClassification : AutoModel
      model = await modelClass.from_pretrained(message.folder, message.options)
      return { id: message.id }
    }
    case 'run': {
      const inputs = {}
      for (const [name, feed] of Object.entries(message.feeds)) inputs[name] = new Tensor('int64', feed.data, feed.dims)
      const result = (await model(inputs))[message.output]
      if (!result) return { id: message.id }
      // A view of part of a buffer would take the whole buffer with it.
      const whole = result.data.byteOffset === 0 && result.data.byteLength === result.data.buffer.byteLength
      const data = whole ? result.data : result.data.slice()
      return { id: message.id, output: { data, dims: result.dims }, transfer: [data.buffer] }
    }
    case 'stop':
      // Ends even when disposing throws: stop() waits for the thread to exit.
      try {
        await model?.dispose()
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
      parentPort.postMessage({ id: answer.id, output: answer.output }, answer.transfer ?? [])
    } catch (error) {
      const { name, message: text } = error instanceof Error ? error : { name: 'Error', message: String(error) }
      parentPort.postMessage({ id: message.id, error: { name, message: text } })
    }
  })
})
`
