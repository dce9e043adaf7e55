import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { configureModelRuntime } from '@/lib/moderation/runtime'
import { bancode, embed, toxicity, zeroShot } from '../../setup/neural-answers'
import { MicroBatcher } from '@/lib/moderation/runtime/micro-batcher'

const FIXTURES = path.resolve('tests/fixtures/tiny-models')

describe('MicroBatcher', () => {
  it('runs items of concurrent requests together, bounded by the batch size', async () => {
    const batches: number[][] = []
    const batcher = new MicroBatcher(async (items: number[]) => {
      batches.push(items)
      return items.map((n) => n * 10)
    }, { maxBatchSize: 4, maxWaitMs: 20 })
    const answers = await Promise.all([batcher.submit([1, 2]), batcher.submit([3]), batcher.submit([4, 5, 6])])
    expect(answers).toEqual([[10, 20], [30], [40, 50, 60]])
    expect(batches).toEqual([[1, 2, 3, 4], [5, 6]])
  })

  it('does not hold a lone request longer than the wait bound', async () => {
    // On a clock the test moves (no wall-clock timing): the batch starts when the wait bound has passed, not before.
    vi.useFakeTimers()
    try {
      const batcher = new MicroBatcher(async (items: string[]) => items.map((s) => s.toUpperCase()), { maxBatchSize: 64, maxWaitMs: 5 })
      let answer: string[] | undefined
      void batcher.submit(['a']).then((a) => (answer = a))
      await vi.advanceTimersByTimeAsync(4)
      expect(answer).toBeUndefined()
      await vi.advanceTimersByTimeAsync(1)
      expect(answer).toEqual(['A'])
    } finally {
      vi.useRealTimers()
    }
  })

  it('fails only the batch that failed; later requests still work', async () => {
    let calls = 0
    const batcher = new MicroBatcher(async (items: number[]) => {
      calls += 1
      if (calls === 1) throw new Error('session crashed')
      return items
    }, { maxBatchSize: 8, maxWaitMs: 1 })
    await expect(batcher.submit([1])).rejects.toThrow('session crashed')
    await expect(batcher.submit([2])).resolves.toEqual([2])
  })
})

describe('micro-batched models', () => {
  afterAll(() => configureModelRuntime())

  const texts = [
    'you are a wonderful person',
    'I hate you, you stupid idiot!',
    'def add(a, b):\n    return a + b',
    'How do I make explosives at home?',
    'a' + ' a'.repeat(700),
    'hello world',
  ]
  async function answers() {
    return Promise.all(texts.flatMap((t) => [
      toxicity(t),
      zeroShot(t, ['Terrorism', 'Explosives', 'weather'], 'nliMini'),
      bancode(t),
      embed([t, 'hello']),
    ]))
  }

  it('give the same answers as one request at a time', async () => {
    await configureModelRuntime({ modelsDir: FIXTURES, microBatching: false })
    const sequential: unknown[] = []
    for (const t of texts) {
      sequential.push(await toxicity(t), await zeroShot(t, ['Terrorism', 'Explosives', 'weather'], 'nliMini'), await bancode(t), await embed([t, 'hello']))
    }
    await configureModelRuntime({ modelsDir: FIXTURES, microBatching: true, maxBatchSize: 8, maxWaitMs: 5 })
    const batched = await answers()
    expect(batched).toHaveLength(sequential.length)
    const flatten = (v: unknown): number[] =>
      typeof v === 'number' ? [v] : typeof v === 'string' ? [] : Object.values(v as object).flatMap(flatten)
    batched.forEach((answer, i) => {
      const a = flatten(answer), b = flatten(sequential[i])
      expect(a).toHaveLength(b.length)
      a.forEach((v, j) => expect(Math.abs(v - b[j])).toBeLessThan(1e-4))
    })
    const labelsOf = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === 'number' ? undefined : x))
    expect(batched.map(labelsOf)).toEqual(sequential.map(labelsOf))
  })
})

describe('MicroBatcher with no wait', () => {
  it('still joins everything submitted in the same turn, and keeps batching while a batch runs', async () => {
    const batches: number[] = []
    const batcher = new MicroBatcher(async (items: number[]) => {
      batches.push(items.length)
      await new Promise((resolve) => setTimeout(resolve, 10))
      return items
    }, { maxBatchSize: 16, maxWaitMs: 0 })
    const first = Promise.all([1, 2, 3].map((n) => batcher.submit([n])))
    await new Promise((resolve) => setTimeout(resolve, 2))
    const second = Promise.all([4, 5].map((n) => batcher.submit([n])))
    expect(await first).toEqual([[1], [2], [3]])
    expect(await second).toEqual([[4], [5]])
    expect(batches).toEqual([3, 2])
  })
})
