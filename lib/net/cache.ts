// A small in-process cache for fetched documents: bounded in entries, each kept as long as the
// server's Cache-Control / Expires says, clamped to [min, max] seconds. Failures are never
// stored (the loader throws, nothing is kept), and concurrent requests for one key share a
// single load, so a burst of authorization requests fetches a document once.

export type Cacheable<T> = {
  value: T
  /** Seconds the server allows it to be reused; null when the server forbids storing it (no-store). */
  freshSeconds: number | null
}

export type CacheBounds = { maxEntries: number; minTtlSeconds: number; maxTtlSeconds: number }

type Entry<T> = { value: T; expiresAt: number; ttlMs: number }

export class BoundedCache<T> {
  private readonly entries = new Map<string, Entry<T>>()
  private readonly loading = new Map<string, Promise<T>>()

  constructor(
    private readonly bounds: CacheBounds,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached value for key, or the result of load() (shared by every concurrent caller). */
  get(key: string, load: () => Promise<Cacheable<T>>): Promise<T> {
    const entry = this.entries.get(key)
    if (entry && entry.expiresAt > this.now()) {
      // Re-insert so that Map order is least recently used first.
      this.entries.delete(key)
      this.entries.set(key, entry)
      return Promise.resolve(entry.value)
    }
    if (entry) this.entries.delete(key)
    const pending = this.loading.get(key)
    if (pending) return pending
    const started = load()
      .then((loaded) => {
        if (loaded.freshSeconds !== null) this.store(key, loaded.value, loaded.freshSeconds)
        return loaded.value
      })
      .finally(() => this.loading.delete(key))
    this.loading.set(key, started)
    return started
  }

  /** Forgets a key, e.g. a JWKS that lacks the key a fresh token names. */
  delete(key: string): void {
    this.entries.delete(key)
  }

  /** Age in milliseconds of the stored value for key, or null when nothing is stored. */
  ageOf(key: string): number | null {
    const entry = this.entries.get(key)
    if (!entry) return null
    return this.now() - (entry.expiresAt - entry.ttlMs)
  }

  get size(): number {
    return this.entries.size
  }

  private store(key: string, value: T, freshSeconds: number) {
    const { minTtlSeconds, maxTtlSeconds, maxEntries } = this.bounds
    const ttlMs = Math.min(maxTtlSeconds, Math.max(minTtlSeconds, freshSeconds)) * 1000
    this.entries.delete(key)
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs, ttlMs })
    while (this.entries.size > maxEntries) this.entries.delete(this.entries.keys().next().value!)
  }
}

/**
 * How long a response may be reused per RFC 9111: max-age (or s-maxage) wins, else Expires
 * relative to now; no-store means not at all (null); no-cache or nothing at all means 0, which
 * the cache raises to its minimum.
 */
export function freshnessSeconds(cacheControl: string | null, expires: string | null, now = Date.now()): number | null {
  const directives = new Map<string, string>()
  for (const part of (cacheControl ?? '').split(',')) {
    const [name, value] = part.trim().toLowerCase().split('=', 2)
    if (name) directives.set(name, (value ?? '').replace(/^"|"$/g, ''))
  }
  if (directives.has('no-store')) return null
  if (directives.has('no-cache')) return 0
  for (const name of ['s-maxage', 'max-age']) {
    const value = directives.get(name)
    if (value !== undefined && /^\d+$/.test(value)) return Number(value)
  }
  if (expires) {
    const at = Date.parse(expires)
    return Number.isNaN(at) ? 0 : Math.max(0, Math.floor((at - now) / 1000))
  }
  return 0
}
