import type { RateLimitSettings } from './settings'

export type RateLimitDecision = { allowed: boolean; retryAfterSeconds: number }

/** Above this many keys, buckets that have refilled completely are forgotten. */
const MAX_TRACKED_KEYS = 10_000

/**
 * In-memory token buckets: each key holds up to `burst` requests and regains
 * `requestsPerMinute` per minute. Per process, so several instances each allow the full rate.
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>()

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): RateLimitDecision {
    const { requestsPerMinute } = this.settings
    if (requestsPerMinute <= 0) return { allowed: true, retryAfterSeconds: 0 }
    const capacity = Math.max(1, this.settings.burst)
    const perMillisecond = requestsPerMinute / 60_000
    const now = this.now()
    const bucket = this.buckets.get(key) ?? { tokens: capacity, updatedAt: now }
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.updatedAt) * perMillisecond)
    bucket.updatedAt = now
    if (!this.buckets.has(key)) {
      if (this.buckets.size >= MAX_TRACKED_KEYS) this.forgetFullBuckets(capacity, perMillisecond, now)
      this.buckets.set(key, bucket)
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { allowed: true, retryAfterSeconds: 0 }
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMillisecond / 1000)) }
  }

  private forgetFullBuckets(capacity: number, perMillisecond: number, now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * perMillisecond >= capacity) this.buckets.delete(key)
    }
  }
}
