// Hand-written statements for the hot paths (the token endpoint, bearer-token lookups), run on the
// driver adapter's connection under Prisma without Prisma's query engine: on PostgreSQL through
// the adapter (its pool), on SQLite straight on lib/db's one connection, synchronously, between
// Prisma's interactive transactions. A Prisma query costs 0.2–0.5 ms of CPU above its driver; a
// token exchange made eight of them (bench/oauth/RESULTS.md). Everything else keeps using Prisma.
//
//   const [row] = await rows<{ id: string }>(sql`SELECT "id" FROM "User" WHERE "username" = ${name}`)
//
// Values are always bound, never spliced. Identifiers are double-quoted, which both databases
// read alike; the placeholders are written per database. Rows come back as objects with
// DateTime columns as Date and Boolean columns as boolean, as Prisma's $queryRaw gives them, and
// 64-bit integers as number (Prisma: bigint). Inserts pass every column Prisma would fill itself (ids from newId,
// createdAt), so rows written either way are the same.
import type { ResultSet as SqliteResult } from '@libsql/client'
import { processState } from '@/lib/config/process-state'
import { setting } from '@/lib/config/settings'
import { randomBytesPooled } from '@/lib/random'
import { isConstraintViolation, isSqliteError, type ExclusiveSqlite, type ExecuteNow } from '@/lib/db/sqlite-client'

export type SqlValue = string | number | boolean | Date | null

// Only what this module made is ever spliced in as SQL; any other value is bound.
const FRAGMENT = Symbol('sql fragment')

export type Sql = { readonly strings: readonly string[]; readonly values: readonly (SqlValue | Sql)[]; readonly [FRAGMENT]: true }

function fragment(strings: readonly string[], values: readonly (SqlValue | Sql)[]): Sql {
  return { strings, values, [FRAGMENT]: true }
}

/** A statement or a fragment of one; a value that is itself an Sql is spliced in as SQL. */
export function sql(strings: TemplateStringsArray, ...values: (SqlValue | Sql)[]): Sql {
  return fragment(strings, values)
}

/**
 * A row to insert: the table and every column's value (column names are the code's, never input).
 * In `spend`, a value may be a fragment that reads the spent row (sql`"spent"."userId"`).
 */
export type Insert = { into: string; values: Record<string, SqlValue | Sql> }

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/

function quoted(identifier: string): Sql {
  if (!IDENTIFIER.test(identifier)) throw new Error(`not an identifier: ${identifier}`)
  return fragment([`"${identifier}"`], [])
}

/** The fragments one after another, `separator` between them (a VALUES list of many rows). */
export function joinSql(parts: Sql[], separator: string): Sql {
  if (parts.length === 0) return fragment([''], [])
  return fragment(['', ...parts.slice(1).map(() => separator), ''], parts)
}

function columnsAndValues(insert: Insert): { columns: Sql; values: Sql } {
  const names = Object.keys(insert.values)
  return {
    columns: joinSql(names.map(quoted), ', '),
    values: joinSql(names.map((name) => sql`${insert.values[name]!}`), ', '),
  }
}

export function insertStatement(insert: Insert): Sql {
  const { columns, values } = columnsAndValues(insert)
  return sql`INSERT INTO ${quoted(insert.into)} (${columns}) VALUES (${values})`
}

/** What the statements below run on: the adapter itself, or one of its transactions. */
export type Statements = {
  rows<T>(query: Sql): Promise<T[]>
  /** The number of rows the statement changed. */
  run(query: Sql): Promise<number>
}

// The parts of Prisma's driver adapter interface (@prisma/driver-adapter-utils) used here.
type ArgType = { scalarType: 'string' | 'int' | 'float' | 'boolean' | 'datetime' | 'unknown'; arity: 'scalar' }
type SqlQuery = { sql: string; args: SqlValue[]; argTypes: ArgType[] }
type ResultSet = { columnNames: string[]; columnTypes: number[]; rows: unknown[][] }
type Queryable = { queryRaw(query: SqlQuery): Promise<ResultSet>; executeRaw(query: SqlQuery): Promise<number> }
type AdapterTransaction = Queryable & { options: { usePhantomQuery: boolean }; commit(): Promise<void>; rollback(): Promise<void> }
type DriverAdapter = Queryable & {
  provider: 'sqlite' | 'postgres' | string
  startTransaction(): Promise<AdapterTransaction>
  /** Throws the error as the adapter's own statements throw it (a DriverAdapterError). */
  onError(error: unknown): never
  /** The adapter's connection; on SQLite lib/db's client (ExclusiveSqlite). */
  client?: unknown
}

// The adapter Prisma's client connected with (lib/db/index.ts hands it over), one per process.
const current = processState('dbDriverAdapter', () => ({ adapter: null as DriverAdapter | null, connect: null as (() => Promise<void>) | null }))

type AdapterFactory = { connect(): Promise<unknown> }

/**
 * Prisma's adapter factory, changed so that the adapter it connects is also the one these
 * statements run on (its connection and lock, or its pool). `connectClient` makes Prisma's client
 * connect, which it otherwise does on its first query.
 */
export function sharedAdapterFactory<F extends AdapterFactory>(factory: F, connectClient: () => Promise<void>): F {
  current.connect = connectClient
  const connect = factory.connect.bind(factory)
  factory.connect = async () => {
    const adapter = (await connect()) as DriverAdapter & { dispose(): Promise<void> }
    current.adapter = adapter
    // After $disconnect the adapter's connection is closed: the next statement connects Prisma again.
    const dispose = adapter.dispose.bind(adapter)
    adapter.dispose = () => {
      if (current.adapter === adapter) current.adapter = null
      return dispose()
    }
    return adapter
  }
  return factory
}

async function adapter(): Promise<DriverAdapter> {
  if (!current.adapter) await current.connect?.()
  if (!current.adapter) throw new Error('lib/db has not connected a driver adapter')
  return current.adapter
}

// ColumnTypeEnum of @prisma/driver-adapter-utils.
const INT64 = 1
const BOOLEAN = 5
const DATETIME = 10

function argType(value: SqlValue): ArgType {
  if (value instanceof Date) return { scalarType: 'datetime', arity: 'scalar' }
  switch (typeof value) {
    case 'string':
      return { scalarType: 'string', arity: 'scalar' }
    case 'number':
      return { scalarType: Number.isInteger(value) ? 'int' : 'float', arity: 'scalar' }
    case 'boolean':
      return { scalarType: 'boolean', arity: 'scalar' }
    default:
      return { scalarType: 'unknown', arity: 'scalar' }
  }
}

// The statements written here (a fixed set of texts) are prepared once per PostgreSQL connection
// under a name; Prisma's own queries (texts that vary with their arguments) stay unnamed. Which
// queries are ours is process state: the adapter, and so its name generator, belongs to whichever
// copy of this module connected first (lib/config/process-state), while the statements come from
// every copy. Held per module, the served hub's statements went unnamed: parsed and planned anew on
// every exchange, 0.4 ms of PostgreSQL's CPU (bench/oauth/RESULTS.md).
const { ours, names } = processState('preparedStatements', () => ({ ours: new WeakSet<object>(), names: new Map<string, string>() }))

/** For PrismaPg's statementNameGenerator: a name for the statements compiled here, else none. */
export function preparedStatementName(query: { sql: string }): string {
  if (!ours.has(query)) return undefined as unknown as string // pg: unnamed, not kept
  let name = names.get(query.sql)
  if (!name) names.set(query.sql, (name = `modhub_${names.size}`))
  return name
}

function isSql(value: SqlValue | Sql): value is Sql {
  if (typeof value !== 'object' || value === null || value instanceof Date) return false
  if ((value as Sql)[FRAGMENT] === true) return true
  throw new TypeError('a statement value must be a string, number, boolean, Date, null or an sql fragment')
}

function compile(query: Sql, provider: string): SqlQuery {
  const args: SqlValue[] = []
  const write = (part: Sql): string => {
    let text = part.strings[0]!
    part.values.forEach((value, i) => {
      if (isSql(value)) text += write(value)
      else {
        args.push(value)
        text += provider === 'postgres' ? `$${args.length}` : '?'
      }
      text += part.strings[i + 1]!
    })
    return text
  }
  const compiled = { sql: write(query), args, argTypes: args.map(argType) }
  ours.add(compiled)
  return compiled
}

function toObjects<T>(result: ResultSet): T[] {
  const { columnNames, columnTypes } = result
  return result.rows.map((row) => {
    const object: Record<string, unknown> = {}
    for (let i = 0; i < columnNames.length; i++) {
      const value = row[i]
      const type = columnTypes[i]
      object[columnNames[i]!] =
        value === null || value === undefined
          ? null
          : type === DATETIME
            ? new Date(typeof value === 'number' ? value : String(value))
            : type === BOOLEAN
              ? value === true || value === 1 || value === '1'
              : type === INT64 && typeof value === 'string'
                ? Number(value)
                : value instanceof ArrayBuffer
                  ? new Uint8Array(value)
                  : value
    }
    return object as T
  })
}

function statementsOn(queryable: Queryable, provider: string): Statements {
  return {
    rows: async <T>(query: Sql) => toObjects<T>(await queryable.queryRaw(compile(query, provider))),
    run: (query: Sql) => queryable.executeRaw(compile(query, provider)),
  }
}

export async function rows<T>(query: Sql): Promise<T[]> {
  const a = await adapter()
  const sqlite = exclusiveSqlite(a)
  if (sqlite) return sqliteObjects<T>(await now(a, sqlite, (execute) => execute(...sqliteStatement(query))))
  const pool = postgresPool(a)
  if (pool) return postgresObjects<T>(await onPool(a, pool, query))
  return toObjects<T>(await a.queryRaw(compile(query, a.provider)))
}

export async function run(query: Sql): Promise<number> {
  const a = await adapter()
  const sqlite = exclusiveSqlite(a)
  if (sqlite) return (await now(a, sqlite, (execute) => execute(...sqliteStatement(query)))).rowsAffected
  const pool = postgresPool(a)
  if (pool) return (await onPool(a, pool, query)).rowCount ?? 0
  return a.executeRaw(compile(query, a.provider))
}

// PostgreSQL: the statements here run straight on the adapter's `pg` pool, as the adapter itself
// would run them but without its per-statement work that they do not need (debug logging, a type
// parser closure, argument and column-type mapping for any Prisma type, a second pass over the
// rows): 34–37 instead of 48–60 µs of the hub's CPU per statement in process
// (bench/oauth/RESULTS.md). Values are written and read as the adapter writes and reads them, and
// errors are thrown as the adapter throws them.

type PgField = { name: string; dataTypeID: number }
type PgResult = { fields: PgField[]; rows: unknown[][]; rowCount: number | null }
type PgPool = {
  query(config: { name?: string; text: string; values: unknown[]; rowMode: 'array'; types: { getTypeParser(oid: number, format?: string): (text: string) => unknown } }): Promise<PgResult>
}

function postgresPool(a: DriverAdapter): PgPool | null {
  const pool = a.client as Partial<PgPool> | undefined
  return a.provider === 'postgres' && typeof pool?.query === 'function' ? (pool as PgPool) : null
}

/** Timestamps as the adapter writes them: UTC, without a zone (Prisma's `timestamp(3)` columns). */
function postgresValue(value: SqlValue): unknown {
  return value instanceof Date ? value.toISOString().slice(0, 23).replace('T', ' ') : value
}

const utcTimestamp = (text: string) => new Date(`${text.replace(' ', 'T')}Z`)
const zonedTimestamp = (text: string) => new Date(text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'))
const number = (text: string) => Number(text)
// By type OID (pg_type): the column types these statements read, parsed from PostgreSQL's text
// format into what `rows` gives on every database; any other type is left as its text.
const PG_TEXT_PARSERS: Record<number, (text: string) => unknown> = {
  16: (text) => text === 't', // boolean
  20: number, // bigint (Prisma: bigint; here a number, as on SQLite)
  21: number, // smallint
  23: number, // integer
  700: number, // real
  701: number, // double precision
  1114: utcTimestamp, // timestamp without time zone
  1184: zonedTimestamp, // timestamp with time zone
}
const asText = (text: string) => text
const PG_TYPES = { getTypeParser: (oid: number) => PG_TEXT_PARSERS[oid] ?? asText }

async function onPool(a: DriverAdapter, pool: PgPool, query: Sql): Promise<PgResult> {
  const compiled = compile(query, 'postgres')
  try {
    return await pool.query({
      name: setting('DATABASE_PREPARED_STATEMENTS') ? preparedStatementName(compiled) : undefined,
      text: compiled.sql,
      values: compiled.args.map(postgresValue),
      rowMode: 'array',
      types: PG_TYPES,
    })
  } catch (error) {
    return a.onError(error)
  }
}

function postgresObjects<T>(result: PgResult): T[] {
  const names = result.fields.map((field) => field.name)
  return result.rows.map((row) => {
    const object: Record<string, unknown> = {}
    for (let i = 0; i < names.length; i++) object[names[i]!] = row[i] ?? null
    return object as T
  })
}

// SQLite: the statements here run straight on lib/db's connection, synchronously, between two
// interactive transactions (ExclusiveSqlite), instead of through the adapter's lock, argument
// mapping, debug logging and promise per statement (bench/oauth/RESULTS.md). Values are written
// and read as the adapter writes and reads them.

function exclusiveSqlite(a: DriverAdapter): ExclusiveSqlite | null {
  const client = a.client as Partial<ExclusiveSqlite> | undefined
  return a.provider === 'sqlite' && typeof client?.exclusive === 'function' ? (client as ExclusiveSqlite) : null
}

/** The work, with its errors thrown as the adapter throws them. */
async function now<T>(a: DriverAdapter, sqlite: ExclusiveSqlite, work: (execute: ExecuteNow) => T): Promise<T> {
  try {
    return await sqlite.exclusive(work)
  } catch (error) {
    return a.onError(error)
  }
}

/** The adapter's own argument mapping (PrismaLibSql, timestamps as ISO 8601 with an explicit offset). */
function sqliteStatement(query: Sql): [string, unknown[]] {
  const { sql: text, args } = compile(query, 'sqlite')
  return [text, args.map((value) => (value instanceof Date ? value.toISOString().replace('Z', '+00:00') : value))]
}

const SQLITE_DATETIME = new Set(['DATETIME', 'TIMESTAMP'])

/** Rows as `rows` gives them on the adapter: declared DATETIME as Date, BOOLEAN as boolean. */
function sqliteObjects<T>(result: SqliteResult): T[] {
  const columnTypes = result.columnTypes.map((type) => {
    const declared = type.toUpperCase()
    return SQLITE_DATETIME.has(declared) ? DATETIME : declared === 'BOOLEAN' ? BOOLEAN : 0
  })
  return toObjects<T>({ columnNames: result.columns, columnTypes, rows: result.rows as unknown as unknown[][] })
}

/** Each statement on its own (autocommit), outside any transaction. */
export const statements: Statements = { rows, run }

type PrismaRaw = {
  $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T>
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>
}

/**
 * The same statements inside a Prisma interactive transaction, for work that writes both ways in
 * one transaction (an exchanged token and its audit entry). Rows come back as Prisma's raw queries
 * give them.
 */
export function statementsIn(tx: PrismaRaw): Statements {
  const provider = current.adapter?.provider ?? 'sqlite'
  return {
    rows: <T>(query: Sql) => {
      const { sql: text, args } = compile(query, provider)
      return tx.$queryRawUnsafe<T[]>(text, ...args)
    },
    run: (query: Sql) => {
      const { sql: text, args } = compile(query, provider)
      return tx.$executeRawUnsafe(text, ...args)
    },
  }
}

/** Tables whose rows stand for an owner that a count is kept under (tokens, apps, publishers, admins, device codes). */
export type OwnerTable = 'User' | 'Org' | 'Repo' | 'OAuthApp' | 'TrustedPublisher'

/**
 * Locks one owner row until the transaction ends, so that a count taken after it holds until the
 * commit: on PostgreSQL (read committed) two requests that each count, then create, both saw the
 * count before either committed and passed a cap together; now the second waits for the first.
 * SQLite's transactions already run one at a time (BEGIN IMMEDIATE); the statement is the same.
 * False when there is no such row (it was deleted meanwhile).
 */
export async function lockRow(tx: Statements, table: OwnerTable, id: string): Promise<boolean> {
  return (await tx.run(sql`UPDATE ${quoted(table)} SET "id" = "id" WHERE "id" = ${id}`)) === 1
}

/**
 * Runs `work` in one transaction: committed when it returns, rolled back when it throws. On SQLite
 * it holds the connection's lock (no other statement of the process runs meanwhile) and begins
 * IMMEDIATE (lib/db/index.ts); on PostgreSQL it holds one pooled connection.
 */
export async function transaction<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
  const a = await adapter()
  const tx = await a.startTransaction()
  // Without a "phantom" query the adapter expects the caller to send COMMIT/ROLLBACK (PostgreSQL).
  const end = async (statement: 'COMMIT' | 'ROLLBACK') => {
    if (!tx.options.usePhantomQuery) await tx.executeRaw({ sql: statement, args: [], argTypes: [] })
  }
  let result: T
  try {
    result = await work(statementsOn(tx, a.provider))
  } catch (error) {
    await end('ROLLBACK').catch(() => {})
    await tx.rollback()
    throw error
  }
  try {
    await end('COMMIT')
  } catch (error) {
    await tx.rollback()
    throw error
  }
  await tx.commit()
  return result
}

/** The UPDATE that spends a grant: it must match one row, and only while that row is unspent. */
export type SpendUpdate = { table: string; set: Sql; where: Sql }

/** One grant spent and its tokens stored, atomically: see `spend`. */
export type Spend = SpendUpdate & {
  /** Columns of the updated row that the inserts and the select read as "spent"."column". */
  returning: string[]
  /** Rows stored only when the update matched; their values may read "spent". */
  inserts: Insert[]
  /** The answer: a SELECT … FROM "spent" (joins allowed). */
  select: Sql
}

/**
 * How a grant (a code, a refresh token, a device code) is spent and its tokens stored: the UPDATE
 * matches its row only while unspent, and only then are the rows inserted and the select answered;
 * nothing when it matched no row. A second request spending the same grant at the same moment
 * waits on the row's lock, then finds it spent and stores nothing. On PostgreSQL it is one
 * statement (data-modifying WITH clauses read the UPDATE's RETURNING), so one round trip. SQLite
 * has no data-modifying WITH: there the statements run in an IMMEDIATE transaction (no round trips
 * to save), shared by the spends that arrive together (commitSpends), in which "spent" is a WITH
 * clause that reads the updated row back by its rowid, so its columns keep their declared types.
 */
export async function spend<T>(work: Spend): Promise<T[]> {
  const a = await adapter()
  const table = quoted(work.table)
  const columns = joinSql(work.returning.map(quoted), ', ')
  const insertsFrom = (insert: Insert) => {
    const { columns: names, values } = columnsAndValues(insert)
    return sql`INSERT INTO ${quoted(insert.into)} (${names}) SELECT ${values} FROM "spent"`
  }
  const update = sql`UPDATE ${table} SET ${work.set} WHERE ${work.where}`
  if (a.provider === 'postgres') {
    const clauses = work.inserts.map((insert, i) => sql`, ${quoted(`inserted${i}`)} AS (${insertsFrom(insert)})`)
    return rows<T>(sql`WITH "spent" AS (${update} RETURNING ${columns})${joinSql(clauses, '')} ${work.select}`)
  }
  const sqlite = exclusiveSqlite(a)
  if (!sqlite) throw new Error(`spend: no statements for the ${a.provider} adapter`)
  const statements = (execute: ExecuteNow): T[] => {
    const updated = execute(...sqliteStatement(sql`${update} RETURNING "rowid"`)).rows
    if (updated.length === 0) return []
    if (updated.length > 1) throw new Error(`spend: the update of ${work.table} matched more than one row`)
    const spent = sql`WITH "spent" AS (SELECT ${columns} FROM ${table} WHERE "rowid" = ${Number(updated[0]![0])})`
    for (const insert of work.inserts) execute(...sqliteStatement(sql`${spent} ${insertsFrom(insert)}`))
    return sqliteObjects<T>(execute(...sqliteStatement(sql`${spent} ${work.select}`)))
  }
  return new Promise<T[]>((resolve, reject) => {
    const queue = spendQueue.pending
    queue.push({ statements, resolve: resolve as (rows: unknown[]) => void, reject })
    if (queue.length === 1) setImmediate(() => void commitSpends(a, sqlite))
  })
}

/**
 * SQLite commits the spends that arrived together in one transaction (group commit): under load
 * several exchanges reach `spend` in the same turn of the event loop, and a commit's cost is the
 * pages it appends to the WAL, most of which (the tables' and indexes' newest pages) they share.
 * Each spend runs inside its own savepoint, so one that fails (a unique clash) leaves the others'
 * rows alone; each caller is answered only after the COMMIT that stored its rows.
 */
type PendingSpend = { statements: (execute: ExecuteNow) => unknown[]; resolve: (rows: unknown[]) => void; reject: (error: unknown) => void }
const spendQueue = processState('sqliteSpendQueue', () => ({ pending: [] as PendingSpend[] }))
/** Bounds one transaction's size (and how long it holds the connection). */
const SPENDS_PER_COMMIT = 64

async function commitSpends(a: DriverAdapter, sqlite: ExclusiveSqlite): Promise<void> {
  const batch = spendQueue.pending.splice(0, SPENDS_PER_COMMIT)
  if (spendQueue.pending.length > 0) setImmediate(() => void commitSpends(a, sqlite))
  type Outcome = { rows: unknown[] } | { error: unknown }
  let outcomes: Outcome[]
  try {
    outcomes = await now(a, sqlite, (execute) => {
      execute('BEGIN IMMEDIATE', [])
      try {
        const each = batch.map((spend): Outcome => {
          execute('SAVEPOINT "spend"', [])
          try {
            const found = spend.statements(execute)
            execute('RELEASE "spend"', [])
            return { rows: found }
          } catch (error) {
            // A clash, or an error of this spend's own (not of SQLite's): only this spend is undone.
            // Any other SQLite error ends the transaction, and every spend of it fails.
            if (isSqliteError(error) && !isConstraintViolation(error)) throw error
            execute('ROLLBACK TO "spend"', [])
            execute('RELEASE "spend"', [])
            return { error }
          }
        })
        execute('COMMIT', [])
        return each
      } catch (error) {
        try {
          execute('ROLLBACK', [])
        } catch {
          // Nothing was open (BEGIN or COMMIT itself failed and SQLite ended it).
        }
        throw error
      }
    })
  } catch (error) {
    for (const spend of batch) spend.reject(error)
    return
  }
  outcomes.forEach((outcome, i) => {
    if ('rows' in outcome) batch[i]!.resolve(outcome.rows)
    else {
      try {
        a.onError(outcome.error)
      } catch (converted) {
        batch[i]!.reject(converted)
      }
    }
  })
}

let counter = 0

/**
 * A new row id in the shape of Prisma's cuid() (a 25-character lowercase string starting with "c",
 * rising with time), for rows inserted here: the time, a per-process counter and 12 random base-36
 * digits (about 62 bits).
 */
export function newId(): string {
  counter = (counter + 1) % 1679616
  const random = BigInt('0x' + randomBytesPooled(10).toString('hex')).toString(36).padStart(16, '0').slice(-12)
  return ('c' + Date.now().toString(36).padStart(8, '0') + counter.toString(36).padStart(4, '0') + random).slice(0, 25)
}
