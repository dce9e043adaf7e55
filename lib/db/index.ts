// The Prisma client for whichever database DATABASE_URL names: SQLite (file:..., the embedded
// default) or PostgreSQL. Both clients are generated from the same schema (scripts/db.ts), so they
// share one type; the SQLite client's type stands for both.
import { processState } from '@/lib/config/process-state'
import path from 'node:path'
import { setting } from '@/lib/config/settings'
import { PrismaClient as SqliteClient } from '@/lib/generated/sqlite/client'
import { PrismaClient as PostgresClient } from '@/lib/generated/postgresql/client'
import { PrismaLibSql } from '@prisma/adapter-libsql'
import type { Client as LibSqlClient, Config as LibSqlConfig, InArgs, InStatement, Transaction, TransactionMode } from '@libsql/client'
import { PrismaPg } from '@prisma/adapter-pg'

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
    const client = new SqliteClient({ adapter: new TunedLibSql({ url: `file:${absolute}` }) })
    void client.$queryRawUnsafe('PRAGMA journal_mode=WAL').catch((error) => console.error('could not switch SQLite to WAL', error))
    return client
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    return new PostgresClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db
  }
  throw new Error('DATABASE_URL must be file:... (SQLite) or postgresql://...')
}

/**
 * WAL (set once; it stays in the file) lets readers run beside the writer and several processes
 * share the file; synchronous=NORMAL syncs at checkpoints instead of at every commit (still
 * crash-safe in WAL mode), which was ~95% of a token request's time; busy_timeout waits for another
 * process's writer instead of failing at once. Both are settings of the connection.
 *
 * @libsql/client hands its connection to each interactive transaction and opens a new one for what
 * follows: every transaction paid for opening the file, re-preparing every statement, and lost the
 * settings above (commits flushed to disk again, writers failed at once on a busy file). The Prisma
 * adapter holds its lock from BEGIN to COMMIT/ROLLBACK, so no other statement can use the
 * connection meanwhile, and the transaction can run on the one connection the client keeps.
 */
class TunedLibSql extends PrismaLibSql {
  override createClient(config: LibSqlConfig): LibSqlClient {
    const client = super.createClient(config)
    void client.executeMultiple('PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000').catch((error) => console.error('could not tune SQLite', error))
    client.transaction = async (mode?: TransactionMode) => {
      await client.execute(mode === 'write' ? 'BEGIN IMMEDIATE' : 'BEGIN DEFERRED')
      let open = true
      const end = async (sql: 'COMMIT' | 'ROLLBACK') => {
        if (!open) return
        open = false
        await client.execute(sql)
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
    return client
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
