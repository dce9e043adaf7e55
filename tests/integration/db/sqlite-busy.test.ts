// SQLite writers wait for each other instead of failing. The soak (bench/soak) found that only the
// first libSQL connection had a busy timeout (a PRAGMA run once): @libsql/client hands that
// connection to the first transaction and opens fresh ones with a busy timeout of 0, so a write that
// met another process's write lock (a second instance, a migration, a backup) failed at once with
// SQLITE_BUSY: Prisma P1008, answered 500 or 503.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { databaseUrl, db } from '@/lib/db'

const sqlite = databaseUrl().startsWith('file:')
const key = (name: string) => `sqlite-busy-test:${name}:${Date.now()}`

/** Another process takes the write lock, says so, and commits after `holdMs`. */
async function lockFromAnotherProcess(holdMs: number) {
  const script = `
    const { createClient } = require('@libsql/client')
    const client = createClient({ url: process.argv[1] })
    client.execute('BEGIN IMMEDIATE').then(() => {
      process.stdout.write('locked\\n')
      setTimeout(() => client.execute('COMMIT').then(() => process.exit(0)), ${holdMs})
    })`
  const child = spawn(process.execPath, ['-e', script, databaseUrl()], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = once(child, 'exit')
  await once(child.stdout!, 'data')
  return { released: exited } // wrapped: returning the promise itself would make the caller wait for it
}

describe.skipIf(!sqlite)('SQLite busy timeout', () => {
  it('a write waits while another process holds the write lock for a moment', async () => {
    await db.rateLimit.count()
    await new Promise((r) => setTimeout(r, 300)) // lib/db's connection settings have run on the first connection
    await db.$transaction(async (tx) => tx.rateLimit.count()) // which a transaction takes away, as any request might
    const first = await lockFromAnotherProcess(500)
    await expect(db.rateLimit.create({ data: { key: key('plain'), count: 1, windowStart: new Date() } })).resolves.toBeTruthy()
    await first.released
    // A transaction's connection waits too.
    const second = await lockFromAnotherProcess(500)
    await expect(db.$transaction(async (tx) => tx.rateLimit.create({ data: { key: key('tx'), count: 1, windowStart: new Date() } }))).resolves.toBeTruthy()
    await second.released
  })
})
