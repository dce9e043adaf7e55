// The Prisma client for whichever database DATABASE_URL names: SQLite (file:..., the embedded
// default) or PostgreSQL. Both clients are generated from the same schema (scripts/db.ts), so they
// share one type; the SQLite client's type stands for both.
import { processState } from '@/lib/config/process-state'
import path from 'node:path'
import { setting } from '@/lib/config/settings'
import { PrismaClient as SqliteClient } from '@/lib/generated/sqlite/client'
import { PrismaClient as PostgresClient } from '@/lib/generated/postgresql/client'
import { PrismaLibSql } from '@prisma/adapter-libsql'
import type { Client as LibSqlClient, Config as LibSqlConfig, InArgs, InStatement, Transaction } from '@libsql/client'
import { PrismaPg } from '@prisma/adapter-pg'
import { cachedSqliteClient, isConstraintViolation, type ExclusiveSqlite } from '@/lib/db/sqlite-client'
import { preparedStatementName, sharedAdapterFactory } from '@/lib/db/statements'

export type Db = InstanceType<typeof SqliteClient>
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0]

export function databaseUrl(): string {
  return setting('DATABASE_URL')
}

function connect(): Db {
  const url = databaseUrl()
  if (url.startsWith('file:')) {
    // Resolve relative to the project, not to whichever folder a worker process runs in.
    const file = url.slice('file:'.length)
    const absolute = path.isAbsolute(file) ? file : path.resolve(/*turbopackIgnore: true*/ process.cwd(), file)
    const client: Db = new SqliteClient({ adapter: sharedAdapterFactory(new TunedLibSql({ url: `file:${absolute}` }), () => client.$connect()) })
    void client.$queryRawUnsafe('PRAGMA journal_mode=WAL').catch((error) => console.error('could not switch SQLite to WAL', error))
    return client
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const options = setting('DATABASE_PREPARED_STATEMENTS') ? { statementNameGenerator: preparedStatementName } : undefined
    const client: Db = new PostgresClient({ adapter: sharedAdapterFactory(new PrismaPg({ connectionString: url, max: setting('DATABASE_POOL_SIZE') }, options), () => client.$connect()) }) as unknown as Db
    return client
  }
  throw new Error('DATABASE_URL must be file:... (SQLite) or postgresql://...')
}

/** What a WAL file is cut back to after a checkpoint emptied it. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024

/**
 * WAL (set once; it stays in the file) lets readers run beside the writer and several processes
 * share the file; synchronous=NORMAL syncs at checkpoints instead of at every commit (still
 * crash-safe in WAL mode), which was ~95% of a token request's time; busy_timeout waits for another
 * process's writer instead of failing at once. These are settings of the connection, as is the
 * checkpoint size: a checkpoint runs inside the commit that takes the WAL past
 * SQLITE_WAL_CHECKPOINT_PAGES. At SQLite's default of 1,000 pages, 1% of a token exchange's commits
 * (the checkpoints, each with two syncs) took 53% of all commit time; at 10,000 each often-written
 * page (a table's or an index's newest) is copied once for many commits, and the mean commit took
 * 130 instead of 305 µs (bench/oauth/RESULTS.md). journal_size_limit gives the disk back after.
 *
 * @libsql/client hands its connection to each interactive transaction and opens a new one for what
 * follows: every transaction paid for opening the file, re-preparing every statement, and lost the
 * settings above (commits flushed to disk again, writers failed at once on a busy file). The Prisma
 * adapter holds its lock from BEGIN to COMMIT/ROLLBACK, so no other statement can use the
 * connection meanwhile, and the transaction can run on the one connection the client keeps.
 *
 * Two things the soak found when another process writes the same file (bench/soak/RESULTS.md):
 *
 * - A statement that fails with SQLITE_BUSY is left unfinished by libSQL (it is only reset when the
 *   garbage collector finalizes it), and SQLite keeps a connection's implicit transaction open while
 *   any statement is unfinished. So the connection's next read pinned its snapshot until some later
 *   GC: every write of it then failed with SQLITE_BUSY_SNAPSHOT as soon as another process wrote,
 *   and a write that did succeed stayed uncommitted in that open transaction, holding the write lock
 *   (every other process waited, then failed) and lost on kill -9 although its client had been
 *   answered. After any error but a constraint violation (which leaves nothing unfinished) the
 *   connection is therefore replaced by a fresh one, outside a transaction at once, inside one once
 *   it has rolled back. A failed COMMIT is rolled back too, so no connection outlives its
 *   transaction (tests/integration/hot-paths/sqlite-connection.test.ts).
 * - Prisma opens DEFERRED transactions, whose first write fails at once with SQLITE_BUSY_SNAPSHOT
 *   (no busy timeout helps) whenever another process committed after the transaction's first read.
 *   Every transaction here writes, so it begins IMMEDIATE: it waits for the write lock (busy
 *   timeout) before its first read, and nothing inside it can meet a lock afterwards.
 *
 * `exclusive` (lib/db/statements' direct path) runs synchronous work on the connection between
 * two interactive transactions: a transaction is marked open before its BEGIN runs, and work that
 * finds one open waits for its end, so it never lands inside another's transaction.
 */
class TunedLibSql extends PrismaLibSql {
  override createClient(config: LibSqlConfig): LibSqlClient {
    // Always file:<absolute path> (connect above).
    const client = cachedSqliteClient(config.url.slice('file:'.length))
    const tune = () =>
      client.executeMultiple(
        `PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000; PRAGMA wal_autocheckpoint=${setting('SQLITE_WAL_CHECKPOINT_PAGES')}; PRAGMA journal_size_limit=${WAL_SIZE_LIMIT_BYTES}`,
      )
    void tune().catch((error) => console.error('could not tune SQLite', error))
    let inTransaction = false
    let replaceAfterTransaction = false
    /** Work of `exclusive` waiting for the open transaction to end. */
    const waiting: (() => void)[] = []
    /** A fresh, tuned connection in place of one that may hold an unfinished statement; a failure is logged. */
    const replaceConnection = async () => {
      try {
        await client.reconnect()
        await tune()
      } catch (error) {
        console.error('could not reopen SQLite', error)
      }
    }
    const execute = client.execute.bind(client)
    client.execute = (async (statement: InStatement | string, args?: InArgs) => {
      try {
        return await execute(typeof statement === 'string' ? { sql: statement, args: args ?? [] } : statement)
      } catch (error) {
        if (!isConstraintViolation(error)) {
          if (inTransaction) replaceAfterTransaction = true
          else await replaceConnection()
        }
        throw error
      }
    }) as LibSqlClient['execute']
    // Marked before BEGIN runs (it runs at once, synchronously): from then on `exclusive` waits.
    client.transaction = async () => {
      inTransaction = true
      try {
        await client.execute('BEGIN IMMEDIATE')
      } catch (error) {
        // No transaction began: the connection is replaced now if the failure calls for it.
        await replaceIfAsked()
        transactionEnded()
        throw error
      }
      let open = true
      const end = async (sql: 'COMMIT' | 'ROLLBACK') => {
        if (!open) return
        open = false
        try {
          await client.execute(sql)
        } catch (error) {
          // A COMMIT that failed leaves the transaction open (SQLite): end it here, never later.
          if (sql === 'COMMIT') await client.execute('ROLLBACK').catch(() => {})
          replaceAfterTransaction = true
          throw error
        } finally {
          await replaceIfAsked()
          transactionEnded()
        }
      }
      const transaction: Pick<Transaction, 'execute' | 'batch' | 'executeMultiple' | 'commit' | 'rollback' | 'close' | 'closed'> = {
        execute: (statement: InStatement | string, args?: InArgs) => client.execute(typeof statement === 'string' ? { sql: statement, args: args ?? [] } : statement),
        batch: async (statements) => {
          const results = []
          for (const statement of statements) results.push(await client.execute(Array.isArray(statement) ? { sql: statement[0], args: statement[1] ?? [] } : statement))
          return results
        },
        executeMultiple: (sql) => client.executeMultiple(sql),
        commit: () => end('COMMIT'),
        rollback: () => end('ROLLBACK'),
        close: () => void end('ROLLBACK').catch(() => {}),
        get closed() {
          return !open
        },
      }
      return transaction as Transaction
    }
    const replaceIfAsked = async () => {
      if (!replaceAfterTransaction) return
      replaceAfterTransaction = false
      await replaceConnection()
    }
    const transactionEnded = () => {
      inTransaction = false
      for (const wake of waiting.splice(0)) wake()
    }
    const exclusive: ExclusiveSqlite['exclusive'] = async (work) => {
      while (inTransaction) await new Promise<void>((wake) => waiting.push(wake))
      try {
        return work(client.executeSync.bind(client))
      } catch (error) {
        if (!isConstraintViolation(error)) await replaceConnection()
        throw error
      }
    }
    return Object.assign(client, { exclusive })
  }
}

// One client per process, shared by every copy of this module (lib/config/process-state).
export const db: Db = processState('db', connect)

/** Stored lists (scopes, redirect URIs, org ids) are JSON text so SQLite and PostgreSQL share a schema. */
export function readList(value: string | null | undefined): string[] {
  if (!value) return []
  try {
    const parsed: unknown = JSON.parse(value)
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

export function writeList(values: Iterable<string>): string {
  return JSON.stringify([...new Set(values)])
}

export { insertStatement, spend, joinSql, lockRow, newId, rows, run, sql, statements, statementsIn, transaction, type Insert, type OwnerTable, type Spend, type SpendUpdate, type Sql, type Statements } from '@/lib/db/statements'
