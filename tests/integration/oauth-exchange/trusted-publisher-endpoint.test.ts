// A CI job trades its OIDC id_token for a write token to one repo through POST /oauth/token, as
// a CI script would: a JSON body, no client authentication. The CI issuer is a local server of the
// test (its own keys and JWKS on loopback, allowed by the development setting).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose'
import { createUser } from '@/lib/hub/users'
import { createRepo } from '@/lib/hub/repos'
import { addPublisher } from '@/lib/hub/publishers'
import { TOKEN_EXCHANGE_GRANT_TYPE } from '@/lib/oauth/grants/member-exchange'
import { ID_TOKEN_TYPE } from '@/lib/oauth/grants/trusted-publisher'
import { GET as repoGET } from '@/app/api/[repoType]/[namespace]/[name]/[[...rest]]/route'
import { token } from '../oauth/setup'

const HUB = 'http://hub.test'
let server: http.Server
let issuer: string
let key: CryptoKey

beforeAll(async () => {
  vi.stubEnv('OAUTH_ALLOW_LOOPBACK_FETCH', '1')
  vi.stubEnv('HUB_URL', HUB)
  const pair = await generateKeyPair('RS256')
  key = pair.privateKey
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json')
    if (req.url === '/.well-known/openid-configuration') return res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }))
    if (req.url === '/jwks') return res.end(JSON.stringify({ keys: [jwk] }))
    res.statusCode = 404
    res.end('{}')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const owner = await createUser({ username: 'tpowner', email: 'tpowner@test.dev', password: 'password-owner' })
  await createRepo({ userId: owner.id, principal: null }, { namespace: 'tpowner', name: 'released-model', private: true })
  await addPublisher({ userId: owner.id, principal: null }, { kind: 'repo', type: 'model', namespace: 'tpowner', name: 'released-model' }, { issuer, claims: { repository: 'octo/released-model', ref: 'refs/heads/main' } })
})
afterAll(() => {
  vi.unstubAllEnvs()
  server.closeAllConnections()
  server.close()
})

const ciToken = (claims: Record<string, string>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(issuer).setAudience(HUB).setIssuedAt().setExpirationTime('5m').sign(key)

it('issues a one-hour write token for the repo, with no refresh token, and refuses claim mismatches', async () => {
  const subject = await ciToken({ repository: 'octo/released-model', ref: 'refs/heads/main', sub: 'repo:octo/released-model' })
  const { res, body } = await token({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token_type: ID_TOKEN_TYPE, subject_token: subject, resource: 'tpowner/released-model' }, { json: true })
  expect(res.status).toBe(200)
  expect(body).toMatchObject({ token_type: 'bearer', expires_in: 3600, access_token: expect.stringMatching(/^hf_/) })
  expect(body.refresh_token).toBeUndefined()
  const info = await repoGET(new Request(`${HUB}/api/models/tpowner/released-model`, { headers: { authorization: `Bearer ${body.access_token}` } }), {
    params: Promise.resolve({ repoType: 'models', namespace: 'tpowner', name: 'released-model' }),
  })
  expect(info.status).toBe(200)

  const wrongBranch = await ciToken({ repository: 'octo/released-model', ref: 'refs/heads/dev' })
  const refused = await token({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token_type: ID_TOKEN_TYPE, subject_token: wrongBranch, resource: 'tpowner/released-model' }, { json: true })
  expect([refused.res.status, refused.body.error]).toEqual([400, 'invalid_grant'])
  const unknownRepo = await token({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token_type: ID_TOKEN_TYPE, subject_token: subject, resource: 'tpowner/nope' }, { json: true })
  expect(unknownRepo.res.status).toBe(400)
})

it('names the repo in any letter case, as every repo id on the hub (the token is for the repo itself)', async () => {
  const subject = await ciToken({ repository: 'octo/released-model', ref: 'refs/heads/main', sub: 'repo:octo/released-model', jti: 'another-run' })
  const { res, body } = await token({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token_type: ID_TOKEN_TYPE, subject_token: subject, resource: 'TPOwner/Released-Model' }, { json: true })
  expect(res.status, JSON.stringify(body)).toBe(200)
  const info = await repoGET(new Request(`${HUB}/api/models/tpowner/released-model`, { headers: { authorization: `Bearer ${body.access_token}` } }), {
    params: Promise.resolve({ repoType: 'models', namespace: 'tpowner', name: 'released-model' }),
  })
  expect(info.status).toBe(200)
})
