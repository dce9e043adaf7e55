// Where sign-in may send the browser, and which address rate limits count.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { safeNextPath } from '@/lib/http/next-path'
import { addressKey, clientIp } from '@/lib/ratelimit'

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
  afterEach(() => vi.unstubAllEnvs())
  // X-Forwarded-For as the hub's server hands it over: whatever the client sent, then what each
  // proxy appended, then the TCP peer (scripts/serve.mjs).
  const forged = new Headers({ 'x-forwarded-for': '1.2.3.4, 5.6.7.8, 203.0.113.9, 198.51.100.7' })

  it('with no proxy in front (the default), counts the TCP peer and nothing the client wrote', () => {
    expect(clientIp(forged)).toBe('198.51.100.7')
    expect(clientIp(new Headers({ 'x-forwarded-for': '198.51.100.7' }))).toBe('198.51.100.7')
    expect(clientIp(new Headers({ 'x-real-ip': '1.2.3.4' }))).toBe('unknown')
  })
  it('with TRUST_PROXY_HOPS=N, takes the address the outermost of the N proxies appended', () => {
    vi.stubEnv('TRUST_PROXY_HOPS', '1')
    expect(clientIp(forged)).toBe('203.0.113.9')
    vi.stubEnv('TRUST_PROXY_HOPS', '2')
    expect(clientIp(forged)).toBe('5.6.7.8')
  })
  it('counts a peer nobody knew (an empty last entry: a connection reset before its address was read) as unknown, never the entry the client wrote', () => {
    expect(clientIp(new Headers({ 'x-forwarded-for': '203.0.113.7, ' }))).toBe('unknown')
    expect(clientIp(new Headers({ 'x-forwarded-for': '203.0.113.7,' }))).toBe('unknown')
    vi.stubEnv('TRUST_PROXY_HOPS', '1')
    expect(clientIp(new Headers({ 'x-forwarded-for': '203.0.113.7, ' }))).toBe('203.0.113.7') // the proxy's entry, as configured
  })
  it('takes the peer when there are fewer entries than proxies (the request did not come through them)', () => {
    vi.stubEnv('TRUST_PROXY_HOPS', '3')
    expect(clientIp(new Headers({ 'x-forwarded-for': '203.0.113.9, 198.51.100.7' }))).toBe('198.51.100.7')
  })
})

describe('addressKey', () => {
  it('counts an IPv4 address as itself', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7')
    expect(addressKey('unknown')).toBe('unknown')
  })
  it('counts an IPv6 address by its /64, however it is written', () => {
    const key = addressKey('2001:db8:0:1::5')
    expect(key).toBe('2001:db8:0:1::/64')
    for (const same of ['2001:0DB8:0000:0001:ffff:ffff:ffff:ffff', '2001:db8:0:1:1234::', '2001:db8:0:1:0:0:0:9', '2001:db8:0:1::1%eth0']) {
      expect(addressKey(same)).toBe(key)
    }
    expect(addressKey('2001:db8:0:2::5')).not.toBe(key)
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
  })
  it('counts an IPv4 client seen as an IPv4-mapped IPv6 address as its IPv4 address (one /64 was every IPv4 client)', () => {
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(addressKey('::FFFF:c000:0201')).toBe('192.0.2.1')
    expect(addressKey('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('::ffff:198.51.100.9')).not.toBe(addressKey('::ffff:203.0.113.7'))
  })
})
