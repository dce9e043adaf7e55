/**
 * Loading the manifest's models from MODELS_DIR through transformers.js + onnxruntime-node, once
 * each, and running batches of token sequences through them, each model on a worker thread of its
 * own (model-thread.ts) so that a batch does not hold the server's event loop. Nothing here may
 * reach the network: remote models are switched off before every load.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { PreTrainedTokenizer } from '@huggingface/transformers'
import { MODEL_MANIFEST, NEURAL_CHECKS, type ModelEntry, type NeuralCheck } from './manifest'
import { EngineUnavailableError, ModelNotFoundError, PickedModelUnusableError } from '@/lib/moderation/errors'
import { MicroBatcher } from './micro-batcher'
import { ModelThread } from './model-thread'
import { outputRows, paddedBatch, type NeuralModel } from './neural-steps'
import { settingsFromEnv, type ModelChoice, type RuntimeSettings } from './settings'
import { modelSnapshot, ModelNotReadableError, ModelRepoError, ModelRevisionNotFoundError } from '@/lib/hub/model-cache'

/** Re-exported for the runtime's callers; the implementation is browser-safe and shared with lib/moderation/browser. */
export { encodeForModel } from './encode'

export type LoadedModel = NeuralModel

export type ModelState = 'absent' | 'not-loaded' | 'loading' | 'ready' | 'failed'

interface Slot {
  state: Exclude<ModelState, 'absent'>
  loading?: Promise<LoadedModel>
  loaded?: LoadedModel
  thread?: ModelThread
  error?: string
}

type Transformers = typeof import('@huggingface/transformers')
let transformersModule: Promise<Transformers> | null = null

/**
 * transformers.js, loaded with the first model rather than with the module: it brings
 * onnxruntime-node and sharp, tens of MB resident in every server process, and the server imports
 * this module at start (instrumentation.ts) whether or not it ever runs a neural check
 * (bench/files/RESULTS.md: peak RSS).
 */
function transformers(): Promise<Transformers> {
  transformersModule ??= import('@huggingface/transformers')
  transformersModule.catch(() => (transformersModule = null))
  return transformersModule
}

async function runSession(thread: ModelThread, entry: ModelEntry, padId: number, sequences: number[][]): Promise<Float32Array[]> {
  const { width, inputIds, attentionMask } = paddedBatch(sequences, padId)
  const dims = [sequences.length, width]
  const feeds = {
    input_ids: { data: inputIds, dims },
    attention_mask: { data: attentionMask, dims },
    // Every model here reads one segment or ignores segments (DeBERTa-v3, RoBERTa, MPNet,
    // DistilBERT); BERT-style graphs that declare the input get zeros, as for one text.
    token_type_ids: { data: new BigInt64Array(inputIds.length), dims },
  }
  const output = await thread.run(feeds, entry.output)
  if (!output) throw new Error(`${entry.id}: the graph has no output "${entry.output}"`)
  return outputRows(entry, output.data, output.dims)
}

/** Models picked by callers (`?model=`) kept loaded at once; the least recently used is released beyond. */
const MAX_PICKED_MODELS = 4

/** The end of the last tokenizer and config load on this thread (see ModelRuntime.load). */
let loadTurn: Promise<void> = Promise.resolve()

export class ModelRuntime {
  /** By check for the configured models; by `check:snapshot folder` for the models callers picked. */
  private readonly slots = new Map<string, Slot>()

  constructor(readonly settings: RuntimeSettings = settingsFromEnv()) {}

  folder(check: NeuralCheck): string {
    return path.join(this.settings.modelsDir, ...MODEL_MANIFEST[check].id.split('/'))
  }

  /** True when the check's model is a repo (tried on first use: a repo that cannot be loaded is a 503 naming it) or installed in modelsDir. */
  installed(check: NeuralCheck): boolean {
    if (this.settings.repos[check]) return true
    const folder = this.folder(check)
    return MODEL_MANIFEST[check].files.every((f) => fs.existsSync(path.join(folder, f.target)))
  }

  state(check: NeuralCheck): { state: ModelState; error?: string } {
    const slot = this.slots.get(check)
    if (slot) return { state: slot.state, error: slot.error }
    return { state: this.installed(check) ? 'not-loaded' : 'absent' }
  }

  /**
   * The loaded model, loading it on first use; a failed load is retried on the next call. With
   * `choice`, the model the caller picked: its access is checked on every call (with the caller's
   * own rights), and it is loaded once per check and commit.
   */
  model(check: NeuralCheck, choice?: ModelChoice): Promise<LoadedModel> {
    if (choice) return this.chosenModel(check, choice)
    const slot = this.slots.get(check)
    if (slot?.loaded) return Promise.resolve(slot.loaded)
    if (slot?.loading) return slot.loading
    if (!this.installed(check)) {
      const detail = `model ${MODEL_MANIFEST[check].id} is not installed in ${this.folder(check)}; run \`npm run models:pull ${check}\``
      return Promise.reject(new EngineUnavailableError(check, detail))
    }
    return this.loadInto(check, check, () => this.modelFolder(check))
  }

  private loadInto(key: string, check: NeuralCheck, folder: () => Promise<{ root: string; id: string }>): Promise<LoadedModel> {
    const next: Slot = { state: 'loading' }
    next.loading = this.load(check, next, folder).then(
      (loaded) => {
        Object.assign(next, { state: 'ready', loaded, loading: undefined, error: undefined })
        // A thread that stopped on its own (out of memory, say) has failed its runs; the next request loads the model again.
        void next.thread!.crashed.then((error) => this.failed(key, check, next, error))
        return loaded
      },
      (error: unknown) => {
        this.failed(key, check, next, error)
        throw error
      },
    )
    this.slots.set(key, next)
    return next.loading
  }

  /** A model that could not be loaded or whose thread stopped: the check's slot says why until its next use loads it again; a picked model is forgotten. */
  private failed(key: string, check: NeuralCheck, slot: Slot, error: unknown): void {
    Object.assign(slot, { state: 'failed', loading: undefined, loaded: undefined, thread: undefined, error: String(error) })
    if (key !== check && this.slots.get(key) === slot) this.slots.delete(key)
  }

  private async chosenModel(check: NeuralCheck, choice: ModelChoice): Promise<LoadedModel> {
    let dir: string
    try {
      ;({ dir } = await modelSnapshot(choice.repo, choice.revision, MODEL_MANIFEST[check].files.map((f) => f.target), { caller: choice.caller }))
    } catch (error) {
      // The caller named the repo and revision: one they cannot read or that does not exist is their 404, not our outage.
      if (error instanceof ModelNotReadableError || error instanceof ModelRevisionNotFoundError) throw new ModelNotFoundError(error.message)
      if (error instanceof ModelRepoError) throw new PickedModelUnusableError(error.message)
      throw error
    }
    const key = `${check}:${dir}`
    const slot = this.slots.get(key)
    if (slot) {
      // Most recently used last: the oldest picked model is the one released when there are too many.
      this.slots.delete(key)
      this.slots.set(key, slot)
      return slot.loaded ?? slot.loading!
    }
    const loading = this.loadInto(key, check, async () => ({ root: path.dirname(dir), id: path.basename(dir) }))
    const picked = [...this.slots.keys()].filter((k) => k.includes(':'))
    for (const old of picked.slice(0, Math.max(0, picked.length - MAX_PICKED_MODELS))) {
      const released = this.slots.get(old)!
      this.slots.delete(old)
      // A request still running on it fails with a 503 naming the engine; with MAX_PICKED_MODELS in use at once, rare.
      void (async () => {
        await released.loading?.catch(() => undefined)
        await released.thread?.stop()
      })().catch(() => undefined)
    }
    return loading
  }

  /** The folder transformers.js loads from (`root`/`id`): the repo revision's snapshot in the model cache, or modelsDir/<model id>. */
  private async modelFolder(check: NeuralCheck): Promise<{ root: string; id: string }> {
    const source = this.settings.repos[check]
    if (!source) return { root: this.settings.modelsDir, id: MODEL_MANIFEST[check].id }
    try {
      const { dir } = await modelSnapshot(source.repo, source.revision, MODEL_MANIFEST[check].files.map((f) => f.target))
      return { root: path.dirname(dir), id: path.basename(dir) }
    } catch (error) {
      if (error instanceof ModelRepoError) throw new EngineUnavailableError(check, error.message)
      throw error
    }
  }

  private async load(check: NeuralCheck, slot: Slot, modelFolder: () => Promise<{ root: string; id: string }>): Promise<LoadedModel> {
    const entry = MODEL_MANIFEST[check]
    const folder = await modelFolder()
    const options = {
      local_files_only: true,
      dtype: 'fp32' as const,
      device: 'cpu' as const,
      session_options: this.settings.threads > 0 ? { intraOpNumThreads: this.settings.threads, interOpNumThreads: 1 } : {},
    }
    // transformers.js loads sharp, whose shared libraries a worker thread must not be the first to open: the thread's
    // end would unload them from under the others (sharp's docs on worker threads, lovell/sharp#2263).
    await transformers()
    // The session loads on the model's own thread, whose transformers.js has a global env of its own. The tokenizer and
    // config load here, where transformers.js reads the folder from a global: these loads from different roots take turns.
    const threadLoad = ModelThread.load({ root: folder.root, folder: folder.id, output: entry.output, options })
    const filesLoad = loadTurn.then(() => this.loadFrom(folder))
    loadTurn = filesLoad.then(() => undefined, () => undefined)
    const [started, files] = await Promise.allSettled([threadLoad, filesLoad])
    if (files.status === 'rejected') {
      if (started.status === 'fulfilled') await started.value.stop()
      throw files.reason
    }
    if (started.status === 'rejected') throw started.reason
    const thread = (slot.thread = started.value)
    const { tokenizer, config } = files.value
    const id2label = Object.fromEntries(Object.entries(config.id2label ?? {}).map(([k, v]) => [Number(k), v]))
    const padId = tokenizer.pad_token_id ?? 0
    const run = (sequences: number[][]) => runSession(thread, entry, padId, sequences)
    const { microBatching, maxBatchSize, maxWaitMs } = this.settings
    const batcher = microBatching ? new MicroBatcher(run, { maxBatchSize, maxWaitMs }) : null
    return {
      entry,
      tokenizer,
      id2label,
      forward: (sequences) => (sequences.length === 0 ? Promise.resolve([]) : batcher ? batcher.submit(sequences) : run(sequences)),
    }
  }

  /** The tokenizer and config of the model in `folder` (the thread reads its session from the same folder, as model-thread-script.ts: load). */
  private async loadFrom(folder: { root: string; id: string }): Promise<{ tokenizer: PreTrainedTokenizer; config: { id2label?: Record<string, string> } }> {
    const { AutoConfig, AutoTokenizer, env } = await transformers()
    env.allowRemoteModels = false
    env.allowLocalModels = true
    env.useFSCache = false
    env.localModelPath = folder.root + path.sep
    const tokenizer = await AutoTokenizer.from_pretrained(folder.id, { local_files_only: true })
    const config = (await AutoConfig.from_pretrained(folder.id, { local_files_only: true })) as unknown as { id2label?: Record<string, string> }
    return { tokenizer, config }
  }

  /** Loads every installed model; used at start when loading is eager. */
  async loadInstalled(): Promise<void> {
    await Promise.allSettled(NEURAL_CHECKS.filter((c) => this.installed(c)).map((c) => this.model(c)))
  }

  async dispose(): Promise<void> {
    const slots = [...this.slots.values()]
    this.slots.clear()
    await Promise.allSettled(slots.map(async (slot) => {
      await slot.loading?.catch(() => undefined)
      await slot.thread?.stop()
    }))
  }
}
