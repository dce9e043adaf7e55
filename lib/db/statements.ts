// Hand-written statements for the hot paths (the token endpoint, bearer-token lookups), run on the
// driver adapter under Prisma: the same connection (SQLite) or pool (PostgreSQL) and the same lock,
// without Prisma's query engine. A Prisma query costs 0.2–0.5 ms of CPU above its driver; a token
// exchange made eight of them (bench/oauth/RESULTS.md). Everything else keeps using Prisma.
//
//   const [row] = await rows<{ id: string }>(sql`SELECT "id" FROM "User" WHERE "username" = ${name}`)
//
// Values are always bound, never spliced. Identifiers are double-quoted, which both databases
// read alike; the placeholders are written per database. Rows come back as objects with
// DateTime columns as Date and Boolean columns as boolean, as Prisma's $queryRaw gives them, and
// 64-bit integers as number (Prisma: bigint). Inserts pass every column Prisma would fill itself (ids from newId,
// createdAt), so rows written either way are the same.
import { randomBytes } from 'node:crypto'
import { processState } from '@/lib/config/process-state'

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
type DriverAdapter = Queryable & { provider: 'sqlite' | 'postgres' | string; startTransaction(): Promise<AdapterTransaction> }

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
// under a name; Prisma's own queries (texts that vary with their arguments) stay unnamed.
const ours = new WeakSet<object>()
const names = new Map<string, string>()

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
  return toObjects<T>(await a.queryRaw(compile(query, a.provider)))
}

export async function run(query: Sql): Promise<number> {
  const a = await adapter()
  return a.executeRaw(compile(query, a.provider))
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
 * has no data-modifying WITH: there it is one IMMEDIATE transaction (no round trips to save), in
 * which "spent" is a WITH clause that reads the updated row back by its rowid, so its columns keep
 * their declared types.
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
  return transaction(async (tx) => {
    const updated = await tx.rows<{ rowid: number }>(sql`${update} RETURNING "rowid"`)
    if (updated.length === 0) return []
    if (updated.length > 1) throw new Error(`spend: the update of ${work.table} matched more than one row`)
    const spent = sql`WITH "spent" AS (SELECT ${columns} FROM ${table} WHERE "rowid" = ${updated[0]!.rowid})`
    for (const insert of work.inserts) await tx.run(sql`${spent} ${insertsFrom(insert)}`)
    return tx.rows<T>(sql`${spent} ${work.select}`)
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
  const random = BigInt('0x' + randomBytes(10).toString('hex')).toString(36).padStart(16, '0').slice(-12)
  return ('c' + Date.now().toString(36).padStart(8, '0') + counter.toString(36).padStart(4, '0') + random).slice(0, 25)
}
