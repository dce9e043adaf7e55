// Outbound fetch against local servers: loopback is reachable only with the development setting,
// and then redirects, non-200 answers, oversized and slow bodies are still refused.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { fetchOutbound, OutboundFetchError, resolveTarget } from '@/lib/net/outbound'

let server: http.Server
let base: string
const hits: string[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url!)
    switch (req.url) {
      case '/doc':
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=120' })
        return res.end('{"ok":true}')
      case '/redirect':
        res.writeHead(302, { location: '/doc' })
        return res.end()
      case '/missing':
        res.writeHead(404)
        return res.end('no')
      case '/big-declared':
        res.writeHead(200, { 'content-length': String(5 * 1024 * 1024) })
        return res.end(Buffer.alloc(5 * 1024 * 1024, 0x20))
      case '/big-chunked': {
        // No Content-Length: the cap must be enforced while streaming.
        res.writeHead(200, { 'content-type': 'application/json' })
        const chunk = Buffer.alloc(64 * 1024, 0x20)
        let sent = 0
        const pump = () => {
          while (sent < 5 * 1024 * 1024) {
            sent += chunk.length
            if (!res.write(chunk)) return res.once('drain', pump)
          }
          res.end()
        }
        return pump()
      }
      case '/slow':
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{')
        return setTimeout(() => res.end('}'), 3000).unref()
      default:
        res.writeHead(500)
        return res.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

afterEach(() => {
  delete process.env.OAUTH_ALLOW_LOOPBACK_FETCH
})

const allowLoopback = () => (process.env.OAUTH_ALLOW_LOOPBACK_FETCH = '1')

async function failure(promise: Promise<unknown>): Promise<OutboundFetchError> {
  const error = await promise.then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(OutboundFetchError)
  return error as OutboundFetchError
}

describe('fetchOutbound', () => {
  it('fetches a loopback document when the development setting allows it', async () => {
    allowLoopback()
    const res = await fetchOutbound(`${base}/doc`, { maxBytes: 5120 })
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true })
    expect(res.cacheControl).toBe('max-age=120')
  })

  it('refuses the same URL without the setting, before connecting', async () => {
    const before = hits.length
    expect((await failure(fetchOutbound(`${base}/doc`, { maxBytes: 5120 }))).reason).toBe('bad-url')
    expect((await failure(fetchOutbound(`https://127.0.0.1:${new URL(base).port}/doc`, { maxBytes: 5120 }))).reason).toBe('blocked-address')
    expect((await failure(fetchOutbound('https://localhost/doc', { maxBytes: 5120 }))).reason).toBe('blocked-address')
    expect(hits.length).toBe(before)
  })

  it('says the same of a name that does not resolve and one that points inside (no map of internal names)', async () => {
    const inside = await failure(fetchOutbound('https://localhost/doc', { maxBytes: 5120 }))
    const nowhere = await failure(fetchOutbound('https://no-such-host.invalid/doc', { maxBytes: 5120 }))
    expect([inside.reason, nowhere.reason]).toEqual(['blocked-address', 'dns'])
    expect(inside.message.replace('localhost', 'HOST')).toBe(nowhere.message.replace('no-such-host.invalid', 'HOST'))
    expect(inside.message).not.toMatch(/loopback|private|resolve/)
  })

  it('never follows a redirect', async () => {
    allowLoopback()
    const before = hits.length
    expect((await failure(fetchOutbound(`${base}/redirect`, { maxBytes: 5120 }))).reason).toBe('redirect')
    expect(hits.slice(before)).toEqual(['/redirect'])
  })

  it('accepts only 200', async () => {
    allowLoopback()
    expect((await failure(fetchOutbound(`${base}/missing`, { maxBytes: 5120 }))).reason).toBe('status')
  })

  it('caps the size, declared or streamed (5 MB bodies)', async () => {
    allowLoopback()
    expect((await failure(fetchOutbound(`${base}/big-declared`, { maxBytes: 5120 }))).reason).toBe('too-large')
    expect((await failure(fetchOutbound(`${base}/big-chunked`, { maxBytes: 5120 }))).reason).toBe('too-large')
  })

  it('gives up on a slow server at the deadline', async () => {
    allowLoopback()
    const started = Date.now()
    expect((await failure(fetchOutbound(`${base}/slow`, { maxBytes: 5120, timeoutMs: 300 }))).reason).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('refuses other schemes, credentials in URLs, and http to anything but loopback', async () => {
    allowLoopback()
    expect((await failure(fetchOutbound('ftp://example.com/x', { maxBytes: 10 }))).reason).toBe('bad-url')
    expect((await failure(fetchOutbound('https://user:pw@example.com/x', { maxBytes: 10 }))).reason).toBe('bad-url')
    expect((await failure(fetchOutbound('http://93.184.216.34/x', { maxBytes: 10 }))).reason).toBe('bad-url')
    expect((await failure(fetchOutbound('not a url', { maxBytes: 10 }))).reason).toBe('bad-url')
  })

  it('refuses special-use address literals even with the development setting', async () => {
    allowLoopback()
    for (const url of ['https://10.0.0.1/', 'https://169.254.169.254/latest/meta-data', 'https://[::ffff:192.168.0.1]/', 'https://[fd00::1]/', 'https://[64:ff9b::a00:1]/', 'https://100.64.0.1/', 'https://0.0.0.0/']) {
      expect((await failure(fetchOutbound(url, { maxBytes: 10 }))).reason, url).toBe('blocked-address')
    }
  })
})

describe('resolveTarget', () => {
  it('pins the connection to the address it checked', async () => {
    allowLoopback()
    const target = await resolveTarget(`${base}/doc`)
    expect(target.address).toBe('127.0.0.1')
    const named = await resolveTarget(`http://localhost:${new URL(base).port}/doc`)
    expect(['127.0.0.1', '::1']).toContain(named.address)
  })
})
