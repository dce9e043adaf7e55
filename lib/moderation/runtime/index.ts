/**
 * The neural model runtime's public API: which model each neural check runs, whether it is there,
 * and the loaded model. What a check does with the model's output is the check's own
 * (lib/moderation/checks, over runtime/neural-steps.ts).
 */
import { processState } from '@/lib/config/process-state'
import { MODEL_MANIFEST, NEURAL_CHECKS, type NeuralCheck } from './manifest'
import { ModelRuntime, type ModelState } from './models'
import type { NeuralModel } from './neural-steps'
import { settingsFromEnv, type ModelChoice, type RuntimeSettings } from './settings'

export { MODEL_MANIFEST, NEURAL_CHECKS, TOXICITY_METRICS, isNeuralCheck, type NeuralCheck } from './manifest'
export type { ModelChoice, RuntimeSettings } from './settings'
export { parseModelRepo } from './settings'

// One per process (lib/config/process-state): the models are loaded once, whichever module copy runs a check.
const holder = processState('modelRuntime', () => ({ runtime: new ModelRuntime() }))

/** Replaces the runtime (tests, benchmarks); models already loaded are released. */
export async function configureModelRuntime(overrides: Partial<RuntimeSettings> = {}): Promise<void> {
  const previous = holder.runtime
  holder.runtime = new ModelRuntime({ ...settingsFromEnv(), ...overrides })
  await previous.dispose()
}

/** Call once at server start: with eager loading it loads every installed model. */
export async function startModelRuntime(): Promise<void> {
  if (holder.runtime.settings.loading === 'eager') await holder.runtime.loadInstalled()
}

/** Whether the check's model is a repo on this hub (MODERATION_MODEL_<CHECK>) rather than a MODELS_DIR folder. */
export function neuralAvailableFromRepo(check: NeuralCheck): boolean {
  return holder.runtime.settings.repos[check] !== undefined
}

export function neuralAvailable(check: NeuralCheck): boolean {
  return holder.runtime.installed(check)
}

/** The model a check runs: its repo on this hub and the revision asked for, or the manifest's model id in MODELS_DIR. */
export function modelInfo(check: NeuralCheck): { id: string; revision: string } {
  const source = holder.runtime.settings.repos[check]
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
  const models = NEURAL_CHECKS.map((check) => ({ check, ...modelInfo(check), ...holder.runtime.state(check) }))
  const eager = holder.runtime.settings.loading === 'eager'
  const ready = models.every(
    (m) => m.state === 'absent' || m.state === 'ready' || (!eager && m.state === 'not-loaded'),
  )
  return { ready, loading: holder.runtime.settings.loading, models }
}

/**
 * The check's model, loaded on first use (a failed load is retried on the next call): the
 * configured one, or `choice`, a model repo the caller picked (read with the caller's access).
 * The checks' post-processing runs over it.
 */
export function neuralModel(check: NeuralCheck, choice?: ModelChoice): Promise<NeuralModel> {
  return holder.runtime.model(check, choice)
}
