// The moderation readiness route: 503 while eager loading has not finished, 200 once the installed
// models are loaded; lazy loading is ready at once.
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { configureModelRuntime, startModelRuntime } from '@/lib/moderation/runtime'
import { GET } from '@/app/rai/v1/raimoderationmodels/health/route'

const TINY_MODELS = path.resolve('tests/fixtures/tiny-models')

afterAll(() => configureModelRuntime())

it('answers 503 until eagerly loaded models are ready, then 200 with each model loaded', async () => {
  await configureModelRuntime({ modelsDir: TINY_MODELS, loading: 'eager' })
  const before = await GET()
  expect(before.status).toBe(503)
  expect(before.headers.get('cache-control')).toBe('no-store')
  expect((await before.json()).loading).toBe('eager')
  await startModelRuntime()
  const after = await GET()
  expect(after.status).toBe(200)
  const body = await after.json()
  expect(body.ready).toBe(true)
  expect(body.models.find((m: { check: string }) => m.check === 'toxicity')).toMatchObject({ state: 'ready' })
})

it('is ready at once with lazy loading', async () => {
  await configureModelRuntime({ modelsDir: TINY_MODELS, loading: 'lazy' })
  expect((await GET()).status).toBe(200)
})
