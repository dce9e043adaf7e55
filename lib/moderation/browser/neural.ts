/**
 * The neural models in the browser: the manifest's models (MODEL_MANIFEST) from the hub's model
 * repos, loaded by transformers.js's own loader (AutoConfig, AutoTokenizer, AutoModel; see
 * transformers.ts for how it is pointed at this hub) and run by its onnxruntime-web. Each check's
 * steps are the server's own (lib/moderation/runtime/neural-steps), over this model.
 */
import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from '@huggingface/transformers'
import type { Feeds } from '@/lib/moderation/offline/graph-io'
import { MODEL_MANIFEST, type NeuralCheck } from '@/lib/moderation/runtime/manifest'
import { outputRows, paddedBatch, type NeuralModel } from '@/lib/moderation/runtime/neural-steps'
import { resolvePath, type NeuralModelFiles } from './catalog'
import type { ProgressListener } from './model-files'
import { verifiedSession, type BrowserDevice, type DeviceSession, type GraphSession, type OutputTensor } from './onnx'
import { pinned, type TransformersLibrary } from './transformers'

/** `engine`: what answers name it, as the server does: `neural:<repo>@<revision>`. */
export type BrowserNeuralModel = NeuralModel & { session: GraphSession; engine: string }

type ProgressEvent = { status: string; file?: string; loaded?: number; total?: number }

/** transformers.js's progress events for the files of `files`' repo, as the page's per-file rows: from the network (with speed) or from the cache. */
function progressReporter(files: NeuralModelFiles, network: Set<string>, onProgress: ProgressListener) {
  // Per file: when its first event came and the bytes last reported ("done" carries no byte counts).
  const seen = new Map<string, { started: number; loaded: number; total: number }>()
  return (event: ProgressEvent) => {
    if ((event.status !== 'progress' && event.status !== 'done') || !event.file) return
    const url = resolvePath(files.id, files.commit, event.file)
    const source = network.has(url) ? 'network' : 'cache'
    const file = seen.get(url) ?? { started: performance.now(), loaded: 0, total: 0 }
    seen.set(url, file)
    if (event.total !== undefined) file.total = event.total
    if (event.loaded !== undefined) file.loaded = event.loaded
    const done = event.status === 'done'
    if (done) file.loaded = Math.max(file.loaded, file.total)
    const seconds = (performance.now() - file.started) / 1000
    onProgress({
      url,
      name: `${files.id}/${event.file}`,
      loaded: file.loaded,
      total: Math.max(file.total, file.loaded),
      bytesPerSecond: source === 'network' && seconds > 0 ? file.loaded / seconds : 0,
      source,
      done,
    })
  }
}

/** A cancelled load rejects with the signal's AbortError, whatever transformers.js made of the aborted request. */
async function cancellable<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    signal.throwIfAborted()
    throw error
  }
}

/** A transformers.js model as the agreement check's per-device session. */
function deviceSession(transformers: TransformersLibrary, model: PreTrainedModel): DeviceSession {
  return {
    inputNames: (model.sessions as Record<string, { inputNames: string[] }>).model!.inputNames,
    async run(feeds: Feeds) {
      const inputs = Object.fromEntries(Object.entries(feeds).map(([name, feed]) => [name, new transformers.Tensor(feed.type, feed.data, feed.dims)]))
      const outputs = (await model(inputs)) as Record<string, unknown>
      return Object.fromEntries(
        Object.entries(outputs)
          .filter((entry): entry is [string, Tensor] => entry[1] instanceof transformers.Tensor)
          .map(([name, tensor]) => [name, { data: tensor.data as Float32Array, dims: tensor.dims } satisfies OutputTensor]),
      )
    },
    release: async () => {
      await model.dispose()
    },
  }
}

export async function loadNeuralModel(
  transformers: TransformersLibrary,
  check: NeuralCheck,
  files: NeuralModelFiles,
  device: BrowserDevice,
  signal: AbortSignal,
  onProgress: ProgressListener,
): Promise<BrowserNeuralModel> {
  const entry = MODEL_MANIFEST[check]
  // The graph in full precision (onnx/model.onnx, the file the server runs), whatever transformers.js's per-device default.
  const loadModel = (on: BrowserDevice, network: Set<string>) =>
    transformers.AutoModel.from_pretrained(files.id, { device: on, dtype: 'fp32', progress_callback: progressReporter(files, network, onProgress) })
  const { config, tokenizer, model } = await cancellable(
    signal,
    pinned(transformers, files.commit, signal, async (network) => {
      const progress_callback = progressReporter(files, network, onProgress)
      const [config, tokenizer, model] = await Promise.all([
        transformers.AutoConfig.from_pretrained(files.id, { progress_callback }),
        transformers.AutoTokenizer.from_pretrained(files.id, { progress_callback }) as Promise<PreTrainedTokenizer>,
        loadModel(device, network),
      ])
      return { config, tokenizer, model }
    }),
  )
  signal.throwIfAborted()
  let first: PreTrainedModel | null = model
  // The first session is the model loaded above; the agreement check's WASM copy loads the same pinned files (from the cache).
  const session = await verifiedSession(async (on) => {
    const loaded = first ?? (await pinned(transformers, files.commit, new AbortController().signal, (network) => loadModel(on, network)))
    first = null
    return deviceSession(transformers, loaded)
  }, device)
  const labels = (config as unknown as { id2label?: Record<string, string> }).id2label ?? {}
  const id2label = Object.fromEntries(Object.entries(labels).map(([k, v]) => [Number(k), v]))
  const padId = tokenizer.pad_token_id ?? 0
  return {
    entry,
    engine: `neural:${files.id}@${files.revision}`,
    tokenizer,
    id2label,
    session,
    async forward(sequences) {
      if (sequences.length === 0) return []
      const { width, inputIds, attentionMask } = paddedBatch(sequences, padId)
      const dims = [sequences.length, width]
      const feeds: Feeds = {
        input_ids: { type: 'int64', data: inputIds, dims },
        attention_mask: { type: 'int64', data: attentionMask, dims },
        // As on the server: one segment, so zeros, for graphs that declare the input.
        ...(session.inputNames.includes('token_type_ids') ? { token_type_ids: { type: 'int64' as const, data: new BigInt64Array(inputIds.length), dims } } : {}),
      }
      const output = (await session.run(feeds))[entry.output]
      if (!output) throw new Error(`${entry.id}: the graph has no output "${entry.output}"`)
      return outputRows(entry, output.data, output.dims)
    },
  }
}
