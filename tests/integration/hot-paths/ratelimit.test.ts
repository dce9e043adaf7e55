// The sliced limiter (lib/ratelimit): budgets shared by every instance through the database, spent
// from memory in slices. Two limiter objects over one database stand for two app instances.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createSlicedLimiter, hit, sliceSize, sweepEndedWindows, weightedSliceSize } from '@/lib/ratelimit'

const key = () => `test:${randomUUID()}`
// Far from a minute's end, so a test's hits all fall in one window.
const NOW = Date.UTC(2030, 0, 1, 12, 0, 20)

async function allowedCount(results: Promise<{ allowed: boolean }>[]) {
  return (await Promise.all(results)).filter((r) => r.allowed).length
}

describe('sliced rate limits', () => {
  it('slices are 1 (exact counting) below a budget of 40, and at most 1/20 of a budget', () => {
    expect([sliceSize(1), sliceSize(39), sliceSize(40), sliceSize(600), sliceSize(1_000_000)]).toEqual([1, 1, 2, 30, 64])
  })

  it('two instances are counted together: never more than the budget, at most N x (slice - 1) less', async () => {
    const [a, b] = [createSlicedLimiter(), createSlicedLimiter()]
    const k = key()
    const max = 200 // slices of 10
    // Uneven traffic: three hits on a for each hit on b, far more than the budget in all.
    let allowedA = 0
    let allowedB = 0
    for (let i = 0; i < 400; i++) {
      if (i % 4 === 3) allowedB += Number((await b.hit(k, max, 60, NOW)).allowed)
      else allowedA += Number((await a.hit(k, max, 60, NOW)).allowed)
    }
    expect(allowedA).toBeGreaterThanOrEqual(140)
    expect(allowedB).toBeGreaterThanOrEqual(40)
    expect(allowedA + allowedB).toBeLessThanOrEqual(max)
    expect(allowedA + allowedB).toBeGreaterThanOrEqual(max - 2 * (sliceSize(max) - 1))
    // Separate per-process counters would have allowed 200 on a alone.
    expect(allowedA).toBeLessThan(max)
  })

  it('is exact across instances for small budgets', async () => {
    const [a, b] = [createSlicedLimiter(), createSlicedLimiter()]
    const k = key()
    const allowed = []
    for (let i = 0; i < 40; i++) allowed.push((await (i % 3 ? a : b).hit(k, 30, 60, NOW)).allowed)
    expect(allowed).toEqual([...Array(30).fill(true), ...Array(10).fill(false)])
  })

  it('spends exactly the budget under concurrency within one instance', async () => {
    const limiter = createSlicedLimiter()
    const k = key()
    expect(await allowedCount(Array.from({ length: 300 }, () => limiter.hit(k, 250, 60, NOW)))).toBe(250)
  })

  it('touches the database once per slice, and a new window starts a new budget', async () => {
    const limiter = createSlicedLimiter()
    const k = key()
    for (let i = 0; i < 1000; i++) expect((await limiter.hit(k, 1_000_000, 60, NOW)).allowed).toBe(true)
    const row = await db.rateLimit.findUnique({ where: { key: `${k}@${Math.floor(NOW / 60_000)}` } })
    expect(row?.count).toBe(Math.ceil(1000 / 64) * 64) // 16 statements, not 1000
    const small = key()
    expect((await limiter.hit(small, 1, 60, NOW)).allowed).toBe(true)
    expect((await limiter.hit(small, 1, 60, NOW)).allowed).toBe(false)
    expect((await limiter.hit(small, 1, 60, NOW + 60_000)).allowed).toBe(true)
  })

  it('weighted hits (characters) are counted together across instances: never more than the budget, a hit refused whole, few statements', async () => {
    const [a, b] = [createSlicedLimiter(), createSlicedLimiter()]
    const k = key()
    const max = 10_000 // weighted slices of 500
    let spent = 0
    const refused: number[] = []
    for (let i = 0; i < 200; i++) {
      const cost = 20 + ((i * 37) % 180)
      const decision = await (i % 3 === 2 ? b : a).hitWeighted(k, max, 60, cost, NOW)
      if (decision.allowed) spent += cost
      else refused.push(cost)
    }
    expect(spent).toBeLessThanOrEqual(max)
    // What each instance reserved and did not spend is lost to the other: at most a slice plus one hit each.
    expect(spent).toBeGreaterThanOrEqual(max - 2 * (weightedSliceSize(max) + 200))
    expect(refused.length).toBeGreaterThan(0)
    const row = await db.rateLimit.findUnique({ where: { key: `${k}@${Math.floor(NOW / 60_000)}` } })
    // Reserved in slices of at least 500 characters: about 20 statements for about 10,000, not one per hit.
    expect(row!.count).toBeGreaterThanOrEqual(spent)
    expect(row!.count).toBeLessThanOrEqual(max + weightedSliceSize(max))
    // A hit larger than what is left is refused whole, while a small one still fits in what this instance holds.
    const small = key()
    expect((await a.hitWeighted(small, 100, 60, 60, NOW)).allowed).toBe(true)
    expect((await a.hitWeighted(small, 100, 60, 60, NOW)).allowed).toBe(false)
    expect((await a.hitWeighted(small, 100, 60, 40, NOW)).allowed).toBe(true)
    expect((await a.hitWeighted(small, 100, 60, 1, NOW)).allowed).toBe(false)
    expect((await a.hitWeighted(small, 100, 60, 60, NOW + 60_000)).allowed).toBe(true)
  })

  it("peek sees this instance's hits at once and another instance's on its first read", async () => {
    const [a, b] = [createSlicedLimiter(), createSlicedLimiter()]
    const k = key()
    for (let i = 0; i < 3; i++) await a.hit(k, 3, 60, NOW)
    expect((await a.peek(k, 3, 60, NOW)).allowed).toBe(false)
    expect((await b.peek(k, 3, 60, NOW)).allowed).toBe(false)
    const fresh = key()
    await a.hit(fresh, 3, 60, NOW)
    expect(await a.peek(fresh, 3, 60, NOW)).toMatchObject({ allowed: true, remaining: 2 })
  })

  it("sweeps only windows that have surely ended, never a live 15-minute counter", async () => {
    const k = key()
    const now = Date.now()
    for (let i = 0; i < 3; i++) await hit(k, 5, 15 * 60, now)
    const old = key()
    await db.rateLimit.create({ data: { key: `${old}@1`, count: 1, windowStart: new Date(now - 3 * 3600_000) } })
    await sweepEndedWindows(now + 2 * 60_000)
    expect(await db.rateLimit.count({ where: { key: { startsWith: `${k}@` } } })).toBe(1)
    expect(await db.rateLimit.count({ where: { key: { startsWith: `${old}@` } } })).toBe(0)
    expect((await hit(k, 5, 15 * 60, now)).remaining).toBe(1)
  })
})
