/**
 * The script of a neural model's worker thread (model-thread.ts), run by RequestThread (lib/threads/request-thread.ts
 * says why as text, and what `serve` and `projectRequire` are). A thread holds one model and has its own copy of
 * transformers.js, and so of its global `env`: its load takes no turn with the loads of other threads.
 *
 * Messages are handled one after another: a run starts only after the load, and stop only after the run before it.
 * - load { root, folder, output, options }: `options` for AutoModelForSequenceClassification (when `output` is
 *   logits) or AutoModel's from_pretrained of `folder`, read only from `root` (remote models off);
 * - run { feeds, output }: `feeds` are int64 tensors ({ data, dims }) by input name; answered with { output }, the
 *   output named `output` ({ data, dims }, its buffer moved to the main thread, not copied), or none when the model
 *   has no such output;
 * - stop: disposes the model. The main thread ends a thread this way, never with Worker.terminate(), which aborts the
 *   whole process when it lands inside a run (lib/transformer2d/runtime/session-worker.ts).
 */
export const MODEL_THREAD_SCRIPT = `
const path = require('node:path')
const { AutoModel, AutoModelForSequenceClassification, Tensor, env } = projectRequire('@huggingface/transformers')

let model = null

async function handle(message, transfer) {
  switch (message.op) {
    case 'load': {
      env.allowRemoteModels = false
      env.allowLocalModels = true
      env.useFSCache = false
      env.localModelPath = message.root + path.sep
      const modelClass = message.output === 'logits' ? AutoModelForSequenceClassification : AutoModel
      model = await modelClass.from_pretrained(message.folder, message.options)
      return
    }
    case 'run': {
      const inputs = {}
      for (const [name, feed] of Object.entries(message.feeds)) inputs[name] = new Tensor('int64', feed.data, feed.dims)
      const result = (await model(inputs))[message.output]
      if (!result) return {}
      // A view of part of a buffer would take the whole buffer with it.
      const whole = result.data.byteOffset === 0 && result.data.byteLength === result.data.buffer.byteLength
      const data = whole ? result.data : result.data.slice()
      transfer.push(data.buffer)
      return { output: { data, dims: result.dims } }
    }
  }
}

serve(handle, async () => {
  await model?.dispose()
})
`
