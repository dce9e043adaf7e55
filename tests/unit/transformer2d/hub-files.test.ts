// Loading a checkpoint over the hub's /resolve/ URLs (hubFiles): a refusal is said in words, as the
// Transformer2D page shows it (it showed {"error":"Repository not found"} and spoke of a token the
// page never uses).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hubFiles } from '@/lib/transformer2d/hub'
import { readConfig } from '@/lib/transformer2d'

let server: http.Server
let hubUrl: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url!.includes('/gated/')) return res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Access to this repo is restricted' }))
    if (req.url!.includes('/plain/')) return res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway')
    res.writeHead(404, { 'content-type': 'application/json', 'x-error-code': 'RepoNotFound' }).end(JSON.stringify({ error: 'Repository not found' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  hubUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

describe('hubFiles refusals', () => {
  it('say the hub\'s error in words, not its JSON', async () => {
    const missing = await readConfig(hubFiles('a/missing', { hubUrl, subfolder: 'transformer' })).catch((e: Error) => e.message)
    expect(missing).toBe('a/missing@main/transformer: config.json: the repo or revision does not exist, or you may not read it (Repository not found).')
    const gated = await readConfig(hubFiles('a/gated', { hubUrl })).catch((e: Error) => e.message)
    expect(gated).toMatch(/no read access: the repo is private or gated .*\(Access to this repo is restricted\)\.$/)
    const plain = await readConfig(hubFiles('a/plain', { hubUrl })).catch((e: Error) => e.message)
    expect(plain).toMatch(/HTTP 502 \(bad gateway\)\.$/)
  })
})
