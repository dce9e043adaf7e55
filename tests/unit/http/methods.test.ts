// refuseOtherMethods: a handler for each method a route does not serve, in its protocol's words,
// with the Allow header naming the served ones (HEAD with GET; OPTIONS always).
import { describe, expect, it } from 'vitest'
import { hubMethodNotAllowed, oauthMethodNotAllowed, refuseOtherMethods } from '@/lib/http/methods'
import { moderationMethodNotAllowed } from '@/lib/moderation/api/errors'

const request = (method: string) => new Request('http://hub.test/oauth/token', { method })

describe('refuseOtherMethods', () => {
  it('refuses every method a POST-only route does not serve, including HEAD, and answers OPTIONS with Allow', async () => {
    const handlers = refuseOtherMethods(['POST'], oauthMethodNotAllowed)
    expect(Object.keys(handlers).sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'PUT'])
    const answer = handlers.GET(request('GET'))
    expect(answer.status).toBe(405)
    expect(answer.headers.get('allow')).toBe('POST, OPTIONS')
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(await answer.json()).toEqual({ error: 'invalid_request', error_description: 'This endpoint answers POST, OPTIONS, not GET' })
    const head = handlers.HEAD(request('HEAD'))
    expect([head.status, head.headers.get('allow'), await head.text()]).toEqual([405, 'POST, OPTIONS', ''])
    const options = handlers.OPTIONS(request('OPTIONS'))
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'POST, OPTIONS'])
  })

  it('leaves HEAD to GET where GET is served, and a route\'s own OPTIONS alone', () => {
    const handlers = refuseOtherMethods(['GET', 'OPTIONS'], hubMethodNotAllowed)
    expect(Object.keys(handlers).sort()).toEqual(['DELETE', 'PATCH', 'POST', 'PUT'])
    expect(handlers.PUT(request('PUT')).headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  it('answers in each protocol\'s words', async () => {
    const hub = refuseOtherMethods(['GET', 'DELETE'], hubMethodNotAllowed).POST(new Request('http://hub.test/api/collections/a/b', { method: 'POST' }))
    expect(await hub.json()).toEqual({ error: 'Method Not Allowed: /api/collections/a/b answers GET, HEAD, DELETE, OPTIONS, not POST' })
    const moderation = refuseOtherMethods(['GET'], moderationMethodNotAllowed).DELETE(request('DELETE'))
    expect([moderation.status, moderation.headers.get('allow'), await moderation.json()]).toEqual([405, 'GET, HEAD, OPTIONS', { detail: 'Method Not Allowed' }])
  })
})
