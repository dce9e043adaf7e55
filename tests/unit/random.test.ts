// lib/random: pooled random bytes must be fresh for every caller and never change once handed out.
import { describe, expect, it } from 'vitest'
import { randomBytesPooled } from '@/lib/random'

describe('randomBytesPooled', () => {
  it('hands out the requested number of bytes, never the same bytes twice', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 2000; i++) {
      const bytes = randomBytesPooled(16)
      expect(bytes).toHaveLength(16)
      seen.add(bytes.toString('hex'))
    }
    expect(seen.size).toBe(2000)
  })

  it('leaves bytes already handed out unchanged when the pool is refilled', () => {
    const kept = randomBytesPooled(32)
    const copy = Buffer.from(kept)
    for (let i = 0; i < 10; i++) randomBytesPooled(1000) // several refills
    expect(kept.equals(copy)).toBe(true)
  })

  it('serves requests larger than the pool from their own buffer', () => {
    const large = randomBytesPooled(10_000)
    expect(large).toHaveLength(10_000)
    // Not all zeros (the odds of a CSPRNG producing 10,000 zero bytes are nil).
    expect(large.some((byte) => byte !== 0)).toBe(true)
  })
})
