/**
 * Database statements per hot-path request, counted at the driver adapter: a token-endpoint
 * code exchange, a refresh, a bearer-token whoami-v2, and a moderation request's auth + rate limit.
 * Runs in process (no HTTP), on whichever database DATABASE_URL names (default: a fresh SQLite file).
 *
 *   npx tsx bench/queries.ts
 *   DATABASE_URL=postgresql://... npx tsx bench/queries.ts
 *
 * Prints the statements of the second request of each kind (the first one warms caches), so the
 * numbers are the steady state.
 */
import { benchDatabase } from './load'

await benchDatabase('./.tmp/bench-queries.db')

// Every statement reaches the database through the driver adapter that lib/db connects (Prisma's
// queries and the hand-written ones of lib/db/statements alike): count them there.
const { processState } = await import('@/lib/config/process-state')
const { db } = await import('@/lib/db')
await db.$connect()
type Query = { sql: string }
type Queryable = { queryRaw(q: Query): Promise<unknown>; executeRaw(q: Query): Promise<unknown> }
type Tx = Queryable & { commit(): Promise<void>; rollback(): Promise<void> }
const driver = processState('dbDriverAdapter', () => ({ adapter: null as (Queryable & { startTransaction(): Promise<Tx> }) | null }))
const statements: string[] = []
function counting<Q extends Queryable>(target: Q): Q {
  for (const method of ['queryRaw', 'executeRaw'] as const) {
    const original = target[method].bind(target)
    target[method] = ((q: Query) => (statements.push(q.sql), original(q))) as Q[typeof method]
  }
  return target
}
type SqliteConnection = { executeSync(sql: string, args: unknown[]): unknown }
const adapter = driver.adapter as (Queryable & { provider: string; client?: SqliteConnection; startTransaction(): Promise<Tx> }) | null
if (!adapter) throw new Error('lib/db connected no driver adapter')
if (adapter.provider === 'sqlite') {
  // On SQLite lib/db/statements runs straight on the connection (not through the adapter), and
  // every statement, the adapter's own included, ends in the connection's executeSync: count there.
  const connection = adapter.client!
  const execute = connection.executeSync.bind(connection)
  connection.executeSync = (sql, args) => (statements.push(sql), execute(sql, args))
} else {
  counting(adapter)
  const start = adapter.startTransaction.bind(adapter)
  adapter.startTransaction = async () => {
    statements.push('BEGIN')
    const tx = counting(await start())
    const [commit, rollback] = [tx.commit.bind(tx), tx.rollback.bind(tx)]
    tx.commit = () => (statements.push('COMMIT'), commit())
    tx.rollback = () => (statements.push('ROLLBACK'), rollback())
    return tx
  }
}

const { createUser } = await import('@/lib/hub/users')
const { createApp } = await import('@/lib/oauth/clients/apps')
const { checkAuthorizationRequest, approve } = await import('@/lib/oauth/authorize')
const { paramsFrom } = await import('@/lib/oauth/request')
const { s256 } = await import('@/lib/oauth/pkce')
const { tokenEndpoint } = await import('@/lib/oauth/token-endpoint')
const { callerFromRequest } = await import('@/lib/auth/caller')
const { issueToken } = await import('@/lib/auth/tokens')

const VERIFIER = 'bench-verifier-0123456789-0123456789-0123456789-abcdef'
const user = await createUser({ username: 'queries', email: 'queries@bench.test', password: 'bench-password' })
const { app, secret } = await createApp({ kind: 'user', userId: user.id }, { name: 'Bench', redirectUris: ['http://127.0.0.1/cb'], scopes: ['openid', 'profile', 'email'] }, true)
const checked = await checkAuthorizationRequest(
  paramsFrom(Object.entries({ client_id: app.clientId, redirect_uri: 'http://127.0.0.1/cb', scope: 'openid profile email', code_challenge: s256(VERIFIER), code_challenge_method: 'S256', nonce: 'n' })),
)
if (checked.kind !== 'ok') throw new Error('authorization request refused')
const authorization = 'Basic ' + Buffer.from(`${app.clientId}:${secret}`).toString('base64')
const post = (body: Record<string, string>) =>
  tokenEndpoint(new Request('http://hub.test/oauth/token', { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.0.0.1' }, body: new URLSearchParams(body) }))

async function counted<T>(label: string, run: () => Promise<T>): Promise<T> {
  await run() // warm-up: caches, key loading
  statements.length = 0
  const result = await run()
  console.log(`\n${label}: ${statements.length} statements`)
  for (const s of statements) console.log(`  ${s.replace(/\s+/g, ' ').slice(0, 160)}`)
  return result
}

const code = async () => new URL(await approve(checked.request, user.id, [])).searchParams.get('code')!
let lastRefresh = ''
await counted('code exchange (authorization_code, openid: access + refresh + id_token)', async () => {
  const res = await post({ grant_type: 'authorization_code', code: await code().then((c) => ((statements.length = 0), c)), redirect_uri: 'http://127.0.0.1/cb', code_verifier: VERIFIER })
  const body = (await res.json()) as { refresh_token?: string; error?: string }
  if (!body.refresh_token) throw new Error(`exchange failed: ${JSON.stringify(body)}`)
  lastRefresh = body.refresh_token
})
await counted('refresh (rotation, openid)', async () => {
  const res = await post({ grant_type: 'refresh_token', refresh_token: lastRefresh })
  const body = (await res.json()) as { refresh_token?: string }
  if (!body.refresh_token) throw new Error(`refresh failed: ${JSON.stringify(body)}`)
  lastRefresh = body.refresh_token
})
const personal = await issueToken({ kind: 'personal', userId: user.id, role: 'read' })
await counted('bearer-token authentication (callerFromRequest, as whoami-v2 and the repo API do)', async () => {
  const caller = await callerFromRequest(new Request('http://hub.test/api/whoami-v2', { headers: { authorization: `Bearer ${personal.token}` } }))
  if (!caller) throw new Error('token refused')
})
process.exit(0)
