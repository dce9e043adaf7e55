import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { env } from '@huggingface/transformers'
import { afterAll, describe, expect, it } from 'vitest'
import { configureModelRuntime, neuralAvailable, NEURAL_CHECKS, readiness, startModelRuntime } from '@/lib/moderation/runtime'
import { bancode, toxicity } from '../../setup/neural-answers'
import { ModelRuntime } from '@/lib/moderation/runtime/models'
import { EngineUnavailableError } from '@/lib/moderation/errors'
import { settingsFromEnv } from '@/lib/moderation/runtime/settings'

const FIXTURES = path.resolve('tests/fixtures/tiny-models')

/** A models folder holding only the bancode model. */
function partialModelsDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'models-partial-'))
  fs.cpSync(path.join(FIXTURES, 'vishnun'), path.join(dir, 'vishnun'), { recursive: true })
  return dir
}

afterAll(() => configureModelRuntime())

describe('model runtime lifecycle', () => {
  it('reads its settings from the environment', () => {
    expect(settingsFromEnv({})).toMatchObject({ modelsDir: path.resolve('data/models'), loading: 'lazy', microBatching: true, maxWaitMs: 0 })
    expect(settingsFromEnv({ MODELS_DIR: '/m', MODERATION_MODEL_LOADING: 'eager', MODERATION_MICROBATCH: 'off', MODERATION_BATCH_MAX: '8' }))
      .toMatchObject({ modelsDir: '/m', loading: 'eager', microBatching: false, maxBatchSize: 8 })
    expect(() => settingsFromEnv({ MODERATION_MODEL_LOADING: 'sometimes' })).toThrow('MODERATION_MODEL_LOADING')
  })

  it('answers a missing model with EngineUnavailableError naming the pull command, and serves the installed ones', async () => {
    const dir = partialModelsDir()
    try {
      await configureModelRuntime({ modelsDir: dir, loading: 'lazy' })
      expect(NEURAL_CHECKS.filter(neuralAvailable)).toEqual(['bancode'])
      const error = await toxicity('hello').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(EngineUnavailableError)
      expect((error as EngineUnavailableError).modelsPullName).toBe('toxicity')
      expect((error as Error).message).toContain('npm run models:pull toxicity')
      expect((await bancode('def f(): pass')).label).toMatch(/^(CODE|NL)$/)
      const state = readiness()
      expect(state.ready).toBe(true)
      expect(state.models.find((m) => m.check === 'toxicity')?.state).toBe('absent')
      expect(env.allowRemoteModels).toBe(false)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('eager loading loads every installed model at start; readiness waits for it', async () => {
    await configureModelRuntime({ modelsDir: FIXTURES, loading: 'eager' })
    expect(readiness().ready).toBe(false)
    await startModelRuntime()
    const state = readiness()
    expect(state.ready).toBe(true)
    expect(state.models.every((m) => m.state === 'ready')).toBe(true)
  })

  it('loads a model once however many requests arrive together', async () => {
    const runtime = new ModelRuntime({ ...settingsFromEnv(), modelsDir: FIXTURES })
    try {
      const loaded = await Promise.all(Array.from({ length: 10 }, () => runtime.model('gibberish')))
      expect(new Set(loaded).size).toBe(1)
      expect(await runtime.model('gibberish')).toBe(loaded[0])
    } finally {
      await runtime.dispose()
    }
  })
})
