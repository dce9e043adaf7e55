// The SQLite tuning must hold on every connection @libsql/client opens, including the ones that
// replace a connection handed to an interactive transaction.
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
})
