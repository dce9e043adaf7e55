/**
 * Prototype of the serving arrangement proposed in bench/api/RESULTS.md: one process, a node:http
 * server in front; the hot API paths go straight to their route handlers (the same app/.../route.ts
 * functions, Web Request -> Response), everything else to Next's request handler (the production
 * build, as `next start` serves it). For measuring only: `npx tsx bench/api/front.ts <port>`.
 * bench/api/run.ts starts it with BENCH_SERVER=front.
 */
import http from 'node:http'
import path from 'node:path'
import { Readable } from 'node:stream'
import next from 'next'

const root = path.resolve(import.meta.dirname, '../..')
const port = Number(process.argv[2] ?? 3661)

type Route = { method: string; pattern: RegExp; call: (request: Request, match: RegExpExecArray) => Promise<Response> }
const routes: Route[] = [
  { method: 'GET', pattern: /^\/api\/whoami-v2$/, call: (r) => whoami.GET(r) },
  {
    method: 'GET',
    pattern: /^\/api\/(models|datasets|spaces)\/([^/]+)\/([^/]+)$/,
    call: (r, m) => repo.GET(r, { params: Promise.resolve({ repoType: m[1]!, namespace: decodeURIComponent(m[2]!), name: decodeURIComponent(m[3]!) }) }),
  },
  { method: 'POST', pattern: /^\/rai\/v1\/raimoderationmodels\/([^/]+)$/, call: (r, m) => moderation.POST(r, { params: Promise.resolve({ check: m[1]! }) }) },
  { method: 'POST', pattern: /^\/oauth\/token$/, call: (r) => token.POST(r) },
]
// next.config.ts's headers() for every path, which Next would have added.
const SECURITY_HEADERS = { 'x-frame-options': 'DENY', 'content-security-policy': "frame-ancestors 'none'" }

const app = next({ dev: false, dir: root, hostname: '127.0.0.1', port })
await app.prepare()
const nextHandler = app.getRequestHandler()
// After Next has set up its server environment (AsyncLocalStorage), which next/server needs.
const whoami = await import('@/app/api/whoami-v2/route')
const repo = await import('@/app/api/[repoType]/[namespace]/[name]/[[...rest]]/route')
const moderation = await import('@/app/rai/v1/raimoderationmodels/[check]/route')
const token = await import('@/app/oauth/token/route')

async function direct(route: Route, match: RegExpExecArray, req: http.IncomingMessage, res: http.ServerResponse) {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit)
  const response = await route.call(request, match)
  const out: Record<string, string> = { ...SECURITY_HEADERS }
  response.headers.forEach((value, name) => (out[name] = value))
  res.writeHead(response.status, out)
  res.end(Buffer.from(await response.arrayBuffer()))
}

http
  .createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0]!
    for (const route of routes) {
      const match = req.method === route.method ? route.pattern.exec(pathname) : null
      if (match) {
        direct(route, match, req, res).catch((error) => {
          console.error(error)
          if (!res.headersSent) res.writeHead(500)
          res.end()
        })
        return
      }
    }
    void nextHandler(req, res)
  })
  .listen(port, '127.0.0.1')
