// A Client ID Metadata Document client through the authorization server: the document served by
// the "app" on loopback (allowed only by the development setting), consent marked unverified,
// PKCE required, redirect URIs from the document, code exchange without a secret.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createUser } from '@/lib/hub/users'
import { approve, checkAuthorizationRequest } from '@/lib/oauth/authorize'
import { paramsFrom } from '@/lib/oauth/request'
import { forgetMetadataDocument } from '@/lib/oauth/clients/metadata-document'
import { serverMetadata } from '@/lib/oauth/discovery'
import { CHALLENGE, VERIFIER, token } from '../oauth/setup'

let server: http.Server
let clientId: string
let userId: string
const document = (id: string) => ({ client_id: id, client_name: 'Loopback MCP Client', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', client_uri: 'https://mcp.example', extra: 'ignored' })

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' })
    res.end(JSON.stringify(document(`http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`)))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  clientId = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/oauth-cimd`
  userId = (await createUser({ username: 'cimduser', email: 'cimduser@test.dev', password: 'password-cimd' })).id
})
afterAll(() => {
  vi.unstubAllEnvs()
  server.close()
})

const authorizeParams = (over: Record<string, string> = {}) =>
  paramsFrom(Object.entries({ client_id: clientId, redirect_uri: 'http://127.0.0.1:53682/callback', scope: 'openid profile read-repos', state: 's', code_challenge: CHALLENGE, code_challenge_method: 'S256', ...over }))

describe('metadata-document clients', () => {
  it('are refused on loopback without the development setting', async () => {
    vi.stubEnv('OAUTH_ALLOW_LOOPBACK_FETCH', '')
    const checked = await checkAuthorizationRequest(authorizeParams())
    expect(checked).toMatchObject({ kind: 'show-error', error: { code: 'invalid_client' } })
  })

  it('sign a user in: unverified client, loopback redirect on any port, PKCE, no secret', async () => {
    vi.stubEnv('OAUTH_ALLOW_LOOPBACK_FETCH', '1')
    forgetMetadataDocument(clientId)
    const checked = await checkAuthorizationRequest(authorizeParams())
    if (checked.kind !== 'ok') throw new Error(JSON.stringify(checked))
    expect(checked.request.client).toMatchObject({ name: 'Loopback MCP Client', viaMetadataDocument: true, isPublic: true, appId: null })
    const location = new URL(await approve(checked.request, userId, []))
    const code = location.searchParams.get('code')!
    const { res, body } = await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:53682/callback', code_verifier: VERIFIER, client_id: clientId })
    expect(res.status).toBe(200)
    expect(body.access_token).toMatch(/^hf_oauth_/)
  })

  it('must use PKCE, and only the redirect URIs of the document', async () => {
    vi.stubEnv('OAUTH_ALLOW_LOOPBACK_FETCH', '1')
    // Shown on the hub's page, never redirected: a document may name any redirect URI (RFC 9700 4.11.2).
    const noPkce = await checkAuthorizationRequest(authorizeParams({ code_challenge: '', code_challenge_method: '' }))
    expect(noPkce).toMatchObject({ kind: 'show-error', error: { code: 'invalid_request' } })
    const elsewhere = await checkAuthorizationRequest(authorizeParams({ redirect_uri: 'https://evil.example/callback' }))
    expect(elsewhere).toMatchObject({ kind: 'show-error', error: { code: 'invalid_request' } })
  })

  it('never redirect an error before the user has answered: bad parameters and prompt=none are shown on the hub', async () => {
    vi.stubEnv('OAUTH_ALLOW_LOOPBACK_FETCH', '1')
    for (const [over, code] of [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'openid no-such-scope' }, 'invalid_scope'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ prompt: 'none' }, 'interaction_required'],
    ] as const) {
      expect(await checkAuthorizationRequest(authorizeParams(over)), JSON.stringify(over)).toMatchObject({ kind: 'show-error', error: { code } })
    }
  })

  it('are advertised in discovery', () => {
    expect(serverMetadata().client_id_metadata_document_supported).toBe(true)
  })
})
