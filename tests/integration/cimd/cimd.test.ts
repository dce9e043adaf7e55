// Client ID Metadata Documents served by a local "app" (loopback, allowed by the development
// setting): a valid document resolves and is cached; every wrong document, fetch and URL is refused.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ClientMetadataError, clientIdUrlProblem, forgetMetadataDocument, resolveMetadataDocumentClient } from '@/lib/oauth/clients/metadata-document'

let server: http.Server
let origin: string
const fetches = new Map<string, number>()

const docUrl = (name: string) => `${origin}/${name}/.well-known/oauth-cimd`

function valid(name: string): Record<string, unknown> {
  return {
    client_id: docUrl(name),
    client_name: 'Chat Demo',
    client_uri: 'https://chat.example',
    logo_uri: 'https://chat.example/logo.png',
    redirect_uris: ['https://chat.example/oauth/callback/huggingface', 'http://localhost/callback', 'http://127.0.0.1/callback'],
    token_endpoint_auth_method: 'none',
    scopes: 'openid profile', // chat-ui sends this non-standard member; it must be ignored
  }
}

// Each case: the body (and headers) the app serves under /{case}/.well-known/oauth-cimd.
const documents: Record<string, (name: string) => { status?: number; headers?: Record<string, string>; body: string | Buffer }> = {
  good: (n) => ({ headers: { 'cache-control': 'max-age=600' }, body: JSON.stringify(valid(n)) }),
  nostore: (n) => ({ headers: { 'cache-control': 'no-store' }, body: JSON.stringify(valid(n)) }),
  'other-client-id': (n) => ({ body: JSON.stringify({ ...valid(n), client_id: 'https://elsewhere.example/.well-known/oauth-cimd' }) }),
  'no-name': (n) => ({ body: JSON.stringify({ ...valid(n), client_name: undefined }) }),
  'blank-name': (n) => ({ body: JSON.stringify({ ...valid(n), client_name: '   ' }) }),
  'reversed-name': (n) => ({ body: JSON.stringify({ ...valid(n), client_name: 'Chat \u202eomeD' }) }),
  'no-redirects': (n) => ({ body: JSON.stringify({ ...valid(n), redirect_uris: [] }) }),
  'redirects-not-array': (n) => ({ body: JSON.stringify({ ...valid(n), redirect_uris: 'https://chat.example/cb' }) }),
  'redirect-fragment': (n) => ({ body: JSON.stringify({ ...valid(n), redirect_uris: ['https://chat.example/cb#frag'] }) }),
  'redirect-http-remote': (n) => ({ body: JSON.stringify({ ...valid(n), redirect_uris: ['http://chat.example/cb'] }) }),
  'redirect-javascript': (n) => ({ body: JSON.stringify({ ...valid(n), redirect_uris: ['javascript:alert(1)'] }) }),
  'secret-basic': (n) => ({ body: JSON.stringify({ ...valid(n), token_endpoint_auth_method: 'client_secret_basic' }) }),
  'secret-post': (n) => ({ body: JSON.stringify({ ...valid(n), token_endpoint_auth_method: 'client_secret_post' }) }),
  'secret-jwt': (n) => ({ body: JSON.stringify({ ...valid(n), token_endpoint_auth_method: 'client_secret_jwt' }) }),
  'no-auth-method': (n) => ({ body: JSON.stringify({ ...valid(n), token_endpoint_auth_method: undefined }) }),
  'private-key-jwt': (n) => ({ body: JSON.stringify({ ...valid(n), token_endpoint_auth_method: 'private_key_jwt' }) }),
  'with-secret': (n) => ({ body: JSON.stringify({ ...valid(n), client_secret: 'shh' }) }),
  'bad-logo': (n) => ({ body: JSON.stringify({ ...valid(n), logo_uri: 'not a url' }) }),
  'ftp-client-uri': (n) => ({ body: JSON.stringify({ ...valid(n), client_uri: 'ftp://chat.example' }) }),
  'not-json': () => ({ body: '<html>hello</html>' }),
  'json-array': (n) => ({ body: JSON.stringify([valid(n)]) }),
  'html-type': (n) => ({ headers: { 'content-type': 'text/html' }, body: JSON.stringify(valid(n)) }),
  'over-5kb': (n) => ({ body: JSON.stringify({ ...valid(n), padding: 'x'.repeat(5200) }) }),
  'five-mb': () => ({ body: Buffer.alloc(5 * 1024 * 1024, 0x20) }),
  redirect: () => ({ status: 302, headers: { location: '/good/.well-known/oauth-cimd' }, body: '' }),
  'not-found': () => ({ status: 404, body: '{}' }),
  gone: () => ({ status: 410, body: '{}' }),
}

let flaky = 0

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const name = req.url!.split('/')[1]!
    fetches.set(name, (fetches.get(name) ?? 0) + 1)
    if (name === 'slow') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{')
      setTimeout(() => res.end('}'), 8000).unref()
      return
    }
    // Broken at first, fixed later: the broken answer must not be cached.
    const make = name === 'flaky' ? (flaky++ === 0 ? documents['not-json']! : documents.good!) : documents[name]
    if (!make) {
      res.writeHead(404)
      return res.end()
    }
    const { status = 200, headers = {}, body } = make(name)
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
  process.env.OAUTH_ALLOW_LOOPBACK_FETCH = '1'
  process.env.OUTBOUND_FETCH_TIMEOUT_MS = '500'
})

async function refusal(name: string): Promise<string> {
  forgetMetadataDocument(docUrl(name))
  const error = await resolveMetadataDocumentClient(docUrl(name)).then(() => null, (e: unknown) => e)
  expect(error, name).toBeInstanceOf(ClientMetadataError)
  return (error as Error).message
}

describe('a valid metadata document', () => {
  it('resolves to a public client, ignoring unknown members', async () => {
    const client = await resolveMetadataDocumentClient(docUrl('good'))
    expect(client).toEqual({
      clientId: docUrl('good'),
      name: 'Chat Demo',
      host: '127.0.0.1',
      redirectUris: ['https://chat.example/oauth/callback/huggingface', 'http://localhost/callback', 'http://127.0.0.1/callback'],
      logoUri: 'https://chat.example/logo.png',
      clientUri: 'https://chat.example',
      tokenEndpointAuthMethod: 'none',
    })
  })

  it('is cached per Cache-Control, and concurrent resolutions fetch once', async () => {
    forgetMetadataDocument(docUrl('good'))
    const before = fetches.get('good') ?? 0
    await Promise.all([1, 2, 3, 4].map(() => resolveMetadataDocumentClient(docUrl('good'))))
    await resolveMetadataDocumentClient(docUrl('good'))
    expect((fetches.get('good') ?? 0) - before).toBe(1)
  })

  it('is fetched again when the app says no-store', async () => {
    await resolveMetadataDocumentClient(docUrl('nostore'))
    await resolveMetadataDocumentClient(docUrl('nostore'))
    expect(fetches.get('nostore')).toBe(2)
  })

  it('is refused without the development setting (loopback and plain http are not fetched)', async () => {
    forgetMetadataDocument(docUrl('good'))
    delete process.env.OAUTH_ALLOW_LOOPBACK_FETCH
    const before = fetches.get('good') ?? 0
    await expect(resolveMetadataDocumentClient(docUrl('good'))).rejects.toBeInstanceOf(ClientMetadataError)
    const httpsTwin = docUrl('good').replace('http://', 'https://')
    await expect(resolveMetadataDocumentClient(httpsTwin)).rejects.toThrow(/is not a public address the hub can fetch from/)
    expect(fetches.get('good') ?? 0).toBe(before)
  })

  it('is never cached when invalid: a fixed document is picked up at once', async () => {
    await expect(resolveMetadataDocumentClient(docUrl('flaky'))).rejects.toBeInstanceOf(ClientMetadataError)
    expect((await resolveMetadataDocumentClient(docUrl('flaky'))).name).toBe('Chat Demo')
  })
})

describe('wrong documents', () => {
  const expectations: [string, RegExp][] = [
    ['other-client-id', /client_id does not equal its URL/],
    ['no-name', /client_name is required/],
    ['blank-name', /client_name is required/],
    ['reversed-name', /client_name must not contain control characters or marks that reverse the text/],
    ['no-redirects', /redirect_uris must be a non-empty array/],
    ['redirects-not-array', /redirect_uris must be a non-empty array/],
    ['redirect-fragment', /fragment/],
    ['redirect-http-remote', /http on a non-loopback host/],
    ['redirect-javascript', /forbidden scheme/],
    ['secret-basic', /shared secret/],
    ['secret-post', /shared secret/],
    ['secret-jwt', /shared secret/],
    ['no-auth-method', /must be "none"/],
    ['private-key-jwt', /must be "none"/],
    ['with-secret', /must not contain a client secret/],
    ['bad-logo', /logo_uri must be a URL/],
    ['ftp-client-uri', /client_uri must be an https URL/],
    ['not-json', /not valid JSON/],
    ['json-array', /must be a JSON object/],
    ['html-type', /must be JSON/],
    ['over-5kb', /larger than 5120 bytes/],
    ['five-mb', /larger than 5120 bytes/],
    ['redirect', /Redirects are not followed/],
    ['not-found', /HTTP 404/],
    ['gone', /HTTP 410/],
    ['slow', /No complete answer within 500 ms/],
  ]
  for (const [name, message] of expectations) it(name, async () => expect(await refusal(name)).toMatch(message))

  it('does not follow the redirect to the valid document', async () => {
    const before = fetches.get('good') ?? 0
    await refusal('redirect')
    expect(fetches.get('good') ?? 0).toBe(before)
  })
})

describe('client_id URLs', () => {
  const bad: [string, RegExp][] = [
    ['https://app.example', /canonical/],
    ['https://app.example/', /must contain a path/],
    ['https://app.example/a/../oauth-cimd', /dot segments/],
    ['https://app.example/a/%2e%2e/oauth-cimd', /dot segments/],
    ['https://app.example/a/%2E/oauth-cimd', /dot segments/],
    ['https://app.example/.well-known/oauth-cimd#x', /fragment/],
    ['https://user:pw@app.example/.well-known/oauth-cimd', /credentials/],
    ['https://APP.example/.well-known/oauth-cimd', /canonical/],
    ['https://app.example:443/.well-known/oauth-cimd', /canonical/],
    ['https://app.example/.well-known/oauth cimd', /whitespace/],
    ['https://app.example\\@evil.example/x', /backslashes/],
    ['ftp://app.example/x', /must use https/],
    ['https://app.example/' + 'a'.repeat(2001), /too long/],
  ]
  for (const [url, message] of bad) it(`refuses ${url.slice(0, 60)}`, () => expect(clientIdUrlProblem(url)).toMatch(message))

  it('refuses plain http without the development setting', () => {
    delete process.env.OAUTH_ALLOW_LOOPBACK_FETCH
    expect(clientIdUrlProblem('http://127.0.0.1:4000/.well-known/oauth-cimd')).toMatch(/must use https/)
  })

  it('accepts the Hub form {website}/.well-known/oauth-cimd', () => {
    expect(clientIdUrlProblem('https://chat.example/.well-known/oauth-cimd')).toBeNull()
  })
})
