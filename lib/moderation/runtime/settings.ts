import path from 'node:path'
import { setting, type Environment, type SettingName } from '@/lib/config/settings'
import type { Caller } from '@/lib/policy'
import { NEURAL_CHECKS, type NeuralCheck } from './manifest'

/** A model repo on this hub and the revision to load. */
export type ModelRepoRef = { repo: string; revision: string }

/** A model a caller picked for one request, read with that caller's access (null: anonymous). */
export type ModelChoice = ModelRepoRef & { caller: Caller }

const REPO_SETTING = {
  toxicity: 'MODERATION_MODEL_TOXICITY',
  promptInjection: 'MODERATION_MODEL_PROMPT_INJECTION',
  topic: 'MODERATION_MODEL_TOPIC',
  topicMini: 'MODERATION_MODEL_TOPIC_MINI',
  embedding: 'MODERATION_MODEL_EMBEDDING',
  gibberish: 'MODERATION_MODEL_GIBBERISH',
  bancode: 'MODERATION_MODEL_BANCODE',
} as const satisfies Record<NeuralCheck, SettingName>

/** `namespace/name` or `namespace/name@revision` (the revision defaults to `main`). */
export function parseModelRepo(value: string): ModelRepoRef {
  const at = value.indexOf('@')
  return at < 0 ? { repo: value, revision: 'main' } : { repo: value.slice(0, at), revision: value.slice(at + 1) || 'main' }
}

const MODEL_REPO = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/
const MODEL_REVISION = /^[\w.\-/]{1,200}$/

/**
 * A model repo a caller typed (`namespace/name[@revision]`: the API's `?model=`, the playground's
 * picker), or the one message both show for anything else; checked before any lookup, so a path
 * like `../x` never reaches the hub's files.
 */
export function parseModelChoice(value: string): ModelRepoRef | { problem: string } {
  const { repo, revision } = parseModelRepo(value.trim())
  if (!MODEL_REPO.test(repo) || !MODEL_REVISION.test(revision) || revision.includes('..')) {
    return { problem: 'Value error, must be namespace/name or namespace/name@revision' }
  }
  return { repo, revision }
}

export interface RuntimeSettings {
  /** Root of the transformers.js model layout (`<dir>/<model id>/...`). */
  modelsDir: string
  /** The checks whose model is a repo on this hub (loaded through the model cache instead of modelsDir). */
  repos: Partial<Record<NeuralCheck, ModelRepoRef>>
  /** `eager`: load every installed model at start; `lazy`: on first use. */
  loading: 'lazy' | 'eager'
  /** Micro-batching of concurrent requests to one model; off = each request runs on its own. */
  microBatching: boolean
  /** Most sequences in one forward pass. */
  maxBatchSize: number
  /**
   * Longest a first sequence waits for company before its batch starts. 0 (the default) starts
   * at the next turn of the event loop; under load batches still fill up while one runs.
   */
  maxWaitMs: number
  /**
   * onnxruntime intra-op threads per model; 0 leaves onnxruntime's default (all cores). Default 1:
   * a server answers many requests at once, and on 2 cores one thread per session measured faster
   * (p50 4.0-4.4 ms against 5.7-8.4 ms, bench/moderation/RESULTS.md) and idles without burning CPU.
   */
  threads: number
}

/** The runtime settings from `env` (the process environment when left out). */
export function settingsFromEnv(env?: Environment): RuntimeSettings {
  return {
    modelsDir: path.resolve(setting('MODELS_DIR', env)),
    repos: Object.fromEntries(
      NEURAL_CHECKS.filter((check) => setting(REPO_SETTING[check], env)).map((check) => [check, parseModelRepo(setting(REPO_SETTING[check], env))]),
    ),
    loading: setting('MODERATION_MODEL_LOADING', env),
    microBatching: setting('MODERATION_MICROBATCH', env) === 'on',
    maxBatchSize: setting('MODERATION_BATCH_MAX', env),
    maxWaitMs: setting('MODERATION_BATCH_WAIT_MS', env),
    threads: setting('MODERATION_ORT_THREADS', env),
  }
}
