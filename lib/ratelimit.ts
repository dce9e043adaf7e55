// Fixed-window rate limits, counted in the database so every app instance shares them.
// Windows are aligned to the clock (key@window-number), so one hit is one upsert statement: no
// read-then-write transaction on the request path.
//
// Two ways to count. hit is exact: every request is one statement (sign-in lockout, device code
// guessing). A SlicedLimiter serves high-rate budgets (the token endpoint, the moderation API):
// it reserves a slice of a window's budget with one statement and spends it in memory, so most
// requests touch no database, and no instance can ever spend more than the shared budget.
import { isIPv6 } from 'node:net'
import { processState } from '@/lib/config/process-state'
import { db, type Db } from '@/lib/db'
import { setting } from '@/lib/config'

export type Limit = { allowed: boolean; retryAfterSeconds: number; remaining: number }

/** Share of hits that also sweep expired windows, so the table stays small without a cron job. */
const SWEEP_PROBABILITY = 0.01
/**
 * The longest window a limit may use. Rows do not record their window's length, so a sweep may
 * only delete rows that started longer ago than this: sweeping by the sweeping limit's own window
 * deleted the live 15-minute sign-in and device-code counters whenever a 1-minute limit swept.
 */
const LONGEST_WINDOW_SECONDS = 3600

function windowMsOf(windowSeconds: number): number {
  if (!(windowSeconds > 0 && windowSeconds <= LONGEST_WINDOW_SECONDS)) throw new Error(`rate-limit windows are 1 s to ${LONGEST_WINDOW_SECONDS} s`)
  return windowSeconds * 1000
}

/** Deletes the counters of windows that have surely ended, whatever their length. */
export async function sweepEndedWindows(now = Date.now(), store: Db = db): Promise<void> {
  await store.rateLimit.deleteMany({ where: { windowStart: { lt: new Date(now - 2 * LONGEST_WINDOW_SECONDS * 1000) } } })
}

function maybeSweep(now: number, store: Db) {
  if (Math.random() < SWEEP_PROBABILITY) void sweepEndedWindows(now, store).catch(() => {})
}

/** Counts one request against `max` per window; `now` is for tests that move the clock. */
export async function hit(key: string, max: number, windowSeconds: number, now = Date.now()): Promise<Limit> {
  const windowMs = windowMsOf(windowSeconds)
  const window = Math.floor(now / windowMs)
  const windowKey = `${key}@${window}`
  const row = await db.rateLimit.upsert({
    where: { key: windowKey },
    create: { key: windowKey, count: 1, windowStart: new Date(window * windowMs) },
    update: { count: { increment: 1 } },
  })
  maybeSweep(now, db)
  const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000))
  return { allowed: row.count <= max, retryAfterSeconds, remaining: Math.max(0, max - row.count) }
}

/**
 * Gives back one hit of the window `now` fell in, for a limit that counts only failures but must
 * count every attempt while it is under way (a burst of attempts cannot pass before the first fails).
 */
export async function refund(key: string, windowSeconds: number, now: number): Promise<void> {
  const windowMs = windowMsOf(windowSeconds)
  await db.rateLimit.updateMany({ where: { key: `${key}@${Math.floor(now / windowMs)}`, count: { gt: 0 } }, data: { count: { decrement: 1 } } })
}

/** An instance reserves at most this share of a budget at once, and never more than SLICE_MAX. */
const SLICE_SHARE = 20
const SLICE_MAX = 64
/** A peek answers from memory for this long before it re-reads the shared count. */
export const PEEK_FRESH_MS = 1000

/** Requests one reservation takes from the shared count: 1 (exact) for budgets below 40. */
export function sliceSize(max: number): number {
  return Math.max(1, Math.min(SLICE_MAX, Math.floor(max / SLICE_SHARE)))
}

/**
 * What a weighted hit (a cost of many units, such as characters of text) reserves at least: a
 * SLICE_SHARE-th of the budget, so that most hits of a few hundred units touch no database.
 */
export function weightedSliceSize(max: number): number {
  return Math.max(1, Math.floor(max / SLICE_SHARE))
}

type Window = {
  /** Reserved by this instance and not spent yet. */
  left: number
  /** The shared count (all instances' reservations) when this instance last read it. */
  shared: number
  readAt: number
  endsAt: number
  reserving: Promise<void> | null
}

export type SlicedLimiter = {
  hit(key: string, max: number, windowSeconds: number, now?: number): Promise<Limit>
  /**
   * Spends `cost` units of a budget of `max` units per window (characters of text): refused when
   * the window's budget no longer holds them all, and then nothing is spent.
   */
  hitWeighted(key: string, max: number, windowSeconds: number, cost: number, now?: number): Promise<Limit>
  peek(key: string, max: number, windowSeconds: number, now?: number): Promise<Limit>
}

/**
 * Budgets counted in slices. A hit spends one request of this instance's current slice; when
 * none is left it reserves the next slice with one upsert (count += slice) and keeps what the
 * shared count still allows. Spent plus reserved never exceeds the budget across all instances, so
 * there is no overshoot; what a slice costs is that requests reserved by one instance and not spent
 * by the window's end are lost to the others: a client spread over N instances may be refused up
 * to N x (slice - 1) requests before its budget (none below a budget of 40, where a slice is 1).
 * Once the shared count is spent, the instance refuses the rest of the window from memory.
 * A weighted hit reserves what it lacks of its cost, and at least a weighted slice (a twentieth
 * of the budget), with the same bound: what one instance reserved and did not spend by the
 * window's end is lost to the others.
 */
export function createSlicedLimiter(store: Db = db): SlicedLimiter {
  const windows = new Map<string, Window>()
  let prunedAt = 0

  function prune(now: number) {
    if (now - prunedAt < 60_000) return
    prunedAt = now
    for (const [key, window] of windows) if (window.endsAt <= now && !window.reserving) windows.delete(key)
  }

  function windowOf(key: string, windowSeconds: number, now: number) {
    const windowMs = windowMsOf(windowSeconds)
    const number = Math.floor(now / windowMs)
    const windowKey = `${key}@${number}`
    let window = windows.get(windowKey)
    if (!window) windows.set(windowKey, (window = { left: 0, shared: 0, readAt: 0, endsAt: (number + 1) * windowMs, reserving: null }))
    return { window, windowKey, start: new Date(number * windowMs), retryAfterSeconds: Math.max(1, Math.ceil(((number + 1) * windowMs - now) / 1000)) }
  }

  async function reserve(window: Window, windowKey: string, start: Date, max: number, size: number) {
    const row = await store.rateLimit.upsert({
      where: { key: windowKey },
      create: { key: windowKey, count: size, windowStart: start },
      update: { count: { increment: size } },
    })
    // What the budget still allowed before this reservation, up to the slice.
    window.left += Math.max(0, Math.min(size, max - (row.count - size)))
    window.shared = row.count
    window.readAt = Date.now()
    maybeSweep(start.getTime(), store)
  }

  /**
   * Spends `cost` units from this instance's reservation for the window. When it holds too few, one
   * more reservation of what the cost lacks, and at least `slice`, is made (one at a time per
   * window; the hits that waited for it spend it); a hit that what is left of the shared budget
   * cannot cover is refused whole, and the units reserved stay for smaller hits.
   */
  async function spend(key: string, max: number, windowSeconds: number, now: number, cost: number, slice: number): Promise<Limit> {
    prune(Date.now())
    const { window, windowKey, start, retryAfterSeconds } = windowOf(key, windowSeconds, now)
    for (;;) {
      if (window.left >= cost) {
        window.left -= cost
        return { allowed: true, retryAfterSeconds, remaining: Math.max(0, max - window.shared) + window.left }
      }
      if (window.shared >= max || cost - window.left > max - window.shared) return { allowed: false, retryAfterSeconds, remaining: Math.max(0, max - window.shared) + window.left }
      if (!window.reserving) window.reserving = reserve(window, windowKey, start, max, Math.max(cost - window.left, slice)).finally(() => (window.reserving = null))
      await window.reserving
    }
  }

  return {
    hit: (key, max, windowSeconds, now = Date.now()) => spend(key, max, windowSeconds, now, 1, sliceSize(max)),

    async hitWeighted(key, max, windowSeconds, cost, now = Date.now()) {
      if (!(Number.isInteger(cost) && cost >= 0)) throw new Error('a weighted hit costs a whole number of units')
      return spend(key, max, windowSeconds, now, cost, weightedSliceSize(max))
    },

    /** Whether the budget still has room, from memory when read within PEEK_FRESH_MS (this instance's own hits are always in it). */
    async peek(key, max, windowSeconds, now = Date.now()) {
      const { window, windowKey, retryAfterSeconds } = windowOf(key, windowSeconds, now)
      if (window.reserving) await window.reserving
      if (window.shared < max && Date.now() - window.readAt >= PEEK_FRESH_MS) {
        const row = await store.rateLimit.findUnique({ where: { key: windowKey } })
        window.shared = Math.max(window.shared, row?.count ?? 0)
        window.readAt = Date.now()
      }
      const used = window.shared - window.left
      return { allowed: used < max, retryAfterSeconds, remaining: Math.max(0, max - used) }
    },
  }
}

/** This process's sliced limiter over the shared database: one per process, whichever module copy asks (lib/config/process-state). */
export const sliced = processState('slicedLimiter', () => createSlicedLimiter())

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
  const header = headers.get('x-forwarded-for')
  if (!header) return 'unknown'
  // Empty entries are kept: an empty last one is a peer nobody knew (scripts/serve.mjs), never a
  // reason to count the entry the client wrote before it.
  const chain = header.split(',').map((entry) => entry.trim())
  // Fewer entries than hops: the request did not come through the proxies; only the peer is known.
  const address = chain.at(-1 - setting('TRUST_PROXY_HOPS')) ?? chain.at(-1)!
  return address.slice(0, 64) || 'unknown'
}

/**
 * What a per-address budget counts for an address: an IPv4 address itself, an IPv6 address its /64
 * (the network one subscriber is given: 2^64 addresses to spread guesses over, one budget each,
 * if every address counted alone). An IPv4 client seen through a dual-stack socket or proxy
 * ("::ffff:1.2.3.4") is that IPv4 address: its /64 is every IPv4 client at once. Audit records keep
 * the whole address (clientIp).
 */
export function addressKey(ip: string): string {
  if (!isIPv6(ip)) return ip
  const [left, right] = ip.toLowerCase().split('%')[0]!.split('::') as [string, string?]
  // An embedded IPv4 address ("::ffff:1.2.3.4") is the last two groups.
  const groups = (part?: string) =>
    part
      ? part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)]
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number]
          return [a * 256 + b, c * 256 + d]
        })
      : []
  const head = groups(left)
  const tail = groups(right)
  const all = [...head, ...Array<number>(Math.max(0, 8 - head.length - tail.length)).fill(0), ...tail]
  if (all.slice(0, 5).every((group) => group === 0) && all[5] === 0xffff) {
    return [all[6]! >> 8, all[6]! & 255, all[7]! >> 8, all[7]! & 255].join('.')
  }
  return `${all.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`
}
