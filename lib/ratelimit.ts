// Fixed-window rate limits, counted in the database so every app instance shares them.
import { db } from '@/lib/db'

export type Limit = { allowed: boolean; retryAfterSeconds: number; remaining: number }

export async function hit(key: string, max: number, windowSeconds: number): Promise<Limit> {
  const now = new Date()
  const windowMs = windowSeconds * 1000
  return db.$transaction(async (tx) => {
    const row = await tx.rateLimit.findUnique({ where: { key } })
    if (!row || now.getTime() - row.windowStart.getTime() >= windowMs) {
      await tx.rateLimit.upsert({ where: { key }, create: { key, count: 1, windowStart: now }, update: { count: 1, windowStart: now } })
      return { allowed: true, retryAfterSeconds: 0, remaining: max - 1 }
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((row.windowStart.getTime() + windowMs - now.getTime()) / 1000))
    if (row.count >= max) return { allowed: false, retryAfterSeconds, remaining: 0 }
    await tx.rateLimit.update({ where: { key }, data: { count: { increment: 1 } } })
    return { allowed: true, retryAfterSeconds, remaining: max - row.count - 1 }
  })
}

export async function resetLimit(key: string): Promise<void> {
  await db.rateLimit.deleteMany({ where: { key } })
}

/** The client address as the nearest proxy reports it (set TRUST_PROXY=0 to ignore the header). */
export function clientIp(headers: Headers): string {
  if (process.env.TRUST_PROXY !== '0') {
    const forwarded = headers.get('x-forwarded-for')
    if (forwarded) return forwarded.split(',')[0]!.trim().slice(0, 64)
  }
  return headers.get('x-real-ip')?.slice(0, 64) ?? 'unknown'
}
