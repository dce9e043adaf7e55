// Fixed-window rate limits, counted in the database so every app instance shares them.
// Windows are aligned to the clock (key@window-number), so one hit is one upsert statement: no
// read-then-write transaction on the request path.
import { db } from '@/lib/db'
import { setting } from '@/lib/config'

export type Limit = { allowed: boolean; retryAfterSeconds: number; remaining: number }

/** Share of hits that also sweep expired windows, so the table stays small without a cron job. */
const SWEEP_PROBABILITY = 0.01

/** Counts one request against `max` per window; `now` is for tests that move the clock. */
export async function hit(key: string, max: number, windowSeconds: number, now = Date.now()): Promise<Limit> {
  const windowMs = windowSeconds * 1000
  const window = Math.floor(now / windowMs)
  const windowKey = `${key}@${window}`
  const row = await db.rateLimit.upsert({
    where: { key: windowKey },
    create: { key: windowKey, count: 1, windowStart: new Date(window * windowMs) },
    update: { count: { increment: 1 } },
  })
  if (Math.random() < SWEEP_PROBABILITY) {
    void db.rateLimit.deleteMany({ where: { windowStart: { lt: new Date(now - 2 * windowMs) } } }).catch(() => {})
  }
  const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000))
  return { allowed: row.count <= max, retryAfterSeconds, remaining: Math.max(0, max - row.count) }
}

/** A counter's state without counting a request: for limits that only failures count. */
export async function peek(key: string, max: number, windowSeconds: number, now = Date.now()): Promise<Limit> {
  const windowMs = windowSeconds * 1000
  const window = Math.floor(now / windowMs)
  const row = await db.rateLimit.findUnique({ where: { key: `${key}@${window}` } })
  const count = row?.count ?? 0
  const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000))
  return { allowed: count < max, retryAfterSeconds, remaining: Math.max(0, max - count) }
}

export async function resetLimit(key: string): Promise<void> {
  await db.rateLimit.deleteMany({ where: { key: { startsWith: `${key}@` } } })
}

/**
 * The client's address, for per-address limits and audit records. X-Forwarded-For ends with the
 * TCP peer's address (scripts/serve.mjs appends it; Next itself puts it there when a request has no
 * such header), and each trusted reverse proxy in front appended the address it saw before that.
 * So with TRUST_PROXY_HOPS=N proxies the client is N entries back from the end; everything earlier
 * is whatever the client wrote. With no proxy (the default) only the peer itself counts.
 */
export function clientIp(headers: Headers): string {
  const chain = (headers.get('x-forwarded-for') ?? '').split(',').map((entry) => entry.trim()).filter(Boolean)
  if (chain.length === 0) return 'unknown'
  // Fewer entries than hops: the request did not come through the proxies; only the peer is known.
  const address = chain.at(-1 - setting('TRUST_PROXY_HOPS')) ?? chain.at(-1)!
  return address.slice(0, 64)
}
