/**
 * The neural model runtime's public API: one function per check, each returning the model's
 * answer after that model's own post-processing (see manifest.ts). Response shapes, rounding
 * and timing belong to the API layer.
 */
import { MODEL_MANIFEST, NEURAL_CHECKS, type NeuralCheck } from './manifest'
import { ModelRuntime, type ModelState } from './models'
import { clsEmbeddings, softmaxClassify, windowedSigmoidScores, zeroShotScores } from './neural-steps'
import { sortByScore } from './postprocess'
import { settingsFromEnv, type ModelChoice, type RuntimeSettings } from './settings'

export { MODEL_MANIFEST, NEURAL_CHECKS, TOXICITY_METRICS, isNeuralCheck, type NeuralCheck } from './manifest'
export type { ModelChoice, RuntimeSettings } from './settings'
export { parseModelRepo } from './settings'

let runtime = new ModelRuntime()

/** Replaces the runtime (tests, benchmarks); models already loaded are released. */
export async function configureModelRuntime(overrides: Partial<RuntimeSettings> = {}): Promise<void> {
  const previous = runtime
  runtime = new ModelRuntime({ ...settingsFromEnv(), ...overrides })
  await previous.dispose()
}

/** Call once at server start: with eager loading it loads every installed model. */
export async function startModelRuntime(): Promise<void> {
  if (runtime.settings.loading === 'eager') await runtime.loadInstalled()
}

/** Whether the check's model is a repo on this hub (MODERATION_MODEL_<CHECK>) rather than a MODELS_DIR folder. */
export function neuralAvailableFromRepo(check: NeuralCheck): boolean {
  return runtime.settings.repos[check] !== undefined
}

export function neuralAvailable(check: NeuralCheck): boolean {
  return runtime.installed(check)
}

/** The model a check runs: its repo on this hub and the revision asked for, or the manifest's model id in MODELS_DIR. */
export function modelInfo(check: NeuralCheck): { id: string; revision: string } {
  const source = runtime.settings.repos[check]
  if (source) return { id: source.repo, revision: source.revision }
  const { id, revision } = MODEL_MANIFEST[check]
  return { id, revision }
}

export interface Readiness {
  /** True when no installed model still has to load (eager) or has failed to load. */
  ready: boolean
  loading: 'lazy' | 'eager'
  models: { check: NeuralCheck; id: string; revision: string; state: ModelState; error?: string }[]
}

export function readiness(): Readiness {
  const models = NEURAL_CHECKS.map((check) => ({ check, ...modelInfo(check), ...runtime.state(check) }))
  const eager = runtime.settings.loading === 'eager'
  const ready = models.every(
    (m) => m.state === 'absent' || m.state === 'ready' || (!eager && m.state === 'not-loaded'),
  )
  return { ready, loading: runtime.settings.loading, models }
}

async function classify(check: NeuralCheck, text: string, choice?: ModelChoice) {
  const model = await runtime.model(check, choice)
  return { model, ...(await softmaxClassify(model, text)) }
}

/** The seven toxicity metrics in the contract's order (TOXICITY_METRICS), windowed as the toolkit does. */
export async function toxicity(text: string, choice?: ModelChoice): Promise<number[]> {
  return windowedSigmoidScores(await runtime.model('toxicity', choice), text)
}

export async function promptInjection(text: string, choice?: ModelChoice): Promise<{ label: 'LEGIT' | 'INJECTION'; score: number }> {
  const { label, score } = await classify('promptInjection', text, choice)
  if (label !== 'LEGIT' && label !== 'INJECTION') throw new Error(`unexpected injection label "${label}"`)
  return { label, score }
}

export type ZeroShotModel = 'default' | 'nliMini'

/** Multi-label zero-shot: every label scored on its own; labels come back sorted by score, highest first. */
export async function zeroShot(
  text: string,
  labels: string[],
  which: ZeroShotModel = 'default',
  choice?: ModelChoice,
): Promise<{ labels: string[]; scores: number[] }> {
  const model = await runtime.model(which === 'nliMini' ? 'topicMini' : 'topic', choice)
  return sortByScore(labels, await zeroShotScores(model, text, labels))
}

/** One raw (unnormalised) CLS embedding per text, in input order. */
export async function embed(texts: string[], choice?: ModelChoice): Promise<number[][]> {
  return clsEmbeddings(await runtime.model('embedding', choice), texts)
}

export async function gibberish(text: string, choice?: ModelChoice): Promise<{ label: string; score: number; probabilities: Record<string, number> }> {
  const { model, label, score, probabilities } = await classify('gibberish', text, choice)
  return { label, score, probabilities: Object.fromEntries(probabilities.map((p, i) => [model.id2label[i], p])) }
}

/** Code or natural language, after codenlbert's clean-up of the text. */
export async function bancode(text: string, choice?: ModelChoice): Promise<{ label: 'CODE' | 'NL'; score: number }> {
  const { label, score } = await classify('bancode', text, choice)
  if (label !== 'CODE' && label !== 'NL') throw new Error(`unexpected code label "${label}"`)
  return { label, score }
}
