/**
 * Adapters from the neural runtime (`@/lib/moderation/runtime`) to the engine interface, and the
 * rule that picks, per check and per request, the neural model when it is installed in
 * MODELS_DIR and the check's offline engine otherwise.
 */
import {
  bancode,
  embed,
  gibberish,
  modelInfo,
  neuralAvailableFromRepo,
  neuralAvailable,
  promptInjection,
  toxicity,
  zeroShot,
  type ModelChoice,
  type NeuralCheck,
} from '@/lib/moderation/runtime'
import {
  GIBBERISH_LABELS,
  TOXICITY_METRICS,
  type BanCodeVerdict,
  type GibberishLabel,
  type GibberishPrediction,
  type InjectionVerdict,
  type ModerationEngine,
  type ModerationEngines,
  type TopicInput,
  type TopicScores,
  type ToxicityScores,
} from './types'

/** `neural:<model id>` from MODELS_DIR; `neural:<repo>@<revision>` for a model repo on this hub. */
export function neuralEngineName(check: NeuralCheck): string {
  const { id, revision } = modelInfo(check)
  return neuralAvailableFromRepo(check) ? `neural:${id}@${revision}` : `neural:${id}`
}

function neuralEngine<Input, Output>(check: NeuralCheck, run: (input: Input, model?: ModelChoice) => Promise<Output>): ModerationEngine<Input, Output> {
  return {
    get name() {
      return neuralEngineName(check)
    },
    available: () => neuralAvailable(check),
    run,
  }
}

export const neuralToxicityEngine = neuralEngine('toxicity', async (text: string, model?: ModelChoice): Promise<ToxicityScores> => {
  const scores = await toxicity(text, model)
  return Object.fromEntries(TOXICITY_METRICS.map((metric, i) => [metric, scores[i]])) as ToxicityScores
})

export const neuralPromptInjectionEngine = neuralEngine('promptInjection', (text: string, model?: ModelChoice): Promise<InjectionVerdict> => promptInjection(text, model))

export const neuralEmbeddingEngine = neuralEngine('embedding', (texts: string[], model?: ModelChoice) => embed(texts, model))

function isGibberishLabel(label: string): label is GibberishLabel {
  return (GIBBERISH_LABELS as readonly string[]).includes(label)
}

export const neuralGibberishEngine = neuralEngine('gibberish', async (text: string, model?: ModelChoice): Promise<GibberishPrediction> => {
  const { label, score } = await gibberish(text, model)
  if (!isGibberishLabel(label)) throw new Error(`unexpected gibberish label "${label}"`)
  return { label, probability: score }
})

export const neuralBanCodeEngine = neuralEngine('bancode', (text: string, model?: ModelChoice): Promise<BanCodeVerdict> => bancode(text, model))

/** The zero-shot model a topic request asks for: `nliMini` the small one, anything else the default one. */
function topicCheck(input: TopicInput): NeuralCheck {
  return input.classifier === 'nliMini' ? 'topicMini' : 'topic'
}

/** The runtime answers labels sorted by score; the engine interface wants one score per requested label, in request order. */
export async function zeroShotInRequestOrder(input: TopicInput, model?: ModelChoice): Promise<TopicScores> {
  const { labels, scores } = await zeroShot(input.text, input.labels, input.classifier, model)
  const byLabel = new Map(labels.map((label, i) => [label, scores[i]]))
  return input.labels.map((label) => byLabel.get(label)!)
}

/** Both zero-shot models behind one engine: which one answers depends on the request. */
export const neuralTopicEngine: ModerationEngine<TopicInput, TopicScores> = {
  get name() {
    return neuralEngineName('topic')
  },
  nameFor: (input) => neuralEngineName(topicCheck(input)),
  available: () => neuralAvailable('topic'),
  availableFor: (input) => neuralAvailable(topicCheck(input)),
  run: zeroShotInRequestOrder,
}

/**
 * The neural engine while its model is installed, the fallback (an offline engine, or "not
 * installed") otherwise. Decided on every request, so a model pulled while the server runs is
 * used from the next request on; `nameFor` reports the engine that answered that input.
 */
export function neuralOrFallback<Input, Output>(
  neural: ModerationEngine<Input, Output>,
  fallback: ModerationEngine<Input, Output>,
): ModerationEngine<Input, Output> {
  const usesNeural = (input: Input) => (neural.availableFor ? neural.availableFor(input) : neural.available())
  const chosen = (input: Input) => (usesNeural(input) ? neural : fallback)
  return {
    get name() {
      return neural.available() ? neural.name : fallback.name
    },
    nameFor: (input) => {
      const engine = chosen(input)
      return engine.nameFor ? engine.nameFor(input) : engine.name
    },
    available: () => neural.available() || fallback.available(),
    availableFor: (input) => usesNeural(input) || (fallback.availableFor ? fallback.availableFor(input) : fallback.available()),
    // A model the caller picked runs on the neural engine or answers why not: never silently the fallback.
    run: (input, model) => (model ? neural.run(input, model) : chosen(input).run(input)),
  }
}

/** Every check with a neural model answers with it where installed, else with `offline`'s engine for the check. */
export function withNeuralEngines(offline: ModerationEngines): ModerationEngines {
  return {
    ...offline,
    toxicity: neuralOrFallback(neuralToxicityEngine, offline.toxicity),
    promptInjection: neuralOrFallback(neuralPromptInjectionEngine, offline.promptInjection),
    restrictedTopic: neuralOrFallback(neuralTopicEngine, offline.restrictedTopic),
    embedding: neuralOrFallback(neuralEmbeddingEngine, offline.embedding),
    gibberish: neuralOrFallback(neuralGibberishEngine, offline.gibberish),
    banCode: neuralOrFallback(neuralBanCodeEngine, offline.banCode),
  }
}
