/**
 * The runtime's answers on the committed tiny models against the answers scripts/make-tiny-models.py
 * computed in Python (its own tokenizers, PyTorch, the post-processing written from the toolkit).
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureModelRuntime, modelInfo, neuralAvailable, NEURAL_CHECKS, readiness } from '@/lib/moderation/runtime'
import { bancode, embed, gibberish, promptInjection, toxicity, zeroShot } from '../../setup/neural-answers'
import { encodeForModel, ModelRuntime } from '@/lib/moderation/runtime/models'
import { settingsFromEnv } from '@/lib/moderation/runtime/settings'
import type { NeuralCheck } from '@/lib/moderation/runtime/manifest'

const FIXTURES = path.resolve('tests/fixtures/tiny-models')
const TOLERANCE = 1e-4

function reference<T>(check: NeuralCheck): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, 'references', `${check}.json`), 'utf8')) as T
}

function expectClose(actual: number[], expected: number[], tolerance = TOLERANCE) {
  expect(actual).toHaveLength(expected.length)
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]), `index ${i}: ${v} vs ${expected[i]}`).toBeLessThan(tolerance))
}

interface ClassificationReference {
  labels: string[]
  cases: { text: string; cleaned: string; input_ids: number[]; label: string; score: number; probs: number[] }[]
}
interface ZeroShotReference {
  cases: { text: string; candidate_labels: string[]; labels: string[]; scores: number[]; first_pair_ids: number[] }[]
}

beforeAll(() => configureModelRuntime({ modelsDir: FIXTURES, loading: 'lazy', microBatching: true, maxWaitMs: 1 }))
afterAll(() => configureModelRuntime())

describe('tiny model fixtures', () => {
  it('are installed for every check and report the real model ids', () => {
    for (const check of NEURAL_CHECKS) expect(neuralAvailable(check), check).toBe(true)
    expect(modelInfo('toxicity')).toEqual({ id: 'unitary/unbiased-toxic-roberta', revision: expect.any(String) })
  })

  it('tokenize exactly as the Python generator did, truncation included', async () => {
    const runtime = new ModelRuntime({ ...settingsFromEnv(), modelsDir: FIXTURES, microBatching: false })
    try {
      for (const check of ['promptInjection', 'gibberish', 'bancode'] as const) {
        const model = await runtime.model(check)
        for (const c of reference<ClassificationReference>(check).cases) {
          expect(encodeForModel(model.tokenizer, c.cleaned, null, model.entry.maxLength), `${check}: ${c.text.slice(0, 40)}`).toEqual(c.input_ids)
        }
      }
      for (const check of ['topic', 'topicMini'] as const) {
        const model = await runtime.model(check)
        for (const c of reference<ZeroShotReference>(check).cases) {
          const hypothesis = `This text falls under and is strictly related to topic ${c.candidate_labels[0]}`
          expect(encodeForModel(model.tokenizer, c.text, hypothesis, model.entry.maxLength)).toEqual(c.first_pair_ids)
        }
      }
    } finally {
      await runtime.dispose()
    }
  })
})

describe('toxicity', () => {
  const ref = reference<{ metrics: string[]; cases: { text: string; token_count: number; windows: number; scores: number[] }[] }>('toxicity')

  it('covers one window, the 450-token boundary and several windows', () => {
    expect(ref.metrics).toEqual(['toxicity', 'severe_toxicity', 'obscene', 'threat', 'insult', 'identity_attack', 'sexual_explicit'])
    expect(ref.cases.map((c) => c.windows)).toEqual([1, 1, 1, 2, expect.any(Number)])
    expect(ref.cases[2].token_count).toBe(450)
    expect(ref.cases[4].windows).toBeGreaterThan(2)
  })

  it.each(ref.cases.map((c, i) => [i, c] as const))('case %i: sigmoid scores averaged over windows, in contract order', async (_, c) => {
    expectClose(await toxicity(c.text), c.scores)
  })
})

describe('prompt injection', () => {
  const ref = reference<ClassificationReference>('promptInjection')
  it('uses both labels across the cases', () => expect(new Set(ref.cases.map((c) => c.label))).toEqual(new Set(['LEGIT', 'INJECTION'])))
  it.each(ref.cases.map((c, i) => [i, c] as const))('case %i: LEGIT/INJECTION with the softmax probability', async (_, c) => {
    const answer = await promptInjection(c.text)
    expect(answer.label).toBe(c.label)
    expectClose([answer.score], [c.score])
  })
})

describe.each([
  ['topic', 'default'],
  ['topicMini', 'nliMini'],
] as const)('zero-shot %s', (check, which) => {
  const ref = reference<ZeroShotReference>(check)
  it.each(ref.cases.map((c, i) => [i, c] as const))('case %i: multi-label entailment scores, sorted', async (_, c) => {
    const answer = await zeroShot(c.text, c.candidate_labels, which)
    expect(answer.labels).toEqual(c.labels)
    expectClose(answer.scores, c.scores)
    if (c.scores.length > 1) expect(c.scores.reduce((a, b) => a + b, 0)).not.toBeCloseTo(1, 3)
  })
})

describe('embeddings', () => {
  const ref = reference<{ cases: { text: string; vector: number[] }[] }>('embedding')
  it('are raw CLS vectors in input order, long texts truncated', async () => {
    const vectors = await embed(ref.cases.map((c) => c.text))
    vectors.forEach((v, i) => expectClose(v, ref.cases[i].vector, 1e-3))
    const norm = Math.hypot(...vectors[0])
    expect(Math.abs(norm - 1)).toBeGreaterThan(0.01)
  })
})

describe('gibberish', () => {
  const ref = reference<ClassificationReference>('gibberish')
  it.each(ref.cases.map((c, i) => [i, c] as const))('case %i: top label and every probability', async (_, c) => {
    const answer = await gibberish(c.text)
    expect(answer.label).toBe(c.label)
    expectClose([answer.score], [c.score])
    expectClose(ref.labels.map((l) => answer.probabilities[l]), c.probs)
  })
})

describe('bancode', () => {
  const ref = reference<ClassificationReference>('bancode')
  it('cleans Markdown, list markers, digits and periods like the Python reference', async () => {
    const { cleanForCodeDetection } = await import('@/lib/moderation/runtime/postprocess')
    const cleanupCases = (ref as unknown as { cleanup_cases: { text: string; cleaned: string }[] }).cleanup_cases
    expect(cleanupCases.length).toBeGreaterThan(5)
    for (const c of [...ref.cases, ...cleanupCases]) expect(cleanForCodeDetection(c.text), JSON.stringify(c.text)).toBe(c.cleaned)
  })
  it.each(ref.cases.map((c, i) => [i, c] as const))('case %i: CODE/NL with its probability', async (_, c) => {
    const answer = await bancode(c.text)
    expect(answer.label).toBe(c.label)
    expectClose([answer.score], [c.score])
  })
})

describe('readiness', () => {
  it('is ready once used models are loaded in lazy mode', () => {
    const state = readiness()
    expect(state.loading).toBe('lazy')
    expect(state.ready).toBe(true)
    expect(state.models.find((m) => m.check === 'toxicity')?.state).toBe('ready')
  })
})
