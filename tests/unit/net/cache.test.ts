// The document cache: TTL from the server clamped to bounds, LRU eviction, failures never kept,
// concurrent loads coalesced.
import { describe, expect, it } from 'vitest'
import { BoundedCache, freshnessSeconds } from '@/lib/net/cache'

function clock() {
  let t = 1_000_000
  return { now: () => t, advance: (seconds: number) => (t += seconds * 1000) }
}

describe('BoundedCache', () => {
  it('keeps a value for the server freshness clamped to [min, max]', async () => {
    const c = clock()
    const cache = new BoundedCache<number>({ maxEntries: 10, minTtlSeconds: 30, maxTtlSeconds: 3600 }, c.now)
    let loads = 0
    const load = (fresh: number | null) => async () => ({ value: ++loads, freshSeconds: fresh })
    expect(await cache.get('short', load(5))).toBe(1)
    c.advance(20)
    expect(await cache.get('short', load(5))).toBe(1) // raised to the 30 s minimum
    c.advance(11)
    expect(await cache.get('short', load(5))).toBe(2)
    expect(await cache.get('long', load(999_999))).toBe(3)
    c.advance(3599)
    expect(await cache.get('long', load(999_999))).toBe(3)
    c.advance(2)
    expect(await cache.get('long', load(999_999))).toBe(4) // capped at the 1 h maximum
    expect(await cache.get('nostore', load(null))).toBe(5)
    expect(await cache.get('nostore', load(null))).toBe(6)
  })

  it('never stores a failure', async () => {
    const cache = new BoundedCache<string>({ maxEntries: 10, minTtlSeconds: 30, maxTtlSeconds: 60 })
    await expect(cache.get('k', async () => { throw new Error('down') })).rejects.toThrow('down')
    expect(cache.size).toBe(0)
    expect(await cache.get('k', async () => ({ value: 'up', freshSeconds: 60 }))).toBe('up')
  })

  it('coalesces concurrent loads of one key', async () => {
    const cache = new BoundedCache<string>({ maxEntries: 10, minTtlSeconds: 30, maxTtlSeconds: 60 })
    let loads = 0
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const load = async () => {
      loads++
      await gate
      return { value: 'doc', freshSeconds: 60 }
    }
    const all = Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)])
    release()
    expect(await all).toEqual(['doc', 'doc', 'doc'])
    expect(loads).toBe(1)
  })

  it('coalesces concurrent failures too, then tries again', async () => {
    const cache = new BoundedCache<string>({ maxEntries: 10, minTtlSeconds: 30, maxTtlSeconds: 60 })
    let loads = 0
    const failing = async () => {
      loads++
      throw new Error('nope')
    }
    const results = await Promise.allSettled([cache.get('k', failing), cache.get('k', failing)])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(loads).toBe(1)
    await cache.get('k', failing).catch(() => {})
    expect(loads).toBe(2)
  })

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = new BoundedCache<string>({ maxEntries: 2, minTtlSeconds: 30, maxTtlSeconds: 60 })
    const load = (v: string) => async () => ({ value: v, freshSeconds: 60 })
    await cache.get('a', load('a1'))
    await cache.get('b', load('b1'))
    await cache.get('a', load('a2')) // a is now the most recently used
    await cache.get('c', load('c1'))
    expect(cache.size).toBe(2)
    expect(await cache.get('a', load('a3'))).toBe('a1')
    expect(await cache.get('b', load('b2'))).toBe('b2')
  })
})

describe('freshnessSeconds', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  const cases: [string | null, string | null, number | null][] = [
    ['max-age=300', null, 300],
    ['public, max-age=300, s-maxage=60', null, 60],
    ['no-store', null, null],
    ['no-cache, max-age=300', null, 0],
    ['max-age=abc', null, 0],
    [null, 'Thu, 01 Jan 2026 00:10:00 GMT', 600],
    [null, 'garbage', 0],
    [null, null, 0],
  ]
  for (const [cc, expires, expected] of cases) {
    it(`${cc ?? '-'} / ${expires ?? '-'} -> ${expected}`, () => expect(freshnessSeconds(cc, expires, now)).toBe(expected))
  }
})
