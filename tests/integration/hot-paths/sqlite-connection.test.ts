// SQLite: interactive transactions run on the client's one connection (lib/db), which must keep
// its tuning, roll back what a failed transaction wrote, and serialize concurrent transactions.
import { describe, expect, it } from 'vitest'
import { databaseUrl, db } from '@/lib/db'

describe.runIf(databaseUrl().startsWith('file:'))('SQLite connections', () => {
  it('keep synchronous=NORMAL and a busy timeout after interactive transactions', async () => {
    for (let i = 0; i < 3; i++) {
      await db.$transaction(async (tx) => tx.rateLimit.count())
      const [sync] = await db.$queryRawUnsafe<{ synchronous: number | bigint }[]>('PRAGMA synchronous')
      const [busy] = await db.$queryRawUnsafe<{ timeout: number | bigint }[]>('PRAGMA busy_timeout')
      expect([Number(sync!.synchronous), Number(busy!.timeout)]).toEqual([1, 5000])
    }
  })

  it('rolls back a failed transaction, commits the others, and runs concurrent ones one after another', async () => {
    const key = `tx-test-${Date.now()}`
    await expect(
      db.$transaction(async (tx) => {
        await tx.rateLimit.create({ data: { key: `${key}-failed`, count: 1, windowStart: new Date() } })
        throw new Error('abort')
      }),
    ).rejects.toThrow('abort')
    expect(await db.rateLimit.findUnique({ where: { key: `${key}-failed` } })).toBeNull()
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.$transaction(async (tx) => {
          const row = await tx.rateLimit.create({ data: { key: `${key}-${i}`, count: 0, windowStart: new Date() } })
          await tx.rateLimit.update({ where: { key: row.key }, data: { count: { increment: i } } })
        }),
      ),
    )
    const rows = await db.rateLimit.findMany({ where: { key: { startsWith: `${key}-` } } })
    expect(rows.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i))
  })
})
