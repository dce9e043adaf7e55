// A code or refresh token presented twice at the same moment (two instances behind a load balancer,
// as the soak's race-code and race-refresh scenarios do): at most one request gets tokens, and since
// the grant was presented twice (RFC 6749 4.1.2, 10.4) every token it issued ends, the winner's
// included. The soak found the winner's tokens live when the code was spent in one statement and
// the tokens stored in later ones: the loser's revocation could run in between and revoke nothing.
// On PostgreSQL the requests run on separate pooled connections, as on two instances.
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { sha256Hex } from '@/lib/auth/secrets'
import { VERIFIER, authorizationCode, basic, createFixture, token, type Fixture } from './setup'

let f: Fixture
const REDIRECT = 'https://app.example/cb'
const ROUNDS = 8

beforeAll(async () => {
  f = await createFixture('race')
})

const auth = () => ({ authorization: basic(f.confidential.app.clientId, f.confidential.secret) })

/** Every token of the family (access and refresh) that is not revoked. */
async function liveTokens(familyId: string) {
  const access = await db.accessToken.count({ where: { grantId: familyId, revokedAt: null } })
  const refresh = await db.refreshToken.count({ where: { familyId, revokedAt: null } })
  return access + refresh
}

describe('a grant presented twice at once', () => {
  it('code: one request gets tokens, the other invalid_grant, and every token of the code ends', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const code = await authorizationCode(f.user.id, { clientId: f.confidential.app.clientId, redirectUri: REDIRECT, scope: 'openid read-repos' })
      const body = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }
      const answers = await Promise.all([token(body, auth()), token(body, auth()), token(body, auth())])
      const statuses = answers.map((a) => a.res.status).sort()
      expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([200, 400, 400])
      for (const a of answers.filter((a) => a.res.status === 400)) expect(a.body.error).toBe('invalid_grant')
      const row = await db.authorizationCode.findUniqueOrThrow({ where: { codeHash: sha256Hex(code) } })
      expect(await db.refreshToken.count({ where: { familyId: row.id } }), 'one refresh token issued').toBe(1)
      expect(await liveTokens(row.id), `round ${round}: the winner's tokens are still live`).toBe(0)
    }
  })

  it('refresh token: at most one rotation, and the whole family ends', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const code = await authorizationCode(f.user.id, { clientId: f.confidential.app.clientId, redirectUri: REDIRECT, scope: 'read-repos' })
      const first = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, auth())
      expect(first.res.status).toBe(200)
      const body = { grant_type: 'refresh_token', refresh_token: first.body.refresh_token! }
      const answers = await Promise.all([token(body, auth()), token(body, auth()), token(body, auth())])
      expect(answers.map((a) => a.res.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 400, 400])
      const familyId = (await db.refreshToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(first.body.refresh_token!) } })).familyId
      expect(await db.refreshToken.count({ where: { familyId } }), 'one rotation').toBe(2)
      expect(await liveTokens(familyId), `round ${round}: the winner's tokens are still live`).toBe(0)
    }
  })
})
