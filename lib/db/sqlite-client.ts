// The SQLite connection under Prisma's libSQL adapter: the part of @libsql/client's local client
// that the adapter uses (execute, executeMultiple, close, reconnect), over the same `libsql`
// database, with each statement prepared once.
//
// @libsql/client prepares every statement again on each execute, asks for its columns twice, and
// builds each row with Object.defineProperty per column; a token exchange paid about 0.4 ms of CPU
// per statement for that against about 15 µs for a prepared statement's run (bench/oauth/RESULTS.md).
// Results keep the shape the adapter reads (columns, columnTypes, rows as arrays, rowsAffected) and
// errors the shape it maps (LibsqlError with the SQLite code and rawCode).
import Database from 'libsql'
import { LibsqlError, type Client, type InStatement, type ResultSet, type Row } from '@libsql/client'

/** Prepared statements kept per connection, least recently used dropped first. */
const STATEMENT_CACHE_MAX = 500
/**
 * A statement keeps its last bound values until it runs again (SQLite and libSQL never clear
 * them), so one that ran with large values (a commit's file list, a model card) is not kept.
 */
const CACHED_ARGS_MAX_BYTES = 64 * 1024

type Prepared = {
  statement: InstanceType<typeof Database>['prepare'] extends (sql: string) => infer S ? S : never
  reader: boolean
  columns: string[]
  columnTypes: string[]
}

type SqliteError = Error & { code?: string; rawCode?: number }

export class CachedSqliteClient {
  closed = false
  readonly protocol = 'file'
  #path: string
  #db: InstanceType<typeof Database>
  #statements = new Map<string, Prepared>()

  constructor(path: string) {
    this.#path = path
    this.#db = new Database(path)
  }

  async execute(statement: InStatement | string, args?: unknown[]): Promise<ResultSet> {
    const sql = typeof statement === 'string' ? statement : statement.sql
    const values = typeof statement === 'string' ? (args ?? []) : statement.args
    if (values !== undefined && !Array.isArray(values)) throw new TypeError('named statement arguments are not used here')
    return this.executeSync(sql, (values ?? []) as unknown[])
  }

  async executeMultiple(sql: string): Promise<void> {
    try {
      this.#db.exec(sql)
    } catch (error) {
      throw toLibsqlError(error)
    }
  }

  /** A fresh connection (the old one's statements are dropped with it). */
  async reconnect(): Promise<void> {
    this.#statements.clear()
    try {
      this.#db.close()
    } finally {
      this.#db = new Database(this.#path)
    }
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.#statements.clear()
    this.#db.close()
  }

  #prepare(sql: string): Prepared {
    const cached = this.#statements.get(sql)
    if (cached) {
      this.#statements.delete(sql)
      this.#statements.set(sql, cached)
      return cached
    }
    const statement = this.#db.prepare(sql)
    statement.safeIntegers(true)
    const reader = statement.reader
    let columns: string[] = []
    let columnTypes: string[] = []
    if (reader) {
      statement.raw(true)
      const described = statement.columns() as { name: string; type: string | null }[]
      columns = described.map((c) => c.name)
      columnTypes = described.map((c) => c.type ?? '')
    }
    const prepared: Prepared = { statement, reader, columns, columnTypes }
    if (this.#statements.size >= STATEMENT_CACHE_MAX) this.#statements.delete(this.#statements.keys().next().value!)
    this.#statements.set(sql, prepared)
    return prepared
  }

  /** The statement, run now (libSQL is synchronous); what `execute` resolves to. */
  executeSync(sql: string, args: unknown[]): ResultSet {
    try {
      const prepared = this.#prepare(sql)
      const bound = args.map(toSql)
      if (argBytes(bound) > CACHED_ARGS_MAX_BYTES) this.#statements.delete(sql)
      if (prepared.reader) {
        const rows = (prepared.statement.all(bound) as unknown[][]).map(fromSqlRow)
        return resultSet(prepared.columns, prepared.columnTypes, rows as unknown as Row[], 0, undefined)
      }
      const info = prepared.statement.run(bound) as { changes: number; lastInsertRowid: number | bigint }
      return resultSet([], [], [], info.changes, BigInt(info.lastInsertRowid))
    } catch (error) {
      // A statement that failed may be left unfinished (lib/db's TunedLibSql replaces the connection
      // for such errors); never hand it out again.
      this.#statements.delete(sql)
      throw toLibsqlError(error)
    }
  }
}

function argBytes(args: unknown[]): number {
  let bytes = 0
  for (const arg of args) {
    if (typeof arg === 'string') bytes += arg.length
    else if (arg instanceof Uint8Array) bytes += arg.byteLength
  }
  return bytes
}

function resultSet(columns: string[], columnTypes: string[], rows: Row[], rowsAffected: number, lastInsertRowid: bigint | undefined): ResultSet {
  return {
    columns,
    columnTypes,
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({ columns, columnTypes, rows, rowsAffected, lastInsertRowid: lastInsertRowid?.toString() ?? null }),
  }
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER)
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** @libsql/client's intMode "number": integers as numbers, refused when they would lose digits. */
function fromSqlRow(row: unknown[]): unknown[] {
  for (let i = 0; i < row.length; i++) {
    const value = row[i]
    if (typeof value === 'bigint') {
      if (value < MIN_SAFE || value > MAX_SAFE) throw new RangeError('Received integer which cannot be safely represented as a JavaScript number')
      row[i] = Number(value)
    } else if (value instanceof Buffer) {
      row[i] = value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength)
    }
  }
  return row
}

function toSql(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError('Only finite numbers (not Infinity or NaN) can be passed as arguments')
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof ArrayBuffer) return Buffer.from(value)
  if (value instanceof Date) return value.valueOf()
  if (value === undefined) throw new TypeError('undefined cannot be passed as argument to the database')
  return value
}

function toLibsqlError(error: unknown): unknown {
  const e = error as SqliteError
  if (e instanceof Error && typeof e.code === 'string' && typeof e.rawCode === 'number') return new LibsqlError(e.message, e.code, e.code, e.rawCode, e)
  return error
}

/** The subset of @libsql/client's Client that the adapter and lib/db use, as that type. */
export function cachedSqliteClient(path: string): Client & Pick<CachedSqliteClient, 'executeSync'> {
  return new CachedSqliteClient(path) as unknown as Client & Pick<CachedSqliteClient, 'executeSync'>
}

/**
 * A constraint violation (routine: a unique insert that lost a race) finishes its statement and
 * refuses only its own changes; other errors may leave the statement unfinished.
 */
export function isConstraintViolation(error: unknown): boolean {
  return sqliteCode(error).startsWith('SQLITE_CONSTRAINT')
}

/** An error SQLite raised (its code names it), as against one the caller's own code threw. */
export function isSqliteError(error: unknown): boolean {
  return sqliteCode(error).startsWith('SQLITE_')
}

function sqliteCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code
  return typeof code === 'string' ? code : ''
}

/** Runs one statement at once, synchronously (lib/db/statements' direct path). */
export type ExecuteNow = (sql: string, args: unknown[]) => ResultSet

/**
 * What lib/db's SQLite client adds for lib/db/statements: `exclusive(work)` runs `work` alone on the
 * connection, synchronously, as soon as no interactive transaction holds it (at once when none
 * does). Synchronous work cannot interleave with anything else of the process, so it needs neither
 * the adapter's lock nor its promise per statement; after an error that may leave a statement
 * unfinished the connection is replaced, as after any other statement.
 */
export type ExclusiveSqlite = { exclusive<T>(work: (execute: ExecuteNow) => T): Promise<T> }
