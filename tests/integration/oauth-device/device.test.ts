// RFC 8628 device flow against the real database: the device authorization endpoint, polling
// (pending, slow_down, denied, expired, tokens exactly once), user codes and guess limits.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { decodeJwt } from 'jose'
import { db } from '@/lib/db'
import { sha256Hex } from '@/lib/auth/secrets'
import { hubUrl } from '@/lib/config'
import { POST as devicePOST, GET as deviceGET } from '@/app/oauth/device/route'
import { GET as whoamiGET } from '@/app/api/whoami-v2/route'
import { decideDeviceRequest, findPendingRequest, UserCodeError } from '@/lib/oauth/device-authorization'
import { DEVICE_GRANT_TYPE } from '@/lib/oauth/grants/device-code'
import { revokeConsent } from '@/lib/oauth/consent'
import { normalizeUserCode, newUserCode, USER_CODE_ALPHABET } from '@/lib/oauth/user-code'
import { basic, createFixture, token, BASE, type Fixture } from '../oauth/setup'

let f: Fixture

async function startDevice(body: Record<string, string>, authorization?: string) {
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' })
  if (authorization) headers.set('authorization', authorization)
  const res = await devicePOST(new Request(`${BASE}/oauth/device`, { method: 'POST', headers, body: new URLSearchParams(body).toString() }))
  return { res, body: (await res.json()) as Record<string, string> }
}

async function pending(userCode: string) {
  return findPendingRequest(userCode, f.user.id, `192.0.2.${Math.floor(Math.random() * 250)}`)
}

/** Moves the last poll back in time, as if the client had waited. */
async function waitInterval(deviceCodeHash?: string) {
  await db.deviceCode.updateMany({ where: deviceCodeHash ? { deviceCodeHash } : {}, data: { lastPolledAt: new Date(Date.now() - 61_000) } })
}

beforeAll(async () => {
  f = await createFixture('dev')
})

describe('user codes', () => {
  it('use 8 unambiguous characters and ignore case, dashes and spaces on entry', () => {
    for (let i = 0; i < 50; i++) expect(newUserCode()).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`))
    expect(normalizeUserCode('bcdf-ghjk')).toBe('BCDFGHJK')
    expect(normalizeUserCode(' BCDF GHJK ')).toBe('BCDFGHJK')
    expect(normalizeUserCode('BCDF-GHJ')).toBeNull()
    expect(normalizeUserCode('ABCD-EFGH')).toBeNull() // vowels are not in the alphabet
  })
})

describe('POST /oauth/device', () => {
  it('answers the RFC 8628 fields for a public app', async () => {
    const { res, body } = await startDevice({ client_id: f.pub.clientId, scope: 'openid profile read-repos' })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(body.device_code.length).toBeGreaterThanOrEqual(40)
    expect(body.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/)
    expect(body.verification_uri).toMatch(/\/oauth\/device$/)
    expect(body.verification_uri_complete).toBe(`${body.verification_uri}?user_code=${body.user_code}`)
    expect(body.expires_in).toBe(300)
    expect(body.interval).toBe(5)
    // Stored hashed: neither code appears in the table.
    const rows = JSON.stringify(await db.deviceCode.findMany())
    expect(rows).not.toContain(body.device_code)
    expect(rows).not.toContain(body.user_code.replace('-', ''))
  })

  it('requires Basic auth from an app with a secret, and refuses unknown clients and scopes', async () => {
    expect((await startDevice({ client_id: f.confidential.app.clientId })).res.status).toBe(401)
    expect((await startDevice({ client_id: f.confidential.app.clientId }, basic(f.confidential.app.clientId, 'wrong'))).body.error).toBe('invalid_client')
    expect((await startDevice({ client_id: f.confidential.app.clientId }, basic(f.confidential.app.clientId, f.confidential.secret))).res.status).toBe(200)
    expect((await startDevice({ client_id: 'nope' })).body.error).toBe('invalid_client')
    expect((await startDevice({})).body.error).toBe('invalid_request')
    const bad = await startDevice({ client_id: f.pub.clientId, scope: 'write-repos' })
    expect([bad.res.status, bad.body.error]).toEqual([400, 'invalid_scope'])
  })

  it('sends browsers to the verification page with the code kept', async () => {
    const res = await deviceGET(new Request(`${BASE}/oauth/device?user_code=BCDF-GHJK`))
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${hubUrl()}/oauth/device/verify?user_code=BCDF-GHJK`)
  })
})

describe('polling the token endpoint', () => {
  it('goes pending -> slow_down -> pending -> tokens exactly once, and the token works', async () => {
    const { body: start } = await startDevice({ client_id: f.pub.clientId, scope: 'openid profile read-repos' })
    const poll = () => token({ grant_type: DEVICE_GRANT_TYPE, device_code: start.device_code, client_id: f.pub.clientId })

    const first = await poll() // the first poll is never throttled
    expect([first.res.status, first.body.error]).toEqual([400, 'authorization_pending'])
    const early = await poll()
    expect(early.body.error).toBe('slow_down')
    const row = await db.deviceCode.findFirstOrThrow({ where: { clientId: f.pub.clientId }, orderBy: { createdAt: 'desc' } })
    expect(row.interval).toBe(5)
    await waitInterval(row.deviceCodeHash)
    expect((await poll()).body.error).toBe('authorization_pending') // waiting as told gets a real answer

    expect(await decideDeviceRequest(await pending(start.user_code), f.user.id, true, [f.org.id])).toBe(true)
    await waitInterval(row.deviceCodeHash)
    const done = await poll()
    expect(done.res.status).toBe(200)
    expect(done.body).toMatchObject({ token_type: 'bearer', scope: 'openid profile read-repos', access_token: expect.stringMatching(/^hf_oauth_/), refresh_token: expect.any(String), id_token: expect.any(String) })
    await waitInterval(row.deviceCodeHash)
    expect((await poll()).body.error).toBe('invalid_grant')

    const me = await whoamiGET(new Request(`${BASE}/api/whoami-v2`, { headers: { authorization: `Bearer ${done.body.access_token}` } }))
    const who = await me.json()
    expect(who.name).toBe('devuser')
    expect(who.orgs.map((o: { name: string }) => o.name)).toEqual(['devorg']) // only the org picked on the page

    // Refresh tokens rotate as in the core flow.
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: done.body.refresh_token!, client_id: f.pub.clientId })
    expect(refreshed.res.status).toBe(200)
    expect(refreshed.body.refresh_token).not.toBe(done.body.refresh_token)
  })

  it('ID tokens carry auth_time, the approving user\'s sign-in, kept through refreshes', async () => {
    const { body: start } = await startDevice({ client_id: f.pub.clientId, scope: 'openid profile' })
    const poll = () => token({ grant_type: DEVICE_GRANT_TYPE, device_code: start.device_code, client_id: f.pub.clientId })
    const signedInAt = Math.floor(Date.now() / 1000) - 120
    expect(await decideDeviceRequest(await pending(start.user_code), f.user.id, true, [], signedInAt)).toBe(true)
    const done = await poll()
    expect(done.res.status).toBe(200)
    expect(decodeJwt(done.body.id_token!).auth_time).toBe(signedInAt)
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: done.body.refresh_token!, client_id: f.pub.clientId })
    expect(decodeJwt(refreshed.body.id_token!).auth_time).toBe(signedInAt)
  })

  it('a client that waits as RFC 8628 says gets a real answer, whoever polled early before it (a retry, a second poller)', async () => {
    const { body: start } = await startDevice({ client_id: f.pub.clientId, scope: 'openid' })
    const poll = () => token({ grant_type: DEVICE_GRANT_TYPE, device_code: start.device_code, client_id: f.pub.clientId })
    const polledAgo = (seconds: number) => db.deviceCode.updateMany({ where: { deviceCodeHash: sha256Hex(start.device_code) }, data: { lastPolledAt: new Date(Date.now() - seconds * 1000) } })
    // Someone else's two polls back to back.
    expect((await poll()).body.error).toBe('authorization_pending')
    expect((await poll()).body.error).toBe('slow_down')
    // The client then starts at the interval it was given (5 s) and adds 5 s on each slow_down.
    let interval = Number(start.interval)
    const seen: string[] = []
    for (let i = 0; i < 4; i++) {
      await polledAgo(interval)
      const error = (await poll()).body.error as string
      seen.push(error)
      if (error === 'slow_down') interval += 5
    }
    expect(seen).toEqual(['authorization_pending', 'authorization_pending', 'authorization_pending', 'authorization_pending'])
    // A poll 4.9 s after the last: told to slow down, to 10 s; then 10 s is enough.
    await polledAgo(4.9)
    const slow = await poll()
    expect([slow.body.error, slow.body.error_description]).toEqual(['slow_down', 'Poll at most every 10 seconds'])
    await polledAgo(10)
    expect((await poll()).body.error).toBe('authorization_pending')
  })

  it('signs in the hf command line unchanged: its own client_id (huggingface_hub\'s constant), no scope sent, the scopes its app has', async () => {
    const HF_CLI = '26be6b09-91c5-47da-9861-d2d2bb7a7e36'
    const { res, body: start } = await startDevice({ client_id: HF_CLI })
    expect(res.status).toBe(200)
    const poll = () => token({ grant_type: DEVICE_GRANT_TYPE, device_code: start.device_code, client_id: HF_CLI })
    expect((await poll()).body.error).toBe('authorization_pending')
    expect(await decideDeviceRequest(await pending(start.user_code), f.user.id, true, [])).toBe(true)
    const row = await db.deviceCode.findFirstOrThrow({ where: { clientId: HF_CLI }, orderBy: { createdAt: 'desc' } })
    await waitInterval(row.deviceCodeHash)
    const done = await poll()
    expect(done.res.status).toBe(200)
    expect(String(done.body.scope).split(' ')).toEqual(expect.arrayContaining(['openid', 'profile', 'read-repos', 'write-repos', 'manage-repos']))
    const who = await (await whoamiGET(new Request(`${BASE}/api/whoami-v2`, { headers: { authorization: `Bearer ${done.body.access_token}` } }))).json()
    expect(who.name).toBe('devuser')
  })

  it('answers access_denied after a deny and expired_token after expiry', async () => {
    const denied = (await startDevice({ client_id: f.pub.clientId })).body
    await decideDeviceRequest(await pending(denied.user_code), f.user.id, false, [])
    expect((await token({ grant_type: DEVICE_GRANT_TYPE, device_code: denied.device_code, client_id: f.pub.clientId })).body.error).toBe('access_denied')

    const late = (await startDevice({ client_id: f.pub.clientId })).body
    await db.deviceCode.updateMany({ where: { status: 'pending' }, data: { expiresAt: new Date(Date.now() - 1000) } })
    expect((await token({ grant_type: DEVICE_GRANT_TYPE, device_code: late.device_code, client_id: f.pub.clientId })).body.error).toBe('expired_token')
    await expect(findPendingRequest(late.user_code, f.user.id, '192.0.2.9')).rejects.toBeInstanceOf(UserCodeError)
  })

  it('refuses a device code of another client and a made-up one', async () => {
    const start = (await startDevice({ client_id: f.pub.clientId })).body
    const other = await token({ grant_type: DEVICE_GRANT_TYPE, device_code: start.device_code }, { authorization: basic(f.confidential.app.clientId, f.confidential.secret) })
    expect(other.body.error).toBe('invalid_grant')
    expect((await token({ grant_type: DEVICE_GRANT_TYPE, device_code: 'made-up', client_id: f.pub.clientId })).body.error).toBe('invalid_grant')
    expect((await token({ grant_type: DEVICE_GRANT_TYPE, client_id: f.pub.clientId })).body.error).toBe('invalid_request')
  })
})

describe('POST /oauth/device, limits', () => {
  const from = (ip: string, body: Record<string, string>, authorization?: string) => {
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip })
    if (authorization) headers.set('authorization', authorization)
    return devicePOST(new Request(`${BASE}/oauth/device`, { method: 'POST', headers, body: new URLSearchParams(body).toString() }))
  }

  it('takes a confidential client named only by its Basic credentials (RFC 8628 3.1); no client at all is invalid_request', async () => {
    const res = await from('198.18.0.1', { scope: 'openid' }, basic(f.confidential.app.clientId, f.confidential.secret))
    expect(res.status).toBe(200)
    const none = await from('198.18.0.1', { scope: 'openid' })
    expect([none.status, ((await none.json()) as { error: string }).error]).toEqual([400, 'invalid_request'])
  })

  it('limits requests per address, and nobody can use up a public app\'s device login from elsewhere', async () => {
    vi.stubEnv('DEVICE_AUTHORIZATIONS_PER_IP', '4')
    try {
      const statuses = []
      for (let i = 0; i < 6; i++) statuses.push((await from('198.18.1.1', { client_id: f.pub.clientId })).status)
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
      // 60 live codes for the public app, from 15 addresses: more than a confidential app may hold.
      for (let a = 0; a < 15; a++) for (let i = 0; i < 4; i++) expect((await from(`198.18.2.${a}`, { client_id: f.pub.clientId })).status).toBe(200)
      expect((await from('198.18.3.1', { client_id: f.pub.clientId })).status).toBe(200)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('holds a confidential app to 50 live codes, also under a burst', async () => {
    const clientId = f.confidential.app.clientId
    const live = () => db.deviceCode.count({ where: { clientId, expiresAt: { gt: new Date() }, status: { in: ['pending', 'approved'] } } })
    const auth = basic(clientId, f.confidential.secret)
    let address = 0
    while ((await live()) < 46) expect((await from(`198.18.4.${address++ % 250}`, {}, auth)).status).toBe(200)
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => from(`198.18.5.${i}`, {}, auth)))
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 429, 429, 429, 429])
    expect(await live()).toBe(50)
    await db.deviceCode.updateMany({ where: { clientId }, data: { expiresAt: new Date(Date.now() - 1000) } })
  })
})

describe('verification', () => {
  it('counts only wrong codes: a valid code may be opened again and again', async () => {
    vi.stubEnv('DEVICE_CODE_GUESSES_PER_USER', '3')
    try {
      const start = (await startDevice({ client_id: f.pub.clientId })).body
      const opener = (await db.user.create({ data: { username: 'devopener', email: 'devopener@test.dev', passwordHash: 'x' } })).id
      for (let i = 0; i < 6; i++) expect((await findPendingRequest(start.user_code, opener, '198.51.100.200')).userCode).toBe(start.user_code)
      await expect(findPendingRequest('BCDF-GHJK', opener, '198.51.100.201')).rejects.toThrow(/unknown|expired/)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('limits code guesses per user', async () => {
    vi.stubEnv('DEVICE_CODE_GUESSES_PER_USER', '3')
    try {
      const guesser = (await db.user.findUniqueOrThrow({ where: { username: 'devother' } })).id
      for (let i = 0; i < 3; i++) await expect(findPendingRequest('BCDF-GHJK', guesser, `198.51.100.${i}`)).rejects.toThrow(/unknown|expired/)
      await expect(findPendingRequest('BCDF-GHJK', guesser, '198.51.100.99')).rejects.toThrow(/Too many attempts/)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('an approved device code not yet redeemed gives nothing once the user revokes the app', async () => {
    const start = (await startDevice({ client_id: f.pub.clientId })).body
    expect(await decideDeviceRequest(await pending(start.user_code), f.user.id, true, [])).toBe(true)
    expect(await revokeConsent(f.user.id, f.pub.clientId)).toBe(true)
    const poll = await token({ grant_type: DEVICE_GRANT_TYPE, device_code: start.device_code, client_id: f.pub.clientId })
    expect([poll.res.status, poll.body.error, poll.body.access_token]).toEqual([400, 'access_denied', undefined])
  })

  it('decides a request once only', async () => {
    const start = (await startDevice({ client_id: f.pub.clientId })).body
    const request = await pending(start.user_code)
    // The request's id alone (the page carries it) decides nothing: the user code must come with it.
    const other = (await startDevice({ client_id: f.pub.clientId })).body
    expect(await decideDeviceRequest({ id: request.id, userCode: other.user_code }, f.user.id, true, [])).toBe(false)
    expect(await decideDeviceRequest({ id: request.id, userCode: 'not a code' }, f.user.id, true, [])).toBe(false)
    expect(await decideDeviceRequest(request, f.user.id, true, [])).toBe(true)
    expect(await decideDeviceRequest(request, f.user.id, false, [])).toBe(false)
  })

  it('is advertised in discovery', async () => {
    const { serverMetadata } = await import('@/lib/oauth/discovery')
    const meta = serverMetadata()
    expect(meta.device_authorization_endpoint).toMatch(/\/oauth\/device$/)
    expect(meta.grant_types_supported).toContain(DEVICE_GRANT_TYPE)
  })
})
