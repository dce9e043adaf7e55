import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { BASE } from './helpers'

describe('the route handlers', () => {
  let route: typeof import('@/app/rai/v1/raimoderationmodels/[check]/route')
  let openapi: typeof import('@/app/rai/v1/raimoderationmodels/openapi.json/route')

  beforeAll(async () => {
    vi.stubEnv('MODERATION_AUTH', 'off')
    vi.stubEnv('HUB_URL', 'https://hub.test')
    route = await import('@/app/rai/v1/raimoderationmodels/[check]/route')
    openapi = await import('@/app/rai/v1/raimoderationmodels/openapi.json/route')
  })
  afterAll(() => vi.unstubAllEnvs())

  const params = (check: string) => ({ params: Promise.resolve({ check }) })

  it('POST answers with the offline engines and Authorization: None', async () => {
    const request = new Request(`${BASE}/sentimentmodel`, {
      method: 'POST',
      headers: { Authorization: 'None', 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'The book was good.' }),
    })
    const response = await route.POST(request, params('sentimentmodel'))
    expect(response.status).toBe(200)
    expect(response.headers.get('X-Moderation-Engine')).toBe('offline:vader')
    expect((await response.json()).score.compound).toBe(0.4404)
  })

  it('other methods are 405 with Allow: POST (OPTIONS too, as FastAPI answers it)', async () => {
    for (const method of [route.GET, route.PUT, route.PATCH, route.DELETE, route.OPTIONS]) {
      const response = method()
      expect(response.status).toBe(405)
      expect(response.headers.get('Allow')).toBe('POST')
      expect(await response.json()).toEqual({ detail: 'Method Not Allowed' })
    }
  })

  it('serves the OpenAPI document pointing at the hub', async () => {
    const document = await openapi.GET().json()
    expect(document.components.securitySchemes.my_auth.flows.authorizationCode.authorizationUrl).toBe('https://hub.test/api/oauth/dialog')
  })
})
