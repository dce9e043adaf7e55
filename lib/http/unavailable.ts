// A database that cannot answer for a moment (PostgreSQL restarting or failing over, its pool
// exhausted, SQLite's file locked by another process past the busy timeout), a blob store disk
// that is full or read-only, or an S3-compatible store out of reach, is not a fault of the request: the route wrapper (route.ts) answers it
// 503 with Retry-After, in each protocol's own shape, so clients and load balancers know to try
// again instead of seeing a 500. Recognised from the error alone (Prisma's codes, PostgreSQL's
// SQLSTATE, node-postgres' messages, the file system's errno), so lib/http needs nothing from
// lib/db or lib/storage.

/** Seconds a client is told to wait: a PostgreSQL restart or an instance's reconnect takes a few. */
export const RETRY_AFTER_SECONDS = 5

export class ServiceUnavailableError extends Error {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS
  constructor(
    message: string,
    readonly cause: unknown,
  ) {
    super(message)
  }
}

/** The 503 to answer for `error`, or null when it is no outage. */
export function asServiceUnavailable(error: unknown): ServiceUnavailableError | null {
  if (isDatabaseUnavailable(error)) return new ServiceUnavailableError('The database is unavailable for a moment; try again shortly', error)
  if (isStorageUnavailable(error)) return new ServiceUnavailableError('The file store cannot take writes for a moment; try again shortly', error)
  if (isObjectStoreUnavailable(error)) return new ServiceUnavailableError('The file store is unavailable for a moment; try again shortly', error)
  return null
}

/** Connection failures of a client socket (refused, reset, timed out, no route, no such host yet). */
const NETWORK_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE'])

/**
 * The S3-compatible store could not be reached, or answered 5xx (503 SlowDown included), after the
 * SDK's own retries. Recognised as the AWS SDK throws it: every error it throws carries `$metadata`
 * (a socket error as Node raised it, with its errno code; a service error with the HTTP status), so a
 * database driver's ECONNREFUSED, which has none, is not taken for it.
 */
export function isObjectStoreUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: unknown } } | null
  if (!e || typeof e !== 'object' || !e.$metadata || typeof e.$metadata !== 'object') return false
  if (typeof e.code === 'string' && NETWORK_ERRNOS.has(e.code)) return true
  if (e.name === 'TimeoutError') return true
  const status = e.$metadata.httpStatusCode
  return typeof status === 'number' && status >= 500
}

/** The disk store's file system refused a write: full (ENOSPC, EDQUOT) or mounted read-only (EROFS). */
const STORAGE_ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EROFS'])

export function isStorageUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && STORAGE_ERRNOS.has(code)
}

/**
 * Prisma's codes for a database that cannot be reached or answer in time: P1001 not reachable,
 * P1002 timed out, P1008 operation timed out (SQLite's SQLITE_BUSY after busy_timeout), P1017 the
 * server closed the connection, P2024 no pool connection in time, P2028 a transaction that could
 * not start (or ran out of time) under that contention, P2037 too many connections.
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2037'])
/** The same, as the driver adapter names them (raw queries carry them under P2010). */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections'])
/** SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57P (shutdown, crash, starting up). */
const SQLSTATE = /^(08|53|57P)/
/** node-postgres' own errors when the server drops a connection (no code: Prisma passes them through). */
const PG_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect)/

type AdapterCause = { kind?: unknown; originalCode?: unknown; code?: unknown }
type MaybeDbError = {
  name?: unknown
  code?: unknown
  message?: unknown
  cause?: unknown
  meta?: { driverAdapterError?: { cause?: AdapterCause } }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const e = error as MaybeDbError
  if (typeof e.code === 'string' && PRISMA_CODES.has(e.code)) return true
  // Through Prisma's client the adapter's error is wrapped; hand-written statements (lib/db's
  // statements) meet it bare.
  const cause = e.meta?.driverAdapterError?.cause ?? (e.name === 'DriverAdapterError' ? (e.cause as AdapterCause | undefined) : undefined)
  if (typeof cause?.kind === 'string' && ADAPTER_KINDS.has(cause.kind)) return true
  const sqlstate = cause?.originalCode ?? cause?.code
  if (typeof sqlstate === 'string' && SQLSTATE.test(sqlstate)) return true
  return e.code === undefined && typeof e.message === 'string' && PG_MESSAGES.test(e.message)
}
