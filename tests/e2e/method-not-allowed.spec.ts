// A method a route does not serve, against the served hub (`npm start`: the fast path hands these to
// Next): a 405 in the route's protocol with an Allow header naming what it serves, never Next's bare
// 405 without a body; OPTIONS lists only served methods; HEAD still answers where GET does.
import { expect, test } from '@playwright/test'

const REFUSED: { method: string; path: string; allow: string; body: (json: unknown) => void }[] = [
  { method: 'GET', path: '/oauth/token', allow: 'POST, OPTIONS', body: (j) => expect(j).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('not GET') }) },
  { method: 'PUT', path: '/oauth/userinfo', allow: 'GET, HEAD, POST, OPTIONS', body: (j) => expect(j).toMatchObject({ error: 'invalid_request' }) },
  { method: 'POST', path: '/.well-known/openid-configuration', allow: 'GET, HEAD, OPTIONS', body: (j) => expect(j).toMatchObject({ error: 'invalid_request' }) },
  { method: 'DELETE', path: '/api/whoami-v2', allow: 'GET, HEAD, OPTIONS', body: (j) => expect(j).toEqual({ error: expect.stringMatching(/^Method Not Allowed: \/api\/whoami-v2 answers GET, HEAD, OPTIONS, not DELETE$/) }) },
  { method: 'GET', path: '/api/repos/create', allow: 'POST, OPTIONS', body: (j) => expect(j).toEqual({ error: expect.stringContaining('Method Not Allowed') }) },
  { method: 'PATCH', path: '/api/models/alice/demo', allow: 'GET, HEAD, POST, DELETE, OPTIONS', body: (j) => expect(j).toEqual({ error: expect.stringContaining('not PATCH') }) },
  { method: 'POST', path: '/alice/demo/resolve/main/config.json', allow: 'GET, HEAD, OPTIONS', body: (j) => expect(j).toEqual({ error: expect.stringContaining('not POST') }) },
  { method: 'PUT', path: '/rai/v1/raimoderationmodels/health', allow: 'GET, HEAD, OPTIONS', body: (j) => expect(j).toEqual({ detail: 'Method Not Allowed' }) },
  { method: 'GET', path: '/rai/v1/raimoderationmodels/privacy', allow: 'POST', body: (j) => expect(j).toEqual({ detail: 'Method Not Allowed' }) },
]

test('a method a route does not serve is a 405 in its protocol\'s words, with Allow', async ({ request }) => {
  for (const { method, path, allow, body } of REFUSED) {
    const answer = await request.fetch(path, { method, maxRedirects: 0 })
    expect(answer.status(), `${method} ${path}`).toBe(405)
    expect(answer.headers()['allow'], `${method} ${path}`).toBe(allow)
    expect(answer.headers()['content-type'], `${method} ${path}`).toContain('application/json')
    body(await answer.json())
  }
})

test('OPTIONS names only served methods, and HEAD answers where GET does', async ({ request }) => {
  const options = await request.fetch('/api/health', { method: 'OPTIONS' })
  expect(options.status()).toBe(204)
  expect(options.headers()['allow']).toBe('GET, HEAD, OPTIONS')
  const head = await request.fetch('/api/health', { method: 'HEAD' })
  expect(head.status()).toBe(200)
  const tokenHead = await request.fetch('/oauth/token', { method: 'HEAD' })
  expect([tokenHead.status(), tokenHead.headers()['allow']]).toEqual([405, 'POST, OPTIONS'])
})
