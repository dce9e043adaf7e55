import path from 'node:path'

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

function intSetting(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`)
  return parsed
}

export function settingsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): RuntimeSettings {
  const loading = env.MODERATION_MODEL_LOADING ?? 'lazy'
  if (loading !== 'lazy' && loading !== 'eager') {
    throw new Error(`MODERATION_MODEL_LOADING must be "lazy" or "eager", got "${loading}"`)
  }
  return {
    modelsDir: path.resolve(env.MODELS_DIR || 'public/models'),
    loading,
    microBatching: (env.MODERATION_MICROBATCH ?? 'on') !== 'off',
    maxBatchSize: Math.max(1, intSetting(env.MODERATION_BATCH_MAX, 32, 'MODERATION_BATCH_MAX')),
    maxWaitMs: intSetting(env.MODERATION_BATCH_WAIT_MS, 0, 'MODERATION_BATCH_WAIT_MS'),
    threads: intSetting(env.MODERATION_ORT_THREADS, 1, 'MODERATION_ORT_THREADS'),
  }
}
