import path from 'node:path'
import { setting, type Environment } from '@/lib/config/settings'

export interface RuntimeSettings {
  /** Root of the transformers.js model layout (`<dir>/<model id>/...`). */
  modelsDir: string
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
    loading: setting('MODERATION_MODEL_LOADING', env),
    microBatching: setting('MODERATION_MICROBATCH', env) === 'on',
    maxBatchSize: setting('MODERATION_BATCH_MAX', env),
    maxWaitMs: setting('MODERATION_BATCH_WAIT_MS', env),
    threads: setting('MODERATION_ORT_THREADS', env),
  }
}
