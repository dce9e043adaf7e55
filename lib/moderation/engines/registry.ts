/**
 * The server's engine for every check, built from the checks' own engine specs
 * (lib/moderation/checks): rules where a check has them, the offline graph model from the offline
 * models repo (or OFFLINE_MODELS_DIR), and the neural model where one is installed.
 */
import { ENGINE_SPECS, type ModerationEngines } from '@/lib/moderation/checks'
import type { EngineSpec } from '@/lib/moderation/checks/check'
import { neuralOrFallback } from './fallback'
import { neuralEngine } from './neural'
import { offlineEngine } from './offline-graphs'
import type { ModerationEngine } from './types'
import { notInstalledEngine } from './unavailable'

type Tier = 'exact' | 'offline' | 'neural'

function engineFor(spec: EngineSpec<string, never, unknown>, tiers: readonly Tier[]): ModerationEngine<never, unknown> {
  let engine: ModerationEngine<never, unknown> = notInstalledEngine()
  if (tiers.includes('exact') && spec.exact) engine = spec.exact
  if (tiers.includes('offline') && spec.offline) engine = offlineEngine(spec.offline.model, spec.offline.files, spec.offline.run)
  if (tiers.includes('neural') && spec.neural) engine = neuralOrFallback(neuralEngine(spec), engine)
  return engine
}

function enginesOf(tiers: readonly Tier[]): ModerationEngines {
  return Object.fromEntries(ENGINE_SPECS.map((spec) => [spec.key, engineFor(spec, tiers)])) as unknown as ModerationEngines
}

/** The engines that are exact by nature (no model at all); every other check answers "not installed". */
export function exactOfflineEngines(): ModerationEngines {
  return enginesOf(['exact'])
}

/** The engines that need no downloaded weights: the exact ones, and the graph models of the offline models repo. */
export function offlineEngines(): ModerationEngines {
  return enginesOf(['exact', 'offline'])
}

/** What a deployment answers with: each check's neural model where it is installed, its offline engine otherwise. */
export function deploymentEngines(): ModerationEngines {
  return enginesOf(['exact', 'offline', 'neural'])
}

/** The neural engine of every check that has a neural model, whether or not it is installed (evaluation, benchmarks, tests). */
export function neuralEngines(): Partial<ModerationEngines> {
  return Object.fromEntries(ENGINE_SPECS.filter((spec) => spec.neural).map((spec) => [spec.key, neuralEngine(spec as EngineSpec<string, never, unknown>)]))
}
