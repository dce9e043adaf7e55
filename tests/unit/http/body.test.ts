// The one bounded body reader, over a web body and over the connection's own stream that npm
// start's fast path attaches (lib/http/body attachNodeBody): the same bytes, the same limits.
import { PassThrough, Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { BodyTooLargeError, UnreadableBodyError, attachNodeBody, readBoundedBody, readBoundedText } from '@/lib/http/body'

function fastPathRequest(chunks: string[], headers: Record<string, string> = {}) {
  const node = Readable.from(chunks.map((c) => Buffer.from(c)))
  // The web body would read the same stream; the reader must take the node stream instead.
  const request = new Request('http://hub.test/oauth/token', { method: 'POST', headers, body: 'web body, never read', duplex: 'half' } as RequestInit)
  attachNodeBody(request, node)
  return { request, node }
}

describe('readBoundedBody', () => {
  it('reads a web body', async () => {
    const request = new Request('http://hub.test/x', { method: 'POST', body: 'grant_type=refresh_token' })
    expect(await readBoundedText(request, 100)).toBe('grant_type=refresh_token')
  })

  it('reads the attached connection stream, chunk by chunk, instead of the web body', async () => {
    const { request } = fastPathRequest(['grant_type=', 'authorization_code', '&code=ü'])
    expect(await readBoundedText(request, 100)).toBe('grant_type=authorization_code&code=ü')
  })

  it('refuses a declared length over the limit before reading a byte', async () => {
    const { request, node } = fastPathRequest(['x'.repeat(10)], { 'content-length': '5000' })
    await expect(readBoundedBody(request, 100)).rejects.toBeInstanceOf(BodyTooLargeError)
    expect(node.readableDidRead).toBe(false)
  })

  it('stops a stream that grows past the limit', async () => {
    const { request, node } = fastPathRequest(['x'.repeat(60), 'x'.repeat(60), 'x'.repeat(60)])
    await expect(readBoundedBody(request, 100)).rejects.toBeInstanceOf(BodyTooLargeError)
    expect(node.destroyed).toBe(true)
    const web = new Request('http://hub.test/x', { method: 'POST', body: 'y'.repeat(500) })
    await expect(readBoundedBody(web, 100)).rejects.toBeInstanceOf(BodyTooLargeError)
  })

  it('answers a broken stream as unreadable', async () => {
    const node = new PassThrough()
    const request = new Request('http://hub.test/x', { method: 'POST', body: '', duplex: 'half' } as RequestInit)
    attachNodeBody(request, node)
    node.write('partial')
    setTimeout(() => node.destroy(new Error('client went away')), 5)
    await expect(readBoundedBody(request, 100)).rejects.toBeInstanceOf(UnreadableBodyError)
  })
})
