// SQLite: interactive transactions run on the client's one connection (lib/db), which must keep
// its tuning, roll back what a failed transaction wrote, and serialize concurrent transactions; and
// a connection that met another process's lock must not be left holding a transaction open.
import { spawn, execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { databaseUrl, db } from '@/lib/db'

const file = () => path.resolve(databaseUrl().slice('file:'.length))

/** Another process that takes SQLite's write lock and keeps it until `release()`. */
async function holdWriteLock() {
  const script = `
    const db = new (require('libsql'))(process.argv[1])
    db.exec('BEGIN IMMEDIATE')
    process.stdout.write('locked')
    process.stdin.on('data', () => { db.exec('COMMIT'); process.exit(0) })`
  const child = spawn(process.execPath, ['-e', script, file()], { stdio: ['pipe', 'pipe', 'inherit'] })
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve())
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)))
  })
  return {
    release: async () => {
      child.stdin.write('go')
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

/** Runs SQL in another process (its own connection, no busy timeout); returns the rows of the last statement as JSON. */
function elsewhere(...statements: string[]): unknown {
  const script = `
    const db = new (require('libsql'))(process.argv[1])
    let rows = null
    for (const sql of JSON.parse(process.argv[2])) { const st = db.prepare(sql); try { st.raw(true); rows = st.all() } catch (e) { if (e.code) throw e; st.run() } }
    process.stdout.write(JSON.stringify(rows))`
  return JSON.parse(execFileSync(process.execPath, ['-e', script, file(), JSON.stringify(statements)], { encoding: 'utf8' }))
}

describe.runIf(databaseUrl().startsWith('file:'))('SQLite connections', () => {
  it('keep synchronous=NORMAL, a busy timeout and the checkpoint size after interactive transactions', async () => {
    for (let i = 0; i < 3; i++) {
      await db.$transaction(async (tx) => tx.rateLimit.count())
      const [sync] = await db.$queryRawUnsafe<{ synchronous: number | bigint }[]>('PRAGMA synchronous')
      const [busy] = await db.$queryRawUnsafe<{ timeout: number | bigint }[]>('PRAGMA busy_timeout')
      const [checkpoint] = await db.$queryRawUnsafe<{ wal_autocheckpoint: number | bigint }[]>('PRAGMA wal_autocheckpoint')
      expect([Number(sync!.synchronous), Number(busy!.timeout), Number(checkpoint!.wal_autocheckpoint)]).toEqual([1, 5000, 10_000])
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

  it('recovers from another process holding the write lock: later writes commit at once and hold no lock', async () => {
    const key = `busy-test-${Date.now()}`
    const create = (suffix: string) => db.rateLimit.create({ data: { key: `${key}-${suffix}`, count: 1, windowStart: new Date() } })
    for (const via of ['statement', 'transaction'] as const) {
      // Wait 0.2 s for the lock instead of 5 (the connection that replaces a failed one waits 5 s again).
      await db.$executeRawUnsafe('PRAGMA busy_timeout=200')
      const holder = await holdWriteLock()
      const failed = via === 'statement' ? create(`${via}-refused`) : db.$transaction(async (tx) => tx.rateLimit.create({ data: { key: `${key}-${via}-refused`, count: 1, windowStart: new Date() } }))
      await expect(failed).rejects.toMatchObject({ code: 'P1008' })
      await holder.release()
      // A read, then another process writes: the next write must not find a stale snapshot...
      await db.rateLimit.count()
      elsewhere(`INSERT INTO RateLimit (key, count, windowStart) VALUES ('${key}-${via}-other', 1, 0)`)
      await create(`${via}-after`)
      await db.$transaction(async (tx) => tx.rateLimit.update({ where: { key: `${key}-${via}-after` }, data: { count: 2 } }))
      // ...and what it wrote is committed (another process sees it) and leaves the write lock free.
      expect(elsewhere(`SELECT count FROM RateLimit WHERE key = '${key}-${via}-after'`)).toEqual([[2]])
      expect(elsewhere('BEGIN IMMEDIATE', 'ROLLBACK')).toBeNull()
    }
    const [busy] = await db.$queryRawUnsafe<{ timeout: number | bigint }[]>('PRAGMA busy_timeout')
    expect(Number(busy!.timeout)).toBe(5000)
  })
})

