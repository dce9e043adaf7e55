// A revocation (a user revoking an app, a replayed code or refresh token ending its family) racing a
// token request that is storing its tokens at that moment (another instance, on PostgreSQL): the
// tokens that request stores end too. Under READ COMMITTED an UPDATE sees only rows committed when it
// began; the refresh token a racing rotation inserted was not among them and stayed live, so the app
// kept its access after the user revoked it (a review found it).
// The race is made deterministic: a second connection holds the user's row, so the token request's
// insert (its foreign-key check) waits while it holds its code's or refresh token's row lock; the
// revocation starts and waits on that lock; then the user's row is let go.
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseUrl, db } from '@/lib/db'
import { sha256Hex } from '@/lib/auth/secrets'
import { revokeConsent } from '@/lib/oauth/consent'
import { VERIFIER, authorizationCode, basic, createFixture, token, type Fixture } from './setup'

const onPostgres = /^postgres/.test(databaseUrl())
type PgClient = { connect(): Promise<void>; query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>; end(): Promise<void> }
const REDIRECT = 'https://app.example/cb'

describe.runIf(onPostgres)('a revocation racing a token request (PostgreSQL)', () => {
  let f: Fixture
  let blocker: PgClient
  let observer: PgClient

  beforeAll(async () => {
    f = await createFixture('revrace')
    const pg = createRequire(import.meta.url)('pg') as { Client: new (options: { connectionString: string }) => PgClient }
    blocker = new pg.Client({ connectionString: databaseUrl() })
    observer = new pg.Client({ connectionString: databaseUrl() })
    await Promise.all([blocker.connect(), observer.connect()])
  })
  afterAll(async () => {
    await Promise.all([blocker.end(), observer.end()])
  })

  const auth = () => ({ authorization: basic(f.confidential.app.clientId, f.confidential.secret) })

  /** Waits until `n` statements of this database wait on a lock (the racing requests are where the test wants them). */
  async function waitForLockWaits(n: number) {
    for (let i = 0; i < 500; i++) {
      const { rows } = await observer.query(`SELECT count(*)::int AS "waiting" FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)
      if (Number(rows[0]!.waiting) >= n) return
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error(`fewer than ${n} statements ever waited on a lock`)
  }

  /** Runs `request` while the user's row is held, starts `revocation` once the request waits, then lets go. */
  async function race<T>(request: () => Promise<T>, revocation: () => Promise<unknown>): Promise<T> {
    await blocker.query('BEGIN')
    await blocker.query('SELECT 1 FROM "User" WHERE "id" = $1 FOR UPDATE', [f.user.id])
    const requested = request()
    await waitForLockWaits(1)
    const revoked = revocation()
    await waitForLockWaits(2)
    await blocker.query('COMMIT')
    const [answer] = await Promise.all([requested, revoked])
    return answer
  }

  async function codeAndTokens() {
    const code = await authorizationCode(f.user.id, { clientId: f.confidential.app.clientId, redirectUri: REDIRECT, scope: 'openid read-repos' })
    const first = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, auth())
    expect(first.res.status).toBe(200)
    return first.body
  }

  it('a rotation racing the user revoking the app: the rotated refresh token is revoked and refreshes nothing', async () => {
    const first = await codeAndTokens()
    const rotated = await race(
      () => token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }, auth()),
      () => revokeConsent(f.user.id, f.confidential.app.clientId),
    )
    expect(rotated.res.status, JSON.stringify(rotated.body)).toBe(200)
    const row = await db.refreshToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(rotated.body.refresh_token!) } })
    expect(row.revokedAt, 'the refresh token the racing rotation stored').not.toBeNull()
    expect((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(rotated.body.access_token!) } })).revokedAt).not.toBeNull()
    const again = await token({ grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token! }, auth())
    expect(again.res.status).toBe(400)
    expect(again.body.error).toBe('invalid_grant')
  })

  it('a code exchange racing the user revoking the app: its tokens are revoked', async () => {
    const code = await authorizationCode(f.user.id, { clientId: f.confidential.app.clientId, redirectUri: REDIRECT, scope: 'openid read-repos' })
    const exchanged = await race(
      () => token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, auth()),
      () => revokeConsent(f.user.id, f.confidential.app.clientId),
    )
    expect(exchanged.res.status, JSON.stringify(exchanged.body)).toBe(200)
    expect((await db.refreshToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(exchanged.body.refresh_token!) } })).revokedAt).not.toBeNull()
    expect((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(exchanged.body.access_token!) } })).revokedAt).not.toBeNull()
  })

  it('a rotation racing the replay of an older refresh token of its family: the whole family ends, the new token too', async () => {
    const first = await codeAndTokens()
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }, auth())
    expect(second.res.status).toBe(200)
    let replay: Awaited<ReturnType<typeof token>> | undefined
    const rotated = await race(
      () => token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token! }, auth()),
      async () => (replay = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }, auth())),
    )
    expect(replay!.res.status).toBe(400)
    expect(rotated.res.status, JSON.stringify(rotated.body)).toBe(200)
    const familyId = (await db.refreshToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(first.refresh_token!) } })).familyId
    expect(await db.refreshToken.count({ where: { familyId, revokedAt: null } }), 'live refresh tokens of the family').toBe(0)
    expect(await db.accessToken.count({ where: { grantId: familyId, revokedAt: null } }), 'live access tokens of the family').toBe(0)
  })
})
