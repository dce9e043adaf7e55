// The benchmarks' load generator (bench/load.ts `client`) reads answers itself; these run it
// against node:http servers that frame their answers each way a server under test may.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client } from '../../bench/load'

let server: http.Server
let port: number
const connections = new Set<number>()

beforeAll(async () => {
  server = http.createServer((req, res) => {
    connections.add(req.socket.remotePort!)
    const url = new URL(req.url!, 'http://x')
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      switch (url.pathname) {
        case '/length':
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null }))
          return
        case '/chunked': {
          // Several writes without a length: Transfer-Encoding: chunked, split across packets.
          res.writeHead(201, { 'content-type': 'text/plain; charset=utf-8' })
          res.write('héllo ')
          setTimeout(() => {
            res.write('x'.repeat(70_000))
            res.end(' wörld')
          }, 5)
          return
        }
        case '/empty':
          res.writeHead(204).end()
          return
        case '/close':
          res.writeHead(200, { connection: 'close', 'content-length': '2' }).end('ok')
          return
        case '/until-close':
          // HTTP/1.0-style: no length, no chunking, the body ends with the connection.
          res.socket!.end('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nto the end')
          return
        case '/hang-up':
          req.socket.destroy()
          return
        default:
          res.writeHead(404, { 'content-length': '0' }).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(() => {
  server.closeAllConnections()
  server.close()
})

describe('bench load generator client', () => {
  it('reads Content-Length answers, sends headers and a body, and keeps connections alive', async () => {
    connections.clear()
    const request = client(port, 2)
    for (let i = 0; i < 6; i++) {
      const answer = await request('POST', '/length', { authorization: 'Basic eA==', 'content-type': 'text/plain' }, `bödy ${i}`)
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body)).toEqual({ method: 'POST', body: `bödy ${i}`, auth: 'Basic eA==' })
    }
    // One at a time: one connection, used again.
    expect(connections.size).toBe(1)
  })

  it('reads chunked answers split across packets, and answers without a body', async () => {
    const request = client(port, 1)
    const chunked = await request('GET', '/chunked')
    expect(chunked.status).toBe(201)
    expect(chunked.body).toBe(`héllo ${'x'.repeat(70_000)} wörld`)
    expect(await request('GET', '/empty')).toEqual({ status: 204, body: '' })
    const head = await request('HEAD', '/length')
    expect(head).toEqual({ status: 200, body: '' })
    expect((await request('GET', '/length')).status).toBe(200)
  })

  it('opens a new connection after the server closes one, and reads a body that ends with the connection', async () => {
    const request = client(port, 1)
    expect(await request('GET', '/close')).toEqual({ status: 200, body: 'ok' })
    expect(await request('GET', '/until-close')).toEqual({ status: 200, body: 'to the end' })
    expect((await request('GET', '/length')).status).toBe(200)
  })

  it('keeps at most `concurrency` connections, queueing the rest', async () => {
    connections.clear()
    const request = client(port, 3)
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => request('POST', '/length', {}, String(i))))
    expect(answers.map((a) => JSON.parse(a.body).body)).toEqual(Array.from({ length: 30 }, (_, i) => String(i)))
    expect(connections.size).toBeLessThanOrEqual(3)
  })

  it('rejects a request whose connection is closed before the answer, and serves the next on a new one', async () => {
    const request = client(port, 1)
    await expect(request('GET', '/hang-up')).rejects.toThrow('socket hang up')
    expect((await request('GET', '/length')).status).toBe(200)
  })
})
