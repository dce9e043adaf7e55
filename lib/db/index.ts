// The Prisma client for whichever database DATABASE_URL names: SQLite (file:..., the embedded
// default) or PostgreSQL. Both clients are generated from the same schema (scripts/db.ts), so they
// share one type; the SQLite client's type stands for both.
import path from 'node:path'
import { setting } from '@/lib/config/settings'
import { PrismaClient as SqliteClient } from '@/lib/generated/sqlite/client'
import { PrismaClient as PostgresClient } from '@/lib/generated/postgresql/client'
import { PrismaLibSql } from '@prisma/adapter-libsql'
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
    const client = new SqliteClient({ adapter: new PrismaLibSql({ url: `file:${absolute}` }) })
    tuneSqlite(client)
    return client
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    return new PostgresClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db
  }
  throw new Error('DATABASE_URL must be file:... (SQLite) or postgresql://...')
}

/**
 * WAL lets readers run beside the writer and several processes share the file; synchronous=NORMAL
 * syncs at checkpoints instead of at every commit (still crash-safe in WAL mode), which was ~95%
 * of a token request's time; busy_timeout waits for a writer instead of failing at once.
 */
function tuneSqlite(client: Db) {
  void (async () => {
    for (const pragma of ['PRAGMA journal_mode=WAL', 'PRAGMA synchronous=NORMAL', 'PRAGMA busy_timeout=5000']) await client.$queryRawUnsafe(pragma)
  })().catch((error) => console.error('could not tune SQLite', error))
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
