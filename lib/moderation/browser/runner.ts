/**
 * Runs the moderation checks in the browser and answers in exactly the API's shapes: the request
 * is validated with the API's schemas and answered by the check's own module
 * (lib/moderation/checks), over engines that run here. Per check the engine is the one the
 * server would choose: the neural model where the hub has it, else the offline engine, else the
 * rules, else none (then the check says so, with the command that installs its model).
 */
import { ModerationApiError } from '@/lib/moderation/api/errors'
import { requestSchemas } from '@/lib/moderation/api/schemas'
import { answerCheck, ENGINE_SPECS, EngineFailedError, findCheck, type EngineKey, type ModerationEngines, type OfflineModels } from '@/lib/moderation/checks'
import { neuralModelFor, type EngineSpec } from '@/lib/moderation/checks/check'
import { neuralOrFallback } from '@/lib/moderation/engines/fallback'
import type { ModerationEngine } from '@/lib/moderation/engines/types'
import { EngineUnavailableError } from '@/lib/moderation/errors'
import type { GraphRunner } from '@/lib/moderation/offline/graph-io'
import { MODEL_MANIFEST, type NeuralCheck } from '@/lib/moderation/runtime/manifest'
import type { BrowserCatalog, CheckPath, NeuralModelFiles } from './catalog'
import { fetchModelFile, fetchModelJson, type ProgressListener } from './model-files'
import { loadNeuralModel, type BrowserNeuralModel } from './neural'
import { createGraphSession, graphOutputs, loadOnnxRuntime, type BrowserDevice, type GraphSession } from './onnx'
import { loadTransformers, type TransformersLibrary } from './transformers'

/** Where a check's answer was computed: an ONNX device, or plain JavaScript for the rule-based engines. */
export type AnswerDevice = BrowserDevice | 'javascript'

/** `files`: the neural model's files (the hub's configured repo, or the one the user picked for this check). */
export type CheckPlan =
  | { available: true; engine: string; kind: 'neural' | 'offline-graph' | 'exact'; neural?: NeuralCheck; files?: NeuralModelFiles }
  | { available: false; reason: string; install: string | null }

export type CheckOutcome =
  | { status: 'ok'; body: unknown; engine: string; device: string; milliseconds: number; note?: string }
  | { status: 'unavailable'; message: string; install: string | null }
  | { status: 'error'; message: string }

type Loader = { device: BrowserDevice; signal: AbortSignal; onProgress: ProgressListener }

type LoadedOfflineModels = { models: OfflineModels; sessions: GraphSession[] }

type AnySpec = EngineSpec<string, never, unknown>

function specOf(path: CheckPath): { check: NonNullable<ReturnType<typeof findCheck>>; spec: AnySpec } {
  const check = findCheck(path)!
  return { check, spec: check.engine as AnySpec }
}

/** The neural model a request to `path` would run, or null for a check without one. */
function neuralModelForRequest(path: CheckPath, body: Record<string, unknown>): NeuralCheck | null {
  const { check, spec } = specOf(path)
  if (!spec.neural) return null
  const pick = check.neuralModelFor as ((body: Record<string, unknown>) => NeuralCheck) | undefined
  return pick ? pick(body) : spec.neural.models[0]!
}

/** What a load came to: its value, or null when it was never started or failed. */
const settled = async <T,>(promise: Promise<T> | undefined): Promise<T | null> => (promise ? promise.catch(() => null) : null)

export class BrowserModerationRunner {
  private readonly neuralModels = new Map<string, Promise<BrowserNeuralModel>>()
  private readonly offlineLoads = new Map<string, Promise<LoadedOfflineModels>>()
  private readonly graphSessions = new Map<string, Promise<GraphSession>>()
  private readonly schemas: ReturnType<typeof requestSchemas>

  constructor(readonly catalog: BrowserCatalog) {
    this.schemas = requestSchemas(catalog.limits)
  }

  /**
   * Which engine would answer `path` in this browser, or why none can. `picked`: a model repo the
   * user chose for this check (the repo picker), which answers instead of the hub's configured
   * model, as `?model=` does on the server.
   */
  plan(path: CheckPath, body: Record<string, unknown> = {}, picked?: NeuralModelFiles): CheckPlan {
    const { spec } = specOf(path)
    const neural = neuralModelForRequest(path, body)
    const files = neural ? (picked ?? this.catalog.neural[neural]) : undefined
    if (neural && files) return { available: true, engine: `neural:${files.id}@${files.revision}`, kind: 'neural', neural, files }
    const offlineName = this.catalog.offlineEngineNames[spec.key as EngineKey]
    if (spec.offline && offlineName !== 'none' && spec.offline.files.every((f) => this.catalog.offlineFiles[f])) {
      return { available: true, engine: offlineName, kind: 'offline-graph' }
    }
    if (spec.exact) return { available: true, engine: spec.exact.name, kind: 'exact' }
    const install = neural ? `npm run models:pull ${neural}` : null
    if (offlineName !== 'none') {
      return { available: false, reason: `The server's offline engine ${offlineName} has no browser build yet; run this check on the server.`, install: null }
    }
    return { available: false, reason: 'No engine is installed for this check on this hub.', install }
  }

  /** Downloads (or reads from the cache) and loads what `paths` need on `device`. Rejects with an AbortError when cancelled. */
  async prepare(
    paths: CheckPath[],
    bodies: Partial<Record<CheckPath, Record<string, unknown>>>,
    loader: Loader,
    picks: Partial<Record<CheckPath, NeuralModelFiles>> = {},
  ): Promise<void> {
    const plans = paths.map((path) => ({ path, plan: this.plan(path, bodies[path], picks[path]) }))
    const needsGraphs = plans.some(({ plan }) => plan.available && plan.kind === 'offline-graph')
    const needsNeural = plans.some(({ plan }) => plan.available && plan.kind === 'neural')
    if (!needsGraphs && !needsNeural) return
    if ((needsGraphs && !this.catalog.runtimeFile) || (needsNeural && !this.catalog.transformersRuntime)) {
      throw new Error('onnxruntime-web is not installed on this hub: run `node scripts/copy-ort.mjs`')
    }
    // The offline graphs run on the playground's onnxruntime-web, the neural models on transformers.js's own.
    const [ort, transformers] = await Promise.all([
      needsGraphs ? loadOnnxRuntime(this.catalog.runtimeFile!, loader.signal, loader.onProgress) : null,
      needsNeural ? loadTransformers(this.catalog.transformersRuntime!, loader.signal, loader.onProgress) : null,
    ])
    await Promise.all(
      plans.map(async ({ path, plan }) => {
        if (!plan.available) return
        if (plan.kind === 'neural') await this.neuralModel(transformers!, plan.neural!, plan.files!, loader)
        if (plan.kind === 'offline-graph') await this.offlineModels(ort!, specOf(path).spec, loader)
      }),
    )
  }

  /** Loaded models by device and files (a repo's commit): the configured model and a picked copy of the same commit share one. */
  private neuralKey(device: BrowserDevice, check: NeuralCheck, files: NeuralModelFiles): string {
    return `${device}:${check}:${files.graph.url}`
  }

  private neuralModel(transformers: TransformersLibrary, check: NeuralCheck, files: NeuralModelFiles, loader: Loader): Promise<BrowserNeuralModel> {
    const key = this.neuralKey(loader.device, check, files)
    let loading = this.neuralModels.get(key)
    if (!loading) {
      loading = loadNeuralModel(transformers, check, files, loader.device, loader.signal, loader.onProgress)
      loading.catch(() => this.neuralModels.delete(key))
      this.neuralModels.set(key, loading)
    }
    return loading
  }

  /** The offline engine's graphs as sessions on the loader's device and its JSON files, loaded once per device. */
  private offlineModels(ort: Awaited<ReturnType<typeof loadOnnxRuntime>>, spec: AnySpec, loader: Loader): Promise<LoadedOfflineModels> {
    const key = `${loader.device}:${spec.key}`
    let loading = this.offlineLoads.get(key)
    if (!loading) {
      const files = spec.offline!.files
      loading = (async () => {
        const graphs = files.filter((f) => f.endsWith('.onnx'))
        const jsonFiles = files.filter((f) => f.endsWith('.json'))
        const [sessions, documents] = await Promise.all([
          Promise.all(graphs.map(async (graph) => [graph, await this.graphSession(ort, graph, loader)] as const)).then((e) => new Map(e)),
          Promise.all(jsonFiles.map(async (file) => [file, await fetchModelJson<unknown>(this.catalog.offlineFiles[file]!, loader.signal, loader.onProgress)] as const)).then((e) => new Map(e)),
        ])
        const runGraph: GraphRunner = async (graph, feeds) => graphOutputs(await sessions.get(graph)!.run(feeds))
        const models: OfflineModels = {
          id: `browser:${loader.device}`,
          runGraph,
          json: <T,>(file: string) => {
            if (!documents.has(file)) throw new Error(`${file} is not one of the ${spec.key} engine's files`)
            return documents.get(file) as T
          },
        }
        return { models, sessions: [...sessions.values()] }
      })()
      loading.catch(() => this.offlineLoads.delete(key))
      this.offlineLoads.set(key, loading)
    }
    return loading
  }

  private graphSession(ort: Awaited<ReturnType<typeof loadOnnxRuntime>>, graph: string, loader: Loader): Promise<GraphSession> {
    const key = `${loader.device}:${graph}`
    let loading = this.graphSessions.get(key)
    if (!loading) {
      loading = fetchModelFile(this.catalog.offlineFiles[graph]!, loader.signal, loader.onProgress).then((bytes) =>
        createGraphSession(ort, bytes, loader.device),
      )
      loading.catch(() => this.graphSessions.delete(key))
      this.graphSessions.set(key, loading)
    }
    return loading
  }

  /**
   * The engines for one device, over what `prepare` loaded; an engine whose model is not loaded is
   * unavailable. `picked`: the model the user chose for the check being answered, which its engine
   * runs when the answer is asked with a model choice.
   */
  private async engines(device: BrowserDevice, picked: BrowserNeuralModel | null): Promise<ModerationEngines> {
    const entries = await Promise.all(
      ENGINE_SPECS.map(async (spec) => [spec.key, await this.engineFor(spec as AnySpec, device, picked)] as const),
    )
    return Object.fromEntries(entries) as unknown as ModerationEngines
  }

  /** The engine's neural models that are loaded (`neural:<id>`), else its offline graph engine, else its rules, else none. */
  private async engineFor(
    spec: AnySpec,
    device: BrowserDevice,
    picked: BrowserNeuralModel | null,
  ): Promise<ModerationEngine<never, unknown>> {
    let fallback: ModerationEngine<never, unknown> = { name: 'none', available: () => false, run: () => Promise.reject(new EngineUnavailableError()) }
    if (spec.exact) fallback = spec.exact
    const offline = spec.offline ? await settled(this.offlineLoads.get(`${device}:${spec.key}`)) : null
    if (offline) {
      const run = spec.offline!.run
      fallback = { name: this.catalog.offlineEngineNames[spec.key as EngineKey], available: () => true, run: (input) => run(offline.models, input) }
    }
    if (!spec.neural) return fallback
    const loaded = new Map<NeuralCheck, BrowserNeuralModel>()
    for (const check of spec.neural.models) {
      const files = this.catalog.neural[check]
      const model = files ? await settled(this.neuralModels.get(this.neuralKey(device, check, files))) : null
      if (model) loaded.set(check, model)
    }
    const neural = spec.neural
    const modelFor = (input: never) => loaded.get(neuralModelFor(spec, input)!)
    // The loaded model names itself (its repo and commit); one not loaded here answers nothing, only its id is shown.
    const engineName = (check: NeuralCheck) => loaded.get(check)?.engine ?? `neural:${MODEL_MANIFEST[check].id}`
    const neuralEngine: ModerationEngine<never, unknown> = {
      name: engineName(neural.models[0]!),
      nameFor: (input) => engineName(neuralModelFor(spec, input)!),
      available: () => loaded.has(neural.models[0]!),
      availableFor: (input) => modelFor(input) !== undefined,
      // With a model choice (the picker), the picked model answers, as `?model=` does on the server.
      run: (input, choice) => neural.run((choice && picked) || modelFor(input)!, input),
    }
    return neuralOrFallback(neuralEngine, fallback)
  }

  /** The ONNX sessions behind a check's answer on `device` (to report where they really ran). */
  private async sessionsUsed(path: CheckPath, plan: CheckPlan & { available: true }, device: BrowserDevice): Promise<GraphSession[]> {
    if (plan.kind === 'neural') {
      const model = await settled(this.neuralModels.get(this.neuralKey(device, plan.neural!, plan.files!)))
      return model ? [model.session] : []
    }
    const loaded = await settled(this.offlineLoads.get(`${device}:${specOf(path).spec.key}`))
    return loaded?.sessions ?? []
  }

  /** Answers one check as the API would (same validation, same body), after `prepare` (with the same `picked` model). */
  async answer(path: CheckPath, body: Record<string, unknown>, device: BrowserDevice, picked?: NeuralModelFiles): Promise<CheckOutcome> {
    const plan = this.plan(path, body, picked)
    if (!plan.available) return { status: 'unavailable', message: plan.reason, install: plan.install }
    const { check } = specOf(path)
    const parsed = this.schemas[check.request.name]!.safeParse(body)
    if (!parsed.success) return { status: 'error', message: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') }
    const started = performance.now()
    try {
      const pickedModel = picked && plan.kind === 'neural' ? await settled(this.neuralModels.get(this.neuralKey(device, plan.neural!, picked))) : null
      if (picked && !pickedModel) return { status: 'error', message: `${picked.id}@${picked.revision} is not loaded in this browser.` }
      // The API's own model choice (named `neural:<repo>@<revision>`, as the server names it); read access was checked when it was picked.
      const choice = pickedModel ? { repo: picked!.id, revision: picked!.revision, caller: null } : undefined
      const { body: answer, engine } = await answerCheck(check, parsed.data, await this.engines(device, pickedModel), choice)
      const milliseconds = performance.now() - started
      if (plan.kind === 'exact') return { status: 'ok', body: answer, engine, device: 'javascript', milliseconds }
      const sessions = await this.sessionsUsed(path, plan, device)
      const fallback = sessions.find((s) => s.fallbackReason)
      return { status: 'ok', body: answer, engine, device: fallback ? fallback.device : device, milliseconds, note: fallback?.fallbackReason ?? undefined }
    } catch (error) {
      if (error instanceof EngineUnavailableError) return { status: 'error', message: 'The model for this check is not loaded.' }
      if (error instanceof EngineFailedError || error instanceof ModerationApiError) return { status: 'error', message: error.message }
      return { status: 'error', message: error instanceof Error ? error.message : String(error) }
    }
  }
}
