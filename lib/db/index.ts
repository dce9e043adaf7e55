// The Prisma client for whichever database DATABASE_URL names: SQLite (file:..., the embedded
// default) or PostgreSQL. Both clients are generated from the same schema (scripts/db.ts), so they
// share one type; the SQLite client's type stands for both.
import path from 'node:path'
import { setting } from '@/lib/config/settings'
import { PrismaClient as SqliteClient } from '@/lib/generated/sqlite/client'
import { PrismaClient as PostgresClient } from '@/lib/generated/postgresql/client'
import { PrismaLibSql } from '@prisma/adapter-libsql'
import type { Client as LibSqlClient, Config as LibSqlConfig, TransactionMode } from '@libsql/client'
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
 * process's writer instead of failing at once. Both are settings of the connection, and
 * @libsql/client hands its connection to every interactive transaction and opens a new one for
 * what follows, so each new connection is tuned as it is opened (before, every commit after a
 * process's first transaction flushed to disk again, and writers failed at once on a busy file).
 */
class TunedLibSql extends PrismaLibSql {
  override createClient(config: LibSqlConfig): LibSqlClient {
    const client = super.createClient(config)
    const tune = () => client.executeMultiple('PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000')
    const transaction = client.transaction.bind(client)
    client.transaction = async (mode?: TransactionMode) => {
      const tx = await transaction(mode)
      await tune() // opens and tunes the connection that replaces the one the transaction took
      return tx
    }
    void tune().catch((error) => console.error('could not tune SQLite', error))
    return client
  }
}

// One client per process; Next's dev server re-evaluates modules, so keep it on globalThis.
const holder = globalThis as unknown as { modhubDb?: Db }
export const db: Db = holder.modhubDb ?? (holder.modhubDb = connect())

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
