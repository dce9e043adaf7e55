// Where sign-in may send the browser, and which address rate limits count.
import { describe, expect, it, vi } from 'vitest'
import { safeNextPath } from '@/lib/http/next-path'
import { clientIp } from '@/lib/ratelimit'

describe('safeNextPath', () => {
  it('keeps paths on this hub', () => {
    for (const path of ['/', '/settings/tokens', '/oauth/authorize/consent?client_id=a&state=%7B%7D']) expect(safeNextPath(path)).toBe(path)
  })
  it('refuses everything a browser could read as another site', () => {
    for (const bad of ['//evil.com', '/\\evil.com', '/\t/evil.com', '/\n/evil.com', 'https://evil.com', 'evil.com', '', null, undefined, ' /x']) {
      expect(safeNextPath(bad as string)).toBe('/')
    }
  })
})

describe('clientIp', () => {
  it('takes the address the nearest proxy appended, not what the client wrote first', () => {
    expect(clientIp(new Headers({ 'x-forwarded-for': '1.2.3.4, 203.0.113.9' }))).toBe('203.0.113.9')
    expect(clientIp(new Headers({ 'x-forwarded-for': '203.0.113.9' }))).toBe('203.0.113.9')
  })
  it('ignores the header when TRUST_PROXY=0', () => {
    vi.stubEnv('TRUST_PROXY', '0')
    expect(clientIp(new Headers({ 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '198.51.100.1' }))).toBe('198.51.100.1')
    vi.unstubAllEnvs()
  })
})
