// Whether the database has every migration this version ships: a server started on a database that
// `npm run db:migrate` has not brought up to date (an upgrade, a new database) fails on its first
// query of a table or column it lacks, as a 500 on every page. The server checks at start
// (instrumentation.ts) and says what to run instead.
import fs from 'node:fs'
import path from 'node:path'
import { databaseUrl } from '@/lib/db'
import { rows, sql } from '@/lib/db/statements'

/** The migration folders of the database's flavour (scripts/db.ts keeps one history per database). */
function shippedMigrations(): string[] {
  const folder = databaseUrl().startsWith('file:') ? 'prisma/migrations' : 'prisma/postgresql/migrations'
  return fs
    .readdirSync(path.resolve(/*turbopackIgnore: true*/ process.cwd(), folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
}

/** A database without the migrations table: none was ever applied (SQLite's and PostgreSQL's words for it). */
const NO_TABLE = /no such table|does not exist|42P01/

/**
 * The shipped migrations the database has not applied, in order; null when the database cannot say
 * (not reachable: requests answer 503 until it is, which is no reason to refuse to start).
 */
export async function missingMigrations(): Promise<string[] | null> {
  let applied: string[]
  try {
    applied = (await rows<{ migration_name: string }>(sql`SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`)).map((r) => r.migration_name)
  } catch (error) {
    const e = error as { message?: unknown; cause?: { message?: unknown; originalCode?: unknown } }
    const said = `${String(e.message ?? '')} ${String(e.cause?.message ?? '')} ${String(e.cause?.originalCode ?? '')}`
    if (!NO_TABLE.test(said)) return null
    applied = []
  }
  const done = new Set(applied)
  return shippedMigrations().filter((name) => !done.has(name))
}
