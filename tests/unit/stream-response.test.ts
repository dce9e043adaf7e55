import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { sendNodeBody, streamResponse, takeNodeResponseBody } from '@/lib/http/stream-response'

// A file over three 1 MiB chunks, so the two reused buffers each go round more than once.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stream-response-'))
const file = path.join(dir, 'blob')
const bytes = randomBytes(3 * 1024 * 1024 + 12345)
fs.writeFileSync(file, bytes)
/** Descriptors of this process open on the test file. */
const openOnFile = () =>
  fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file
    } catch {
      return false
    }
  }).length

let server: http.Server
let base = ''
beforeAll(async () => {
  fs.writeFileSync(file, bytes)
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x')
    const start = Number(url.searchParams.get('start') ?? 0)
    const end = Number(url.searchParams.get('end') ?? bytes.length - 1)
    const node = url.pathname === '/generic'
      ? Readable.from([bytes.subarray(0, 10), bytes.subarray(10, 2_000_000)])
      : fs.createReadStream('', { fd: fs.openSync(file, 'r'), start, end, highWaterMark: 1024 * 1024 })
    void sendNodeBody(node, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => {
  server.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('sendNodeBody', () => {
  it('sends a whole file and ranges of it byte for byte, and closes the descriptor', async () => {
    for (const [start, end] of [[0, bytes.length - 1], [5, 1024 * 1024], [1024 * 1024, 2 * 1024 * 1024 - 1], [bytes.length - 1, bytes.length - 1]] as const) {
      const got = Buffer.from(await (await fetch(`${base}/file?start=${start}&end=${end}`)).arrayBuffer())
      expect(got.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true)
    }
    await new Promise((r) => setTimeout(r, 50))
    expect(openOnFile()).toBe(0)
  })

  it('sends any other Node stream as it comes', async () => {
    const got = Buffer.from(await (await fetch(`${base}/generic`)).arrayBuffer())
    expect(got.equals(bytes.subarray(0, 2_000_000))).toBe(true)
  })

  it('stops and closes the file when the client goes away mid-file', async () => {
    await new Promise<void>((resolve) => {
      http.get(`${base}/file`, (res) => {
        res.once('data', () => {
          res.destroy()
          resolve()
        })
      })
    })
    await new Promise((r) => setTimeout(r, 200))
    expect(openOnFile()).toBe(0)
    // The server still answers in full afterwards (no buffer left half-used).
    const got = Buffer.from(await (await fetch(`${base}/file`)).arrayBuffer())
    expect(got.equals(bytes)).toBe(true)
  })
})

describe('streamResponse', () => {
  it('hands the fast path its Node stream once, and Next a web stream of the same bytes', async () => {
    const forFast = streamResponse(Readable.from([Buffer.from('abc')]), { status: 200 })
    expect(takeNodeResponseBody(forFast)).toBeInstanceOf(Readable)
    expect(takeNodeResponseBody(forFast)).toBeNull()
    const forNext = streamResponse(Readable.from([Buffer.from('ab'), Buffer.from('c')]), { status: 206 })
    expect(await forNext.text()).toBe('abc')
    expect(takeNodeResponseBody(forNext)).toBeNull() // read as a web stream: nothing left to take
  })
})
