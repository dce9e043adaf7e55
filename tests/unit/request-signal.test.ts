import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { attachLazySignal } from '@/lib/http/request-signal'

let server: http.Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

/** A server whose one request runs `onRequest`; resolves with its port. */
async function serve(onRequest: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<number> {
  server = http.createServer(onRequest)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

describe('the fast path\'s lazy request.signal', () => {
  it('aborts when the client goes away before the answer', async () => {
    let signal: AbortSignal | undefined
    const aborted = new Promise<unknown>((resolve) => {
      void serve((_req, res) => {
        const request = new Request('http://hub.test/x')
        attachLazySignal(request, res)
        signal = request.signal
        signal.addEventListener('abort', () => resolve(signal!.reason))
      }).then((port) => {
        const client = http.get({ port, host: '127.0.0.1', path: '/' })
        client.on('error', () => {})
        setTimeout(() => client.destroy(), 50)
      })
    })
    expect(String(await aborted)).toContain('the client went away')
    expect(signal!.aborted).toBe(true)
  })

  it('stays unaborted for an answer that was sent, and is aborted at once if read after the client left', async () => {
    const signals: AbortSignal[] = []
    const port = await serve((_req, res) => {
      const sent = new Request('http://hub.test/sent')
      attachLazySignal(sent, res)
      const before = res.listenerCount('close')
      const late = new Request('http://hub.test/late')
      attachLazySignal(late, res)
      // Nothing is made, nor listened for, until the signal is read.
      expect(res.listenerCount('close')).toBe(before)
      res.end('ok', () => signals.push(sent.signal))
    })
    const answer = await fetch(`http://127.0.0.1:${port}/`)
    expect(await answer.text()).toBe('ok')
    await new Promise((r) => setTimeout(r, 20))
    expect(signals[0]!.aborted).toBe(false)

    const gone = new Promise<AbortSignal>((resolve) => {
      server!.removeAllListeners('request')
      server!.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
        const request = new Request('http://hub.test/after')
        attachLazySignal(request, res)
        res.once('close', () => setImmediate(() => resolve(request.signal)))
      })
    })
    const client = http.get({ port, host: '127.0.0.1', path: '/' })
    client.on('error', () => {})
    setTimeout(() => client.destroy(), 50)
    expect((await gone).aborted).toBe(true)
  })
})
