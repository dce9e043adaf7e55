/**
 * Runs the moderation checks in the browser and answers in exactly the API's shapes: the request
 * is validated with the API's schemas and answered by the API's own endpoint code
 * (lib/moderation/api/endpoints), over engines that run here. Per check the engine is the one
 * the server would choose: the neural model where the hub has it, else the offline engine, else
 * none (then the check says so, with the command that installs its model).
 */
import { ENDPOINTS, EngineFailedError } from '@/lib/moderation/api/endpoints'
import { EngineUnavailableError } from '@/lib/moderation/errors'
import { ModerationApiError } from '@/lib/moderation/api/errors'
import { requestSchemas } from '@/lib/moderation/api/schemas'
import { invisibleTextEngine } from '@/lib/moderation/engines/invisible-text'
import { presidioStyleEngine } from '@/lib/moderation/engines/privacy'
import { vaderSentimentEngine } from '@/lib/moderation/engines/sentiment/vader'
import {
  GIBBERISH_LABELS,
  TOXICITY_METRICS,
  type GibberishLabel,
  type ModerationEngine,
  type ModerationEngines,
  type TopicInput,
  type ToxicityScores,
} from '@/lib/moderation/engines/types'
import { BANCODE_GRAPH, classifyCode } from '@/lib/moderation/offline/bancode'
import { EMBEDDING_GRAPH, EMBEDDING_VOCABULARY, embedText, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import { classifyGibberish, GIBBERISH_GRAPH } from '@/lib/moderation/offline/gibberish'
import { scoreTopics, TOPIC_EXPANSIONS, TOPIC_GRAPH, type TopicExpansions } from '@/lib/moderation/offline/restricted-topic'
import type { GraphRunner } from '@/lib/moderation/offline/graph-io'
import { detectInjection, INJECTION_GRAPH, INJECTION_VOCABULARY, type InjectionVocabulary } from '@/lib/moderation/offline/prompt-injection'
import { scoreToxicity, TOXICITY_GRAPH } from '@/lib/moderation/offline/toxicity'
import { MODEL_MANIFEST, type NeuralCheck } from '@/lib/moderation/runtime/manifest'
import { PLAYGROUND_CHECKS, type BrowserCatalog, type CheckPath, type EngineKey } from './catalog'
import { fetchModelFile, fetchModelJson, type ProgressListener } from './model-files'
import { createGraphSession, graphOutputs, loadOnnxRuntime, type BrowserDevice, type GraphSession } from './onnx'
import { loadNeuralModel, type BrowserNeuralModel } from './neural'
import { clsEmbeddings, softmaxClassify, windowedSigmoidScores, zeroShotScores } from '@/lib/moderation/runtime/neural-steps'

/** Where a check's answer was computed: an ONNX device, or plain JavaScript for the rule-based engines. */
export type AnswerDevice = BrowserDevice | 'javascript'

export type CheckPlan =
  | { available: true; engine: string; kind: 'neural' | 'offline-graph' | 'exact'; neural?: NeuralCheck }
  | { available: false; reason: string; install: string | null }

export type CheckOutcome =
  | { status: 'ok'; body: unknown; engine: string; device: string; milliseconds: number; note?: string }
  | { status: 'unavailable'; message: string; install: string | null }
  | { status: 'error'; message: string }

/** Rule-based engines that are plain TypeScript: they run in the browser unchanged. */
const EXACT_ENGINES: Partial<ModerationEngines> = {
  privacy: presidioStyleEngine,
  sentiment: vaderSentimentEngine,
  invisibleText: invisibleTextEngine,
}

type Loader = { device: BrowserDevice; signal: AbortSignal; onProgress: ProgressListener }

type LoadedOfflineEngine = { answer: (input: never) => Promise<unknown>; sessions: GraphSession[] }

/** An offline engine built on an ONNX graph: the files it needs and how it answers once they are loaded. */
type OfflineGraphEngine = {
  files: string[]
  load(catalog: BrowserCatalog, run: GraphRunner, loader: Loader): Promise<(input: never) => Promise<unknown>>
}

/** The offline graph engines that have a browser build, by check; the others answer on the server only. */
const OFFLINE_GRAPH_ENGINES: Partial<Record<EngineKey, OfflineGraphEngine>> = {
  toxicity: {
    files: [TOXICITY_GRAPH],
    load: async (_catalog, run) => (text: string) => scoreToxicity(run, text),
  },
  embedding: {
    files: [EMBEDDING_GRAPH, EMBEDDING_VOCABULARY],
    load: async (catalog, run, { signal, onProgress }) => {
      const vocabulary = await fetchModelJson<EmbeddingVocabulary>(catalog.offlineFiles[EMBEDDING_VOCABULARY], signal, onProgress)
      return async (texts: string[]) => {
        const vectors: number[][] = []
        for (const text of texts) vectors.push(await embedText(run, text, vocabulary))
        return vectors
      }
    },
  },
  restrictedTopic: {
    // One offline topic model answers both classifiers; it compares the text with label prototypes through the embedding graph.
    files: [TOPIC_GRAPH, TOPIC_EXPANSIONS, EMBEDDING_GRAPH, EMBEDDING_VOCABULARY],
    load: async (catalog, run, { signal, onProgress }) => {
      const [expansions, vocabulary] = await Promise.all([
        fetchModelJson<TopicExpansions>(catalog.offlineFiles[TOPIC_EXPANSIONS], signal, onProgress),
        fetchModelJson<EmbeddingVocabulary>(catalog.offlineFiles[EMBEDDING_VOCABULARY], signal, onProgress),
      ])
      // A page lives for one visitor's session: the prototypes of the labels they try, kept without a bound.
      const prototypes = new Map<string, Promise<number[]>>()
      const prototypeEmbedding = (prototype: string) => {
        let embedding = prototypes.get(prototype)
        if (!embedding) {
          embedding = embedText(run, prototype, vocabulary)
          embedding.catch(() => prototypes.delete(prototype))
          prototypes.set(prototype, embedding)
        }
        return embedding
      }
      return (input: TopicInput) => scoreTopics(run, input.text, input.labels, expansions, vocabulary, prototypeEmbedding)
    },
  },
  gibberish: {
    files: [GIBBERISH_GRAPH],
    load: async (_catalog, run) => async (text: string) => (await classifyGibberish(run, text)).answer,
  },
  banCode: {
    files: [BANCODE_GRAPH],
    load: async (_catalog, run) => async (text: string) => (await classifyCode(run, text)).answer,
  },
  promptInjection: {
    files: [INJECTION_GRAPH, INJECTION_VOCABULARY, INJECTION_GRAPH.replace(/\.onnx$/, '.json')],
    load: async (catalog, run, { signal, onProgress }) => {
      const [vocabulary, metadata] = await Promise.all([
        fetchModelJson<InjectionVocabulary>(catalog.offlineFiles[INJECTION_VOCABULARY], signal, onProgress),
        fetchModelJson<{ vocabularySize: number }>(catalog.offlineFiles[INJECTION_GRAPH.replace(/\.onnx$/, '.json')], signal, onProgress),
      ])
      return async (text: string) => (await detectInjection(run, text, vocabulary, metadata.vocabularySize)).answer
    },
  },
}

function neuralCheckFor(path: CheckPath, body: Record<string, unknown>): NeuralCheck | null {
  const check = PLAYGROUND_CHECKS.find((c) => c.path === path)!
  if (check.neural === 'topic' && body.model === 'nliMini') return 'topicMini'
  return check.neural
}

export class BrowserModerationRunner {
  private readonly neuralModels = new Map<string, Promise<BrowserNeuralModel>>()
  private readonly offlineAnswers = new Map<string, Promise<LoadedOfflineEngine>>()
  private readonly graphSessions = new Map<string, Promise<GraphSession>>()
  private readonly schemas: ReturnType<typeof requestSchemas>

  constructor(readonly catalog: BrowserCatalog) {
    this.schemas = requestSchemas(catalog.limits)
  }

  /** Which engine would answer `path` in this browser, or why none can. */
  plan(path: CheckPath, body: Record<string, unknown> = {}): CheckPlan {
    const check = PLAYGROUND_CHECKS.find((c) => c.path === path)!
    const neural = neuralCheckFor(path, body)
    const files = neural ? this.catalog.neural[neural] : undefined
    if (neural && files) return { available: true, engine: `neural:${files.id}@${files.revision}`, kind: 'neural', neural }
    const offlineName = this.catalog.offlineEngineNames[check.engine]
    const graphEngine = OFFLINE_GRAPH_ENGINES[check.engine]
    if (graphEngine && offlineName !== 'none' && graphEngine.files.every((f) => this.catalog.offlineFiles[f])) {
      return { available: true, engine: offlineName, kind: 'offline-graph' }
    }
    const exact = EXACT_ENGINES[check.engine]
    if (exact) return { available: true, engine: exact.name, kind: 'exact' }
    const install = neural ? `npm run models:pull ${neural}` : null
    if (offlineName !== 'none') {
      return { available: false, reason: `The server's offline engine ${offlineName} has no browser build yet; run this check on the server.`, install: null }
    }
    return { available: false, reason: 'No engine is installed for this check on this hub.', install }
  }

  /** Downloads (or reads from the cache) and loads what `paths` need on `device`. Rejects with an AbortError when cancelled. */
  async prepare(paths: CheckPath[], bodies: Partial<Record<CheckPath, Record<string, unknown>>>, loader: Loader): Promise<void> {
    const plans = paths.map((path) => ({ path, plan: this.plan(path, bodies[path]) }))
    const needsOnnx = plans.some(({ plan }) => plan.available && plan.kind !== 'exact')
    if (!needsOnnx) return
    if (!this.catalog.runtimeFile) throw new Error('onnxruntime-web is not installed on this hub: run `node scripts/copy-ort.mjs`')
    const ort = await loadOnnxRuntime(this.catalog.runtimeFile, loader.signal, loader.onProgress)
    await Promise.all(
      plans.map(async ({ path, plan }) => {
        if (!plan.available) return
        if (plan.kind === 'neural') await this.neuralModel(ort, plan.neural!, loader)
        if (plan.kind === 'offline-graph') await this.offlineAnswer(ort, PLAYGROUND_CHECKS.find((c) => c.path === path)!.engine, loader)
      }),
    )
  }

  private neuralModel(ort: Awaited<ReturnType<typeof loadOnnxRuntime>>, check: NeuralCheck, loader: Loader): Promise<BrowserNeuralModel> {
    const key = `${loader.device}:${check}`
    let loading = this.neuralModels.get(key)
    if (!loading) {
      loading = loadNeuralModel(ort, check, this.catalog.neural[check]!, loader.device, loader.signal, loader.onProgress)
      loading.catch(() => this.neuralModels.delete(key))
      this.neuralModels.set(key, loading)
    }
    return loading
  }

  private offlineAnswer(ort: Awaited<ReturnType<typeof loadOnnxRuntime>>, engine: EngineKey, loader: Loader) {
    const key = `${loader.device}:${engine}`
    let loading = this.offlineAnswers.get(key)
    if (!loading) {
      const graphEngine = OFFLINE_GRAPH_ENGINES[engine]!
      const graphs = graphEngine.files.filter((f) => f.endsWith('.onnx'))
      loading = (async () => {
        const sessions = new Map(
          await Promise.all(graphs.map(async (graph) => [graph, await this.graphSession(ort, graph, loader)] as const)),
        )
        const run: GraphRunner = async (graph, feeds) => graphOutputs(await sessions.get(graph)!.run(feeds))
        return { answer: await graphEngine.load(this.catalog, run, loader), sessions: [...sessions.values()] }
      })()
      loading.catch(() => this.offlineAnswers.delete(key))
      this.offlineAnswers.set(key, loading)
    }
    return loading
  }

  private graphSession(ort: Awaited<ReturnType<typeof loadOnnxRuntime>>, graph: string, loader: Loader): Promise<GraphSession> {
    const key = `${loader.device}:${graph}`
    let loading = this.graphSessions.get(key)
    if (!loading) {
      loading = fetchModelFile(this.catalog.offlineFiles[graph], loader.signal, loader.onProgress).then((bytes) =>
        createGraphSession(ort, bytes, loader.device),
      )
      loading.catch(() => this.graphSessions.delete(key))
      this.graphSessions.set(key, loading)
    }
    return loading
  }

  /** The engines for one device, over what `prepare` loaded; an engine whose model is not loaded is unavailable. */
  private async engines(device: BrowserDevice): Promise<ModerationEngines> {
    const settled = async <T,>(promise: Promise<T> | undefined): Promise<T | null> => (promise ? promise.catch(() => null) : null)
    const neural = async (check: NeuralCheck) => settled(this.neuralModels.get(`${device}:${check}`))
    const offline = async (engine: EngineKey) => settled(this.offlineAnswers.get(`${device}:${engine}`))
    /** The check's neural model when loaded (`withNeural`), else its offline graph engine, else its rule-based engine. */
    const engineFor = async <Input, Output>(
      key: EngineKey,
      withNeural?: { check: NeuralCheck; run: (model: BrowserNeuralModel, input: Input) => Promise<Output> },
    ): Promise<ModerationEngine<Input, Output>> => {
      const model = withNeural ? await neural(withNeural.check) : null
      if (model) return { name: model.engine, available: () => true, run: (input) => withNeural!.run(model, input) }
      const loaded = await offline(key)
      if (loaded) return { name: this.catalog.offlineEngineNames[key], available: () => true, run: loaded.answer as (input: Input) => Promise<Output> }
      const exact = EXACT_ENGINES[key] as ModerationEngine<Input, Output> | undefined
      return exact ?? { name: 'none', available: () => false, run: () => Promise.reject(new Error('not loaded')) }
    }
    const topicModels = { default: await neural('topic'), nliMini: await neural('topicMini') }
    const topicFallback = await engineFor<TopicInput, number[]>('restrictedTopic')
    const topicModel = (input: TopicInput) => topicModels[input.classifier]
    const restrictedTopic: ModerationEngine<TopicInput, number[]> = {
      name: topicModels.default ? topicModels.default.engine : topicFallback.name,
      nameFor: (input) => {
        const model = topicModel(input)
        return model ? model.engine : topicFallback.name
      },
      available: () => topicModels.default !== null || topicFallback.available(),
      availableFor: (input) => topicModel(input) !== null || topicFallback.available(),
      run: (input) => {
        const model = topicModel(input)
        return model ? zeroShotScores(model, input.text, input.labels) : topicFallback.run(input)
      },
    }
    return {
      toxicity: await engineFor('toxicity', {
        check: 'toxicity',
        run: async (model, text: string) => {
          const scores = await windowedSigmoidScores(model, text)
          return Object.fromEntries(TOXICITY_METRICS.map((metric, i) => [metric, scores[i]])) as ToxicityScores
        },
      }),
      privacy: await engineFor('privacy'),
      promptInjection: await engineFor('promptInjection', {
        check: 'promptInjection',
        run: async (model, text: string) => {
          const { label, score } = await softmaxClassify(model, text)
          if (label !== 'LEGIT' && label !== 'INJECTION') throw new Error(`unexpected injection label "${label}"`)
          return { label, score }
        },
      }),
      restrictedTopic,
      embedding: await engineFor('embedding', { check: 'embedding', run: (model, texts: string[]) => clsEmbeddings(model, texts) }),
      sentiment: await engineFor('sentiment'),
      invisibleText: await engineFor('invisibleText'),
      gibberish: await engineFor('gibberish', {
        check: 'gibberish',
        run: async (model, text: string) => {
          const { label, score } = await softmaxClassify(model, text)
          if (!(GIBBERISH_LABELS as readonly string[]).includes(label)) throw new Error(`unexpected gibberish label "${label}"`)
          return { label: label as GibberishLabel, probability: score }
        },
      }),
      banCode: await engineFor('banCode', {
        check: 'bancode',
        run: async (model, text: string) => {
          const { label, score } = await softmaxClassify(model, text)
          if (label !== 'CODE' && label !== 'NL') throw new Error(`unexpected code label "${label}"`)
          return { label, score }
        },
      }),
    }
  }

  /** The ONNX sessions behind a check's answer on `device` (to report where they really ran). */
  private async sessionsUsed(path: CheckPath, plan: CheckPlan & { available: true }, device: BrowserDevice): Promise<GraphSession[]> {
    if (plan.kind === 'neural') {
      const model = await this.neuralModels.get(`${device}:${plan.neural}`)?.catch(() => null)
      return model ? [model.session] : []
    }
    const engine = PLAYGROUND_CHECKS.find((c) => c.path === path)!.engine
    const loaded = await this.offlineAnswers.get(`${device}:${engine}`)?.catch(() => null)
    return loaded?.sessions ?? []
  }

  /** Answers one check as the API would (same validation, same body), after `prepare`. */
  async answer(path: CheckPath, body: Record<string, unknown>, device: BrowserDevice): Promise<CheckOutcome> {
    const plan = this.plan(path, body)
    if (!plan.available) return { status: 'unavailable', message: plan.reason, install: plan.install }
    const endpoint = ENDPOINTS.find((e) => e.path === path)!
    const parsed = this.schemas[endpoint.request].safeParse(body)
    if (!parsed.success) return { status: 'error', message: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') }
    const started = performance.now()
    try {
      const { body: answer, engine } = await endpoint.answer(parsed.data as never, await this.engines(device))
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
