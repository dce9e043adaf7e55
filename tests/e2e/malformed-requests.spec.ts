// Malformed requests against the served hub (`npm start`: the fast path and Next): every API route,
// with and without a token, gets bodies that are empty, truncated, of the wrong type, nested
// thousands deep, oversized or binary, under several content types, and must answer with a 4xx, a
// redirect or a success, never a 5xx or a dropped connection. It found two defects (deep JSON made
// every moderation check answer 500; a padded form post to /oauth/authorize made a Location header
// no client reads), each now also tested where it was fixed.
import { expect, test } from '@playwright/test'
import { createRepo } from '@huggingface/hub'
import { DEMO, createToken, signIn } from './helpers'

const deep = '['.repeat(5000) + ']'.repeat(5000)
const BODIES: [string, string | undefined][] = [
  ['none', undefined],
  ['empty', ''],
  ['null', 'null'],
  ['array', '[]'],
  ['object', '{}'],
  ['string', '"x"'],
  ['overflowing number', '1e309'],
  ['truncated', '{"a":'],
  ['nested 5000 deep', deep],
  ['prototype keys', '{"__proto__":{"x":1},"constructor":{"prototype":{}}}'],
  ['wrong types', '{"name":1,"text":[],"inputs":{},"files":[1],"title":null,"items":"x","grant_type":["a"],"labels":{}}'],
  ['large', JSON.stringify({ text: 'a'.repeat(300_000), name: 'a'.repeat(3000) })],
  ['control characters', '\u0000\u0001\uffff\ud800'],
  ['form', 'a=1&b=%zz&grant_type=authorization_code&code=%00'],
  ['ndjson', '{"key":"header","value":{"summary":"s"}}\n{"key":"file","value":{"path":"a","content":"@@@"}}'],
]
const CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'application/x-ndjson']
const CHECKS = ['bancodemodel', 'multi_q_net_embedding', 'gibberishmodel', 'invisibletextmodel', 'privacy', 'promptinjectionmodel', 'restrictedtopicmodel', 'sentimentmodel', 'multi-qa-mpnet-model_similarity', 'detoxifymodel', 'no-such-check']

test('no malformed request gets a 5xx or a dropped connection from any API route', async ({ page, baseURL }) => {
  test.setTimeout(300_000)
  await signIn(page, 'alice', DEMO.alice)
  const accessToken = await createToken(page, 'malformed', 'Write')
  const hubUrl = baseURL!
  // Writes land in a repo of the test's own, never in the demo data other tests read.
  const repo = `alice/malformed-${Date.now() % 100000}`
  await createRepo({ repo, accessToken, hubUrl, files: [{ path: 'config.json', content: new Blob(['{}']) }] })
  const targets: [string, string[]][] = [
    ['/api/repos/create', ['POST']],
    ['/api/repos/delete', ['DELETE']],
    ['/api/models?filter=&filter=%00&pipeline_tag=%ff&limit=-5&author=%2e%2e', ['GET']],
    ['/api/spaces?limit=1e99', ['GET']],
    [`/api/models/${repo}`, ['GET']],
    [`/api/models/${repo}/revision/%00`, ['GET']],
    [`/api/models/${repo}/tree/main?cursor=%ff&recursive=1&expand=1`, ['GET']],
    [`/api/models/${repo}/commits/main?p=-1&limit=1e9`, ['GET']],
    [`/api/models/${repo}/preupload/main`, ['POST']],
    [`/api/models/${repo}/paths-info/main`, ['POST']],
    [`/api/models/${repo}/branch/fuzzed`, ['POST', 'DELETE']],
    [`/api/models/${repo}/commit/main`, ['POST']],
    [`/api/models/${repo}/settings`, ['PUT']],
    ['/api/collections', ['GET', 'POST']],
    ['/api/collections/alice/no-such-1', ['GET', 'DELETE']],
    ['/api/collections/alice/no-such-1/items', ['POST']],
    ['/api/lfs/uploads/forged', ['PUT', 'POST']],
    ['/api/oauth/dialog', ['POST']],
    ['/api/transformer2d/open-lab/tiny-transformer2d', ['POST']],
    ['/api/whoami-v2', ['GET']],
    ['/oauth/token', ['POST']],
    ['/oauth/device', ['POST']],
    ['/oauth/userinfo', ['GET', 'POST']],
    ['/oauth/authorize', ['POST']],
    ['/oauth/authorize?client_id=%00&redirect_uri=x&response_type=code&scope=openid', ['GET']],
    ['/organizations/acme-ai/audit/export?format=x&since=zz', ['GET']],
    [`/${repo}/info/lfs/objects/batch`, ['POST']],
    [`/${repo}/resolve/main/config.json`, ['GET']],
    [`/${repo}/raw/main/%2e%2e/x`, ['GET']],
    ...CHECKS.map((check): [string, string[]] => [`/rai/v1/raimoderationmodels/${check}`, ['POST']]),
  ]
  const failures: string[] = []
  let sent = 0
  for (const [url, methods] of targets) {
    for (const method of methods) {
      for (const authorization of [undefined, `Bearer ${accessToken}`]) {
        for (const [name, body] of BODIES) {
          if (method === 'GET' && body !== undefined) continue
          for (const contentType of body === undefined ? [undefined] : CONTENT_TYPES) {
            const headers: Record<string, string> = { origin: hubUrl }
            if (authorization) headers.authorization = authorization
            if (contentType) headers['content-type'] = contentType
            // A GET also gets a Range header no server could satisfy.
            if (method === 'GET') headers.range = 'bytes=99999999-1,-0,abc'
            let status: number | string
            try {
              const response = await fetch(hubUrl + url, { method, headers, body, redirect: 'manual' })
              await response.arrayBuffer()
              status = response.status
            } catch (error) {
              status = String((error as Error & { cause?: { code?: string } }).cause?.code ?? error)
            }
            sent++
            if (typeof status !== 'number' || status >= 500) failures.push(`${method} ${url} (${authorization ? 'token' : 'no token'}, ${name}, ${contentType ?? 'no body'}): ${status}`)
          }
        }
      }
    }
  }
  expect(sent).toBeGreaterThan(2000)
  expect(failures).toEqual([])
})

test('no page answers odd query parameters or paths with a 5xx, signed in or not; a path that is not UTF-8 is a 400', async ({ page, browser }) => {
  test.setTimeout(300_000)
  const pages = [
    '/', '/models', '/datasets', '/spaces', '/alice', '/alice/toxicity-tiny', '/alice/toxicity-tiny/tree/main/%2e%2e', '/alice/toxicity-tiny/commit/zz',
    '/datasets/alice/private-notes', '/spaces/open-lab/moderation-demo', '/collections/alice/no-such', '/collections/new', '/new', '/join', '/login',
    '/oauth/authorize/consent', '/oauth/device/verify', '/operator', '/organizations/acme-ai/apps', '/organizations/acme-ai/apps/no-such',
    '/organizations/acme-ai/audit', '/organizations/acme-ai/settings', '/organizations/new', '/playground', '/rai/v1/raimoderationmodels/docs',
    '/settings/access-requests', '/settings/applications', '/settings/applications/no-such', '/settings/authorized-apps', '/settings/organizations',
    '/settings/profile', '/settings/publishers', '/settings/tokens', '/transformer2d',
  ]
  const queries = [
    '', '?page=-1&p=1e99&limit=-1', '?tab=%00&q=' + 'x'.repeat(5000), '?revision=..%2f..&path=%2e%2e', '?next=//evil.example&callbackUrl=http://evil',
    '?user_code=%ff%fe&code=' + 'A'.repeat(300), '?client_id=%00&redirect_uri=javascript:x', '?since=zz&until=-1&action=%00&cursor=%ff', '?search=%ff&sort=__proto__',
    // Every parameter twice (Next hands a repeated one over as a list).
    '?next=/a&next=/b&type=model&type=dataset&namespace=a&namespace=b&user_code=A&user_code=B&left=a&left=b&joined=a&joined=b&search=a&search=b&done=approved&done=x&client_id=a&client_id=b',
  ]
  const signedOut = await browser.newContext()
  await signIn(page, 'alice', DEMO.alice)
  const failures: string[] = []
  for (const [who, request] of [['signed in', page.request], ['signed out', signedOut.request]] as const) {
    for (const path of pages) {
      for (const query of queries) {
        const response = await request.get(path + query, { maxRedirects: 0 })
        if (response.status() >= 500) failures.push(`${who} GET ${path}${query.slice(0, 60)}: ${response.status()}`)
      }
    }
    for (const path of ['/a%ffb', '/%c3', '/alice/%ff', '/api/models/alice/%ff']) {
      const response = await request.get(path, { maxRedirects: 0 })
      if (response.status() !== 400) failures.push(`${who} GET ${path}: ${response.status()} (expected 400)`)
    }
  }
  await signedOut.close()
  expect(failures).toEqual([])
})

test('an /api/ path no route serves answers a JSON 404 for every method, not the HTML page', async ({ baseURL }) => {
  for (const path of ['/api/collections/foo', '/api/whoami-v2/extra', '/api/lfs/nothing']) {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await fetch(`${baseURL}${path}`, { method })
      expect([res.status, res.headers.get('content-type')], `${method} ${path}`).toEqual([404, 'application/json'])
      expect((await res.json()).error).toMatch(/^Not Found/)
    }
  }
})
