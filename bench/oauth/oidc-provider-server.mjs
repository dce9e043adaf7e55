// oidc-provider (panva, v9) configured like ModHub's provider for the benchmark: one confidential
// client with Basic auth, PKCE S256 required, RS256 id_tokens, rotating refresh tokens, 8 h opaque
// access tokens, 60 s codes.
//   node bench/oauth/oidc-provider-server.mjs <port>                      codes, grants and tokens in memory
//   OP_DATABASE_URL=postgresql://... node bench/oauth/oidc-provider-server.mjs <port>   ... in PostgreSQL
// In memory: an unbounded adapter over Maps (its built-in development adapter is an LRU of 1000
// entries, which drops grants under this load). In PostgreSQL: the storage a deployment of it with
// several instances needs, as ModHub keeps its state, so that ModHub on PostgreSQL can be compared
// with a provider that pays for storage too (one table in its own schema, rows keyed by model and
// id, the adapter's look-ups indexed, statements prepared once per connection, a pool of 10 as
// ModHub's DATABASE_POOL_SIZE).
// POST /__mint?n=<count>&challenge=<S256 challenge> creates codes the way its consent step would
// (a Grant, then AuthorizationCodes) and answers them as JSON, so only the token endpoint is timed.
import http from 'node:http'
import Provider from 'oidc-provider'
import { exportJWK, generateKeyPair } from 'jose'

const port = Number(process.argv[2] ?? 3690)
const issuer = `http://127.0.0.1:${port}`
const { privateKey } = await generateKeyPair('RS256', { extractable: true })
const jwk = { ...(await exportJWK(privateKey)), kid: 'bench', alg: 'RS256', use: 'sig' }

/** oidc-provider's adapter interface over plain Maps: no persistence, no eviction. */
const stores = new Map()
class MemoryAdapter {
  constructor(name) {
    this.name = name
    if (!stores.has(name)) stores.set(name, new Map())
    this.store = stores.get(name)
  }
  async upsert(id, payload, expiresIn) {
    this.store.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity })
  }
  async find(id) {
    const entry = this.store.get(id)
    return entry && entry.expiresAt > Date.now() ? entry.payload : undefined
  }
  async findByUid(uid) {
    for (const [id, entry] of this.store) if (entry.payload.uid === uid) return this.find(id)
  }
  async findByUserCode(userCode) {
    for (const [id, entry] of this.store) if (entry.payload.userCode === userCode) return this.find(id)
  }
  async consume(id) {
    const entry = this.store.get(id)
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000)
  }
  async destroy(id) {
    this.store.delete(id)
  }
  async revokeByGrantId(grantId) {
    for (const store of stores.values()) for (const [id, entry] of store) if (entry.payload.grantId === grantId) store.delete(id)
  }
}

/** The same interface over one PostgreSQL table; a row that has expired is not found. */
async function postgresAdapter(connectionString) {
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString, max: 10 })
  const table = 'oidc_provider_bench.payload'
  await pool.query(`DROP SCHEMA IF EXISTS oidc_provider_bench CASCADE; CREATE SCHEMA oidc_provider_bench;
    CREATE TABLE ${table} (model text NOT NULL, id text NOT NULL, payload jsonb NOT NULL, grant_id text, user_code text,
      uid text, expires_at timestamptz, consumed_at timestamptz, PRIMARY KEY (model, id));
    CREATE INDEX ON ${table} (grant_id); CREATE INDEX ON ${table} (user_code); CREATE INDEX ON ${table} (uid);`)
  const query = (name, text, values) => pool.query({ name, text, values })
  const live = '(expires_at IS NULL OR expires_at > now())'
  const found = ({ rows: [row] }) => row && (row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload)
  return class PostgresAdapter {
    constructor(name) {
      this.name = name
    }
    async upsert(id, payload, expiresIn) {
      await query(
        'op_upsert',
        `INSERT INTO ${table} (model, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 second')
         ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
           user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`,
        [this.name, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresIn ?? null],
      )
    }
    async find(id) {
      return found(await query('op_find', `SELECT payload, consumed_at FROM ${table} WHERE model = $1 AND id = $2 AND ${live}`, [this.name, id]))
    }
    async findByUid(uid) {
      return found(await query('op_find_uid', `SELECT payload, consumed_at FROM ${table} WHERE model = $1 AND uid = $2 AND ${live}`, [this.name, uid]))
    }
    async findByUserCode(userCode) {
      return found(await query('op_find_user_code', `SELECT payload, consumed_at FROM ${table} WHERE model = $1 AND user_code = $2 AND ${live}`, [this.name, userCode]))
    }
    async consume(id) {
      await query('op_consume', `UPDATE ${table} SET consumed_at = now() WHERE model = $1 AND id = $2`, [this.name, id])
    }
    async destroy(id) {
      await query('op_destroy', `DELETE FROM ${table} WHERE model = $1 AND id = $2`, [this.name, id])
    }
    async revokeByGrantId(grantId) {
      await query('op_revoke', `DELETE FROM ${table} WHERE grant_id = $1`, [grantId])
    }
    /** Rows per model, for the benchmark's count of what was stored. */
    static async counts() {
      const { rows } = await pool.query(`SELECT model, count(*)::int AS rows, count(consumed_at)::int AS consumed FROM ${table} GROUP BY model ORDER BY model`)
      return rows
    }
  }
}

const adapter = process.env.OP_DATABASE_URL ? await postgresAdapter(process.env.OP_DATABASE_URL) : MemoryAdapter

const provider = new Provider(issuer, {
  adapter,
  clients: [{ client_id: 'bench', client_secret: 'bench-secret', redirect_uris: ['http://127.0.0.1/cb'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
  jwks: { keys: [jwk] },
  findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, name: 'Bench User', preferred_username: 'bench', email: 'bench@bench.test', email_verified: true }) }),
  claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'] },
  scopes: ['openid', 'profile', 'email', 'offline_access'],
  issueRefreshToken: () => true,
  rotateRefreshToken: true,
  pkce: { required: () => true },
  ttl: { AccessToken: 28800, AuthorizationCode: 60, IdToken: 3600, RefreshToken: 90 * 86400, Grant: 90 * 86400 },
  features: { devInteractions: { enabled: false } },
})
provider.on('server_error', (_ctx, error) => console.error(error))

async function mint(n, challenge) {
  const client = await provider.Client.find('bench')
  const codes = []
  for (let i = 0; i < n; i++) {
    const grant = new provider.Grant({ accountId: 'bench-user', clientId: 'bench' })
    grant.addOIDCScope('openid profile email')
    const grantId = await grant.save()
    const code = new provider.AuthorizationCode({
      accountId: 'bench-user', client, grantId, scope: 'openid profile email', redirectUri: 'http://127.0.0.1/cb',
      codeChallenge: challenge, codeChallengeMethod: 'S256', nonce: `n${i}`, authTime: Math.floor(Date.now() / 1000), expiresWithSession: false,
    })
    codes.push(await code.save())
  }
  return codes
}

const handle = provider.callback()
http
  .createServer(async (req, res) => {
    if (req.url === '/__rows') {
      const rows = adapter.counts ? await adapter.counts() : null
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows))
    }
    if (req.url?.startsWith('/__mint')) {
      const url = new URL(req.url, issuer)
      const codes = await mint(Number(url.searchParams.get('n')), url.searchParams.get('challenge'))
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(codes))
    }
    handle(req, res)
  })
  .listen(port, '127.0.0.1', () => console.log(`oidc-provider listening on ${issuer}`))
