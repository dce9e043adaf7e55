// POST /oauth/token: authorization_code and refresh_token grants, client authentication, and every
// way a token request can be wrong (RFC 6749 5.2 errors, never a 500).
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { sha256Hex } from '@/lib/auth/secrets'
import { principalFromToken } from '@/lib/auth/tokens'
import { createApp, deleteSecret } from '@/lib/oauth/clients/apps'
import { POST as tokenPOST } from '@/app/oauth/token/route'
import { VERIFIER, authorizationCode, basic, createFixture, token, type Fixture } from './setup'

let f: Fixture
const CONF_REDIRECT = 'https://app.example/cb'

beforeAll(async () => {
  f = await createFixture('tok')
})

const confCode = (extra: Partial<Parameters<typeof authorizationCode>[1]> = {}) =>
  authorizationCode(f.user.id, { clientId: f.confidential.app.clientId, redirectUri: CONF_REDIRECT, ...extra })

describe('authorization_code', () => {
  it('exchanges a code with Basic auth: opaque hf_oauth_ token, rotating refresh token, no-store', async () => {
    const code = await confCode({ scope: 'openid profile read-repos' })
    const { res, body } = await token({ grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER }, { authorization: basic(f.confidential.app.clientId, f.confidential.secret) })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 28800, scope: 'openid profile read-repos', access_token: expect.stringMatching(/^hf_oauth_/), refresh_token: expect.any(String), id_token: expect.any(String) })
    const row = await db.accessToken.findUnique({ where: { tokenHash: sha256Hex(body.access_token!) } })
    expect(row).toMatchObject({ kind: 'oauth', userId: f.user.id, appId: f.confidential.app.id })
    expect(JSON.stringify(await db.accessToken.findMany())).not.toContain(body.access_token)
  })

  it('accepts client_secret_post and JSON bodies', async () => {
    const code = await confCode()
    const { res } = await token(
      { grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER, client_id: f.confidential.app.clientId, client_secret: f.confidential.secret, unknown_param: 'ignored' },
      { json: true },
    )
    expect(res.status).toBe(200)
  })

  it('lets a public app redeem a code without client_id (the code names the client), with PKCE', async () => {
    const code = await authorizationCode(f.user.id, { clientId: f.pub.clientId, redirectUri: 'http://localhost:5555/' })
    const { res, body } = await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://localhost:5555/', code_verifier: VERIFIER })
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body.refresh_token).toEqual(expect.any(String))
  })

  it('refuses a parameter named twice, in a JSON body as in a form, and spends nothing', async () => {
    const code = await confCode()
    const auth = basic(f.confidential.app.clientId, f.confidential.secret)
    const json = await tokenPOST(
      new Request('http://hub.test/oauth/token', {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json', 'x-forwarded-for': '10.0.9.1' },
        body: `{"grant_type":"authorization_code","code":"not-the-code","redirect_uri":"${CONF_REDIRECT}","code_verifier":"${VERIFIER}","code":${JSON.stringify(code)}}`,
      }),
    )
    expect([json.status, ((await json.json()) as { error: string }).error]).toEqual([400, 'invalid_request'])
    const form = await tokenPOST(
      new Request('http://hub.test/oauth/token', {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.0.9.1' },
        body: new URLSearchParams([['grant_type', 'authorization_code'], ['code', 'not-the-code'], ['code', code], ['redirect_uri', CONF_REDIRECT], ['code_verifier', VERIFIER]]).toString(),
      }),
    )
    expect([form.status, ((await form.json()) as { error: string }).error]).toEqual([400, 'invalid_request'])
    const { res } = await token({ grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER }, { authorization: auth })
    expect(res.status).toBe(200) // the code was not spent by the refused requests
  })

  it('refuses a code issued without PKCE to an app that has since become public (its secret deleted)', async () => {
    const { app } = await createApp({ kind: 'user', userId: f.other.id }, { name: 'Turns public', redirectUris: [CONF_REDIRECT], scopes: ['openid', 'profile'] }, true)
    const code = await authorizationCode(f.user.id, { clientId: app.clientId, redirectUri: CONF_REDIRECT, pkce: false })
    await deleteSecret(app.id)
    for (const body of [{ client_id: app.clientId }, {}] as Record<string, string>[]) {
      const { res, body: answer } = await token({ grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, ...body })
      expect([res.status, answer.error]).toEqual([400, 'invalid_grant'])
    }
    expect(await db.accessToken.count({ where: { appId: app.id } })).toBe(0)
  })

  it('refuses a confidential app that does not authenticate, or with a wrong secret (401 invalid_client)', async () => {
    const code = await confCode()
    const base = { grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER }
    const none = await token({ ...base, client_id: f.confidential.app.clientId })
    expect(none.res.status).toBe(401)
    expect(none.body.error).toBe('invalid_client')
    const noId = await token(base)
    expect(noId.body.error).toBe('invalid_client')
    const wrong = await token(base, { authorization: basic(f.confidential.app.clientId, f.confidential.secret + 'x') })
    expect(wrong.res.status).toBe(401)
    expect(wrong.body.error).toBe('invalid_client')
    expect(wrong.res.headers.get('www-authenticate')).toMatch(/^Basic/)
    const wrongPost = await token({ ...base, client_id: f.confidential.app.clientId, client_secret: 'nope' })
    expect(wrongPost.res.status).toBe(401)
    // The code survived the failed attempts.
    expect((await token(base, { authorization: basic(f.confidential.app.clientId, f.confidential.secret) })).res.status).toBe(200)
  })

  it('refuses a code issued to another client', async () => {
    const code = await authorizationCode(f.user.id, { clientId: f.pub.clientId, redirectUri: 'http://localhost/' })
    const { body } = await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://localhost/', code_verifier: VERIFIER }, { authorization: basic(f.confidential.app.clientId, f.confidential.secret) })
    expect(body.error).toBe('invalid_grant')
  })

  it('refuses a redirect_uri other than the one of the authorization request', async () => {
    const code = await confCode()
    const { res, body } = await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1/cb', code_verifier: VERIFIER }, { authorization: basic(f.confidential.app.clientId, f.confidential.secret) })
    expect(res.status).toBe(400)
    expect(body.error).toBe('invalid_grant')
  })

  it('refuses a missing or incorrect PKCE verifier, and a verifier without a challenge', async () => {
    const auth = { authorization: basic(f.confidential.app.clientId, f.confidential.secret) }
    const code = await confCode()
    const missing = await token({ grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT }, auth)
    expect(missing.body.error).toBe('invalid_request')
    const wrong = await token({ grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER.replace('a', 'b') }, auth)
    expect(wrong.body.error).toBe('invalid_grant')
    const tooShort = await token({ grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: 'short' }, auth)
    expect(tooShort.body.error).toBe('invalid_grant')
    const noPkce = await confCode({ pkce: false })
    const extra = await token({ grant_type: 'authorization_code', code: noPkce, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER }, auth)
    expect(extra.body.error).toBe('invalid_grant')
    // A confidential app may still go without PKCE.
    const plain = await confCode({ pkce: false })
    expect((await token({ grant_type: 'authorization_code', code: plain, redirect_uri: CONF_REDIRECT }, auth)).res.status).toBe(200)
  })

  it('treats a replayed code as stolen: invalid_grant, and the tokens it issued are revoked', async () => {
    const auth = { authorization: basic(f.confidential.app.clientId, f.confidential.secret) }
    const code = await confCode()
    const request = { grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER }
    const first = await token(request, auth)
    expect(first.res.status).toBe(200)
    expect(await principalFromToken(first.body.access_token!)).not.toBeNull()
    const replay = await token(request, auth)
    expect(replay.res.status).toBe(400)
    expect(replay.body.error).toBe('invalid_grant')
    expect(await principalFromToken(first.body.access_token!)).toBeNull()
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token! }, auth)
    expect(refresh.body.error).toBe('invalid_grant')
  })

  it('refuses an expired code (codes live 60 s)', async () => {
    const code = await confCode()
    const row = await db.authorizationCode.findUniqueOrThrow({ where: { codeHash: sha256Hex(code) } })
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(60_000)
    await db.authorizationCode.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    const { body } = await token({ grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER }, { authorization: basic(f.confidential.app.clientId, f.confidential.secret) })
    expect(body.error).toBe('invalid_grant')
  })

  it('refuses an expired refresh token, and a failed check spends nothing', async () => {
    const auth = { authorization: basic(f.confidential.app.clientId, f.confidential.secret) }
    const code = await confCode()
    // Failed PKCE checks leave the code as it was: the right verifier still redeems it.
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER.replace('a', 'b') }, auth)).body.error).toBe('invalid_grant')
    const issued = await token({ grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER }, auth)
    expect(issued.res.status).toBe(200)
    const row = await db.refreshToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(issued.body.refresh_token!) } })
    await db.refreshToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    const expired = await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token! }, auth)
    expect(expired.body).toMatchObject({ error: 'invalid_grant', error_description: 'Refresh token expired' })
    expect(await db.refreshToken.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ usedAt: null, revokedAt: null })
  })

  it('refuses unknown codes', async () => {
    const { body } = await token({ grant_type: 'authorization_code', code: 'nope', redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER }, { authorization: basic(f.confidential.app.clientId, f.confidential.secret) })
    expect(body.error).toBe('invalid_grant')
    const publicNoClient = await token({ grant_type: 'authorization_code', code: 'nope', redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER })
    expect(publicNoClient.body.error).toBe('invalid_client')
  })
})

describe('refresh_token', () => {
  async function fresh(scope = 'openid profile read-repos') {
    const code = await confCode({ scope })
    return (await token({ grant_type: 'authorization_code', code, redirect_uri: CONF_REDIRECT, code_verifier: VERIFIER }, { authorization: basic(f.confidential.app.clientId, f.confidential.secret) })).body
  }
  const auth = () => ({ authorization: basic(f.confidential.app.clientId, f.confidential.secret) })

  it('rotates: each refresh returns a new access and refresh token', async () => {
    const first = await fresh()
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }, auth())
    expect(second.res.status).toBe(200)
    expect(second.body.refresh_token).not.toBe(first.refresh_token)
    expect(second.body.access_token).not.toBe(first.access_token)
    expect(second.body.scope).toBe('openid profile read-repos')
    const third = await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token! }, auth())
    expect(third.res.status).toBe(200)
  })

  it('treats reuse of a rotated refresh token as theft: the whole family is revoked', async () => {
    const first = await fresh()
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }, auth())
    const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }, auth())
    expect(reuse.res.status).toBe(400)
    expect(reuse.body.error).toBe('invalid_grant')
    expect(await principalFromToken(first.access_token!)).toBeNull()
    expect(await principalFromToken(second.body.access_token!)).toBeNull()
    const next = await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token! }, auth())
    expect(next.body.error).toBe('invalid_grant')
  })

  it('may narrow the scope but never widen it (invalid_scope)', async () => {
    const first = await fresh()
    const wider = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, scope: 'openid profile read-repos manage-repos' }, auth())
    expect(wider.res.status).toBe(400)
    expect(wider.body.error).toBe('invalid_scope')
    const narrower = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, scope: 'profile' }, auth())
    expect(narrower.res.status).toBe(200)
    expect(narrower.body.scope).toBe('profile')
    expect(narrower.body.id_token).toBeUndefined()
    // The rotated refresh token still carries the whole grant.
    const back = await token({ grant_type: 'refresh_token', refresh_token: narrower.body.refresh_token! }, auth())
    expect(back.body.scope).toBe('openid profile read-repos')
  })

  it('belongs to its client, and needs that client authenticated', async () => {
    const first = await fresh()
    const publicApp = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: f.pub.clientId })
    expect(publicApp.body.error).toBe('invalid_grant')
    const unauthenticated = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: f.confidential.app.clientId })
    expect(unauthenticated.body.error).toBe('invalid_client')
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! }, auth())).res.status).toBe(200)
  })
})

describe('malformed requests', () => {
  it('answers 400 with an RFC 6749 error, never a 500', async () => {
    const cases: [Record<string, string> | string, string, string?][] = [
      [{}, 'invalid_request'],
      [{ grant_type: 'password', username: 'a', password: 'b' }, 'unsupported_grant_type'],
      [{ grant_type: 'é"\\x' }, 'unsupported_grant_type'],
      [{ grant_type: 'authorization_code' }, 'invalid_request'],
      [{ grant_type: 'refresh_token' }, 'invalid_request'],
      ['{"grant_type": ', 'invalid_request', 'application/json'],
      ['[1,2]', 'invalid_request', 'application/json'],
      ['{"grant_type": {"a": 1}}', 'invalid_request', 'application/json'],
      ['grant_type=refresh_token&grant_type=authorization_code', 'invalid_request'],
      ['grant_type=x', 'invalid_request', 'text/plain'],
      [`grant_type=refresh_token&refresh_token=${'x'.repeat(20_000)}`, 'invalid_request'],
      ['grant_type=refresh_token&refresh_token=%ZZ&client_id=%', 'invalid_client'],
    ]
    const { POST } = await import('@/app/oauth/token/route')
    for (const [body, error, type] of cases) {
      const res = await POST(
        new Request('http://hub.test/oauth/token', {
          method: 'POST',
          headers: { 'content-type': type ?? 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.1.1.1' },
          body: typeof body === 'string' ? body : new URLSearchParams(body).toString(),
        }),
      )
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBeLessThan(500)
      const json = await res.json()
      expect(json.error, JSON.stringify(body).slice(0, 80)).toBe(error)
      // RFC 6749 5.2: printable ASCII without '"' and '\\', whatever the client sent.
      expect(json.error_description, JSON.stringify(body).slice(0, 80)).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/)
      expect(res.headers.get('cache-control')).toBe('no-store')
    }
    const badBasic = await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: 'Basic !!!' })
    expect(badBasic.res.status).toBe(401)
    const noColon = await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: 'Basic ' + Buffer.from('abc').toString('base64') })
    expect(noColon.body.error).toBe('invalid_client')
  })

  it('rate-limits per address', async () => {
    process.env.OAUTH_TOKEN_LIMIT_PER_IP = '3'
    try {
      const statuses = []
      for (let i = 0; i < 5; i++) statuses.push((await token({ grant_type: 'nope' }, { ip: '10.9.9.9' })).res.status)
      expect(statuses).toEqual([400, 400, 400, 429, 429])
    } finally {
      delete process.env.OAUTH_TOKEN_LIMIT_PER_IP
    }
  })

  it('rate-limits a confidential client by the requests that proved its secret; a public one per address only', async () => {
    process.env.OAUTH_TOKEN_LIMIT_PER_CLIENT = '2'
    try {
      // Apps of their own (fresh budgets); the unknown refresh token then fails as invalid_grant.
      const owner = { kind: 'user' as const, userId: f.other.id }
      const confidential = await createApp(owner, { name: 'Budget', redirectUris: ['https://app.example/cb'], scopes: [] }, true)
      const statuses = []
      for (let i = 0; i < 3; i++) statuses.push((await token({ grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic(confidential.app.clientId, confidential.secret!) })).res.status)
      expect(statuses).toEqual([400, 400, 429])
      // Anyone can send a public app's id: nobody can spend a budget of it.
      const { app } = await createApp(owner, { name: 'Public budget', redirectUris: ['http://localhost/'], scopes: [] }, false)
      const publicStatuses = []
      for (let i = 0; i < 4; i++) publicStatuses.push((await token({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.clientId })).res.status)
      expect(publicStatuses).toEqual([400, 400, 400, 400])
    } finally {
      delete process.env.OAUTH_TOKEN_LIMIT_PER_CLIENT
    }
  })
})
