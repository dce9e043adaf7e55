// oidc-provider (panva, v9) configured like ModHub's provider for the benchmark: one confidential
// client with Basic auth, PKCE S256 required, RS256 id_tokens, rotating refresh tokens, 8 h opaque
// access tokens, 60 s codes. Codes, grants and tokens live in an unbounded in-memory adapter (its
// built-in development adapter is an LRU of 1000 entries, which drops grants under this load).
//   node bench/oauth/oidc-provider-server.mjs <port>
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

const provider = new Provider(issuer, {
  adapter: MemoryAdapter,
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
    if (req.url?.startsWith('/__mint')) {
      const url = new URL(req.url, issuer)
      const codes = await mint(Number(url.searchParams.get('n')), url.searchParams.get('challenge'))
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(codes))
    }
    handle(req, res)
  })
  .listen(port, '127.0.0.1', () => console.log(`oidc-provider listening on ${issuer}`))
