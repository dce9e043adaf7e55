// `npm start`'s fast path (scripts/front.ts) answers the hot API routes without Next's request
// pipeline. The same requests, sent to the test server (fast path on) and to a second `npm start`
// of the same build and database with FAST_PATH=0 (Next answers everything), must get the same
// status, the same headers and the same body. The only difference allowed is framing: the fast
// path sends Content-Length where Next 16 sends a chunked body (the test checks that too, which
// also proves the two servers took different paths).
import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import zlib from 'node:zlib'
import { expect, test } from '@playwright/test'
import { createToken, DEMO, signIn } from './helpers'

const port = Number(process.env.E2E_PORT ?? 3600)
const nextPort = Number(process.env.E2E_NEXT_PORT ?? port + 1)
/** Per connection or per moment, not per answer. */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

type Answer = { status: number; headers: Record<string, string>; body: Buffer }

function send(to: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: to, method, path, headers: { host: `localhost:${port}`, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const out: Record<string, string> = {}
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase()
          out[name] = out[name] === undefined ? res.rawHeaders[i + 1]! : `${out[name]}, ${res.rawHeaders[i + 1]}`
        }
        resolve({ status: res.statusCode!, headers: out, body: Buffer.concat(chunks) })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** The body as text, gunzipped when it was compressed, with what differs per request blanked: the moderation API's timings, and the signed upload URLs of the LFS batch API (a fresh upload id each). */
function content(answer: Answer): string {
  const bytes = answer.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(answer.body) : answer.body
  return bytes
    .toString('utf8')
    // Times that depend on the moment (an upload URL's expiry is to the second: two requests can straddle one).
    .replace(/"(time_taken|modelcalltime|expires_at)":"[^"]*"/g, '"$1":"-"')
    .replace(/\/api\/lfs\/uploads\/[^"]+/g, '/api/lfs/uploads/-')
}

function comparable(answer: Answer) {
  return { status: answer.status, headers: Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !FRAMING.has(name))), body: content(answer) }
}

let nextOnly: ChildProcess
let nextLog = ''

test.beforeAll(async () => {
  nextOnly = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: { ...process.env, PORT: String(nextPort), FAST_PATH: '0', HUB_URL: `http://localhost:${port}`, OAUTH_ALLOW_LOOPBACK_FETCH: '1', SIGN_IN_ATTEMPTS_PER_ADDRESS: '10000', DEVICE_AUTHORIZATIONS_PER_IP: '10000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  nextOnly.stdout!.on('data', (d) => (nextLog += d))
  nextOnly.stderr!.on('data', (d) => (nextLog += d))
  for (let i = 0; i < 240 && !nextLog.includes('listening'); i++) await new Promise((r) => setTimeout(r, 250))
  expect(nextLog).toContain('(fast path off)')
})

test.afterAll(() => {
  nextOnly?.kill('SIGTERM')
})

test('the hot routes answer the same through the fast path and through Next', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page, 'alice', DEMO.alice)
  const read = await createToken(page, 'fast path read', 'Read')
  const write = await createToken(page, 'fast path write', 'Write')
  const json = { 'content-type': 'application/json' }
  const form = { 'content-type': 'application/x-www-form-urlencoded' }
  const gzip = { 'accept-encoding': 'gzip' }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
  const moderation = JSON.stringify({ text: 'What a wonderful day.' })
  // Alice's browser session: read through next-auth, which needs Next's request context.
  const session = { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') }

  // [method, path, headers, body, served by the fast path?]
  const cases: [string, string, Record<string, string>, string | undefined, boolean][] = [
    ['GET', '/api/whoami-v2', bearer(read), undefined, true],
    ['GET', '/api/whoami-v2?x=1', { ...bearer(read), ...gzip }, undefined, true],
    ['GET', '/api/whoami-v2', {}, undefined, true],
    ['GET', '/api/whoami-v2', bearer('hf_not-a-token'), undefined, true],
    ['GET', '/api/whoami-v2', { authorization: 'Basic eDp5' }, undefined, true],
    ['GET', '/api/models/alice/toxicity-tiny', bearer(read), undefined, true],
    ['GET', '/api/models/alice/toxicity-tiny', gzip, undefined, true],
    ['GET', '/api/datasets/alice/private-notes', bearer(read), undefined, true],
    ['GET', '/api/datasets/alice/private-notes', {}, undefined, true],
    ['GET', '/api/models/alice/toxicity-tiny/tree/main', bearer(read), undefined, true],
    ['GET', '/api/models/nobody/nothing', {}, undefined, true],
    ['GET', '/api/spaces/open-lab/moderation-demo', {}, undefined, true],
    ['POST', '/oauth/token', form, 'grant_type=unknown', true],
    ['POST', '/oauth/token', form, '', true],
    ['POST', '/oauth/token', json, '{"grant_type":"refresh_token"}', true],
    ['POST', '/oauth/token', { ...form, authorization: 'Basic bm8tc3VjaC1jbGllbnQ6c2VjcmV0' }, 'grant_type=authorization_code&code=x&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb', true],
    ['POST', '/oauth/token', form, 'grant_type=refresh_token&refresh_token=nope&client_id=nope', true],
    ['POST', '/rai/v1/raimoderationmodels/sentimentmodel', { ...bearer(write), ...json }, moderation, true],
    ['POST', '/rai/v1/raimoderationmodels/sentimentmodel', json, moderation, true],
    ['POST', '/rai/v1/raimoderationmodels/sentimentmodel', { ...bearer(write), ...json }, '{"text":', true],
    ['POST', '/rai/v1/raimoderationmodels/nosuchmodel', { ...bearer(write), ...json }, moderation, true],
    ['GET', '/alice/toxicity-tiny/resolve/main/config.json', {}, undefined, true],
    ['GET', '/alice/toxicity-tiny/resolve/main/config.json', gzip, undefined, true],
    ['GET', '/alice/toxicity-tiny/resolve/main/config.json', { range: 'bytes=0-15' }, undefined, true],
    ['HEAD', '/alice/toxicity-tiny/resolve/main/model.onnx', {}, undefined, true],
    ['GET', '/alice/toxicity-tiny/resolve/main/model.onnx', {}, undefined, true],
    ['GET', '/alice/toxicity-tiny/resolve/main/model.onnx', { range: 'bytes=100-' }, undefined, true],
    ['GET', '/alice/toxicity-tiny/resolve/main/missing.txt', {}, undefined, true],
    // Percent-escapes, as clients send a branch's slash and a path's spaces or letters: decoded per segment, as Next does.
    ['GET', '/alice/toxicity-tiny/resolve/%6Dain/config%2Ejson', {}, undefined, true],
    ['HEAD', '/alice/toxicity-tiny/resolve/main/model%2Eonnx', {}, undefined, true],
    ['GET', '/alice/toxicity-tiny/resolve/main%2Fx/config.json', {}, undefined, true],
    ['GET', '/alice/toxicity-tiny/resolve/main/no%20such%20%C3%BCnicode.txt', {}, undefined, true],
    ['GET', '/alice/toxicity-tiny/resolve/main/%2E%2E/config.json', {}, undefined, false], // Next resolves the dot segment first
    ['GET', '/alice/toxicity-tiny/resolve/main/config.json', { 'if-none-match': '"not-its-etag"' }, undefined, true],
    ['GET', '/datasets/alice/private-notes/resolve/main/README.md', {}, undefined, true],
    ['GET', '/datasets/alice/private-notes/resolve/main/README.md', bearer(read), undefined, true],
    ['POST', '/api/models/alice/toxicity-tiny/preupload/main', { ...bearer(write), ...json }, '{"files":[{"path":"notes.txt","size":3,"sample":"YWJj"},{"path":"w.bin","size":20000000,"sample":"AAAA"}]}', true],
    ['POST', '/api/models/alice/toxicity-tiny/preupload/main', { ...bearer(read), ...json }, '{"files":[]}', true],
    ['POST', '/api/models/alice/toxicity-tiny/paths-info/main', { ...bearer(read), ...json }, '{"paths":["config.json","nope"],"expand":true}', true],
    ['POST', '/api/models/alice/toxicity-tiny/commit/main', { ...bearer(write), 'content-type': 'application/x-ndjson' }, '{"key":"header"}\n', true],
    ['POST', '/api/models/alice/toxicity-tiny/commit/main', { 'content-type': 'application/x-ndjson' }, '', true],
    ['DELETE', '/api/models/alice/toxicity-tiny/branch/no-such-branch', bearer(read), undefined, true],
    ['POST', '/alice/toxicity-tiny.git/info/lfs/objects/batch', { ...bearer(write), 'content-type': 'application/vnd.git-lfs+json' }, '{"operation":"upload","transfers":["basic"],"objects":[{"oid":"' + '0'.repeat(64) + '","size":3}]}', true],
    ['POST', '/datasets/alice/private-notes.git/info/lfs/objects/batch', { 'content-type': 'application/vnd.git-lfs+json' }, '{"operation":"download","objects":[]}', true],
    ['PUT', '/api/lfs/uploads/not-a-token', { 'content-type': 'application/octet-stream' }, 'abc', true],
    ['PUT', '/api/lfs/uploads/not-a-token/part/1', { 'content-type': 'application/octet-stream' }, 'abc', true],
    ['POST', '/api/lfs/uploads/not-a-token/complete', json, '{"oid":"x","parts":[]}', true],
    // Not plain, or another route: Next answers both (a redirect, a static route, a page).
    ['GET', '/api/whoami-v2/', bearer(read), undefined, false],
    ['POST', '/rai/v1/raimoderationmodels/health', json, moderation, false],
    ['GET', '/api/models/alice/toxicity%2Dtiny', {}, undefined, true],
    ['DELETE', '/api/whoami-v2', bearer(read), undefined, false],
    ['GET', '/datasets/alice/private-notes/resolve/main/README.md', session, undefined, false],
    ['GET', '/api/datasets/alice/private-notes', session, undefined, false],
    ['GET', '/api/whoami-v2', session, undefined, false],
    // What proxy.ts (Next's request filter) sees goes through Next: a server action's header, a multipart post.
    ['POST', '/oauth/token', { ...form, 'next-action': 'x', origin: 'http://evil.test' }, 'grant_type=unknown', false],
    ['POST', '/rai/v1/raimoderationmodels/sentimentmodel', { ...bearer(write), 'content-type': 'multipart/form-data; boundary=x' }, '--x--', false],
  ]
  for (const [method, path, headers, body, fast] of cases) {
    const label = `${method} ${path}`
    const viaFront = await send(port, method, path, headers, body)
    const viaNext = await send(nextPort, method, path, headers, body)
    expect(comparable(viaFront), label).toEqual(comparable(viaNext))
    // Next 16 never sends a route's Content-Length; the fast path sends the body's length unless
    // it is gzipped (then both stream it chunked, as the compression middleware writes it).
    const hasBody = method !== 'HEAD' && viaNext.body.length > 0
    if (fast && hasBody && !viaFront.headers['content-encoding']) {
      expect(viaFront.headers['content-length'], label).toBe(String(viaFront.body.length))
      expect(viaNext.headers['transfer-encoding'], label).toBe('chunked')
    }
    if (!fast) expect(viaFront.headers['content-length'], label).toBe(viaNext.headers['content-length'])
  }

  // A download says its length, HEAD included (the file clients show progress for), its URL escaped or not.
  const got = await send(port, 'GET', '/alice/toxicity-tiny/resolve/main/model.onnx')
  expect(got.status).toBe(200)
  for (const path of ['/alice/toxicity-tiny/resolve/main/model.onnx', '/alice/toxicity-tiny/resolve/%6Dain/model%2Eonnx']) {
    const head = await send(port, 'HEAD', path)
    expect(head.headers['content-length'], path).toBe(String(got.body.length))
  }
  // A 304 says no length: it would be the file's (RFC 9110 8.6), as Next says none.
  const notModified = await send(port, 'GET', '/alice/toxicity-tiny/resolve/main/config.json', { 'if-none-match': got.headers.etag ?? '' })
  const config = await send(port, 'GET', '/alice/toxicity-tiny/resolve/main/config.json')
  const revalidated = await send(port, 'GET', '/alice/toxicity-tiny/resolve/main/config.json', { 'if-none-match': config.headers.etag! })
  expect(revalidated.status).toBe(304)
  expect(revalidated.headers['content-length']).toBeUndefined()
  expect(notModified.status).toBe(200)
})
