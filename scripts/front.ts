// The fast path of `npm start` (issues 16 and 14): the hot API routes and file transfers go
// straight to their route handlers, without Next's request pipeline, which costs about 1 ms of CPU
// per request before any of the hub's code runs (bench/api/RESULTS.md). Everything else (pages,
// server actions, every other route, what proxy.ts would see, a browser's session requests, any
// request this module is not sure about) goes to Next unchanged.
//
// The handlers are not a second copy: this module requires the route entries of Next's own
// production build (.next/server/app/**/route.js, on a route's first request) and calls the
// exported GET/POST/HEAD/PUT of the route module Next itself loads for that route (Node's require
// cache hands both the same instance), so lib/'s caches, rate-limit slices and write-behind
// buffers are the ones Next uses.
// Process-wide state shared with other bundle layers (server actions) lives on globalThis
// (lib/config/process-state.ts).
//
// What Next does around a route handler and this module repeats, so that answers are the same
// (tests/e2e/fast-path.spec.ts compares both, header by header):
// - routing: the build's routes-manifest (static routes first, then the dynamic ones in Next's
//   order, public files before both); a path that is not plain (percent-escapes, a trailing
//   slash, `.` segments, `//`) goes to Next, which normalizes or redirects it;
// - the request: `http://localhost:{port}{url}` (https when X-Forwarded-Proto says so), the node
//   headers appended one by one, a signal aborted when the client goes away (made when read:
//   lib/http/request-signal); the body is the
//   connection's stream, read through lib/http/body (a handler that reads `request.body` itself
//   would find none: tests/unit/architecture.test.ts keeps every read in lib/http/body);
// - the response: next.config's headers() from the manifest, Next's Vary for app routes, the
//   handler's headers (only appended where none of that name was set, as Next's sendResponse),
//   gzip through the compression middleware Next uses, the body streamed with back-pressure;
//   a thrown error is a bare 500, as Next answers it.
// One difference, on purpose: Next 16 drops a handler's Content-Length; here it is kept, so a
// file download (resolve, HEAD included) says its length and clients can show progress.
//
// Built by `npm run build` (scripts/build-front.mjs) into {distDir}/front.mjs; scripts/serve.mjs
// loads it. FAST_PATH=0 turns it off.
import fs from 'node:fs'
import type http from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'
import { setting } from '@/lib/config/settings'
import { attachNodeBody } from '@/lib/http/body'
import { attachLazySignal } from '@/lib/http/request-signal'
import { drained, sendNodeBody, takeNodeResponseBody } from '@/lib/http/stream-response'

/** The routes served here (their Next page names) and the methods, each a hot path of issue 16. */
export const FAST_ROUTES: Readonly<Record<string, readonly string[]>> = {
  '/oauth/token': ['POST'],
  '/api/whoami-v2': ['GET'],
  // Repo info, tree, commits (GET); preupload, paths-info, commit, branches (POST, DELETE).
  '/api/[repoType]/[namespace]/[name]/[[...rest]]': ['GET', 'POST', 'DELETE'],
  '/rai/v1/raimoderationmodels/[check]': ['POST'],
  '/[namespace]/[name]/resolve/[...rest]': ['GET', 'HEAD'],
  '/datasets/[namespace]/[name]/resolve/[...rest]': ['GET', 'HEAD'],
  '/spaces/[namespace]/[name]/resolve/[...rest]': ['GET', 'HEAD'],
  // The LFS batch API, and the upload URLs it hands out (streamed request bodies).
  '/[namespace]/[name]/info/lfs/objects/[action]': ['POST'],
  '/datasets/[namespace]/[name]/info/lfs/objects/[action]': ['POST'],
  '/spaces/[namespace]/[name]/info/lfs/objects/[action]': ['POST'],
  '/api/lfs/uploads/[token]/[[...rest]]': ['PUT', 'POST'],
}

type Params = Record<string, string | string[]>
type Handler = (request: Request, context: { params: Promise<Params> }) => Promise<Response>
type ManifestRoute = { page: string; regex: string; namedRegex?: string; routeKeys?: Record<string, string> }
type RoutesManifest = {
  staticRoutes: ManifestRoute[]
  dynamicRoutes: ManifestRoute[]
  headers: { regex: string; headers: { key: string; value: string }[] }[]
  redirects: unknown[]
  rewrites: unknown
  basePath: string
}
type Condition = { type: string; key: string; value?: string }
type Matcher = { regexp: string; has?: Condition[]; missing?: Condition[] }
type DynamicRoute = { page: string; regex: RegExp; keys: { group: string; name: string; repeat: boolean }[] }
type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void

export type FrontOptions = {
  /** Next's build folder (.next, or NEXT_DIST_DIR). */
  distDir: string
  /** The public/ folder: a file there is served by Next before any route. */
  publicDir: string
  port: number
  /** As given to next(): Next builds a route's request URL from it ('localhost' by default). */
  hostname?: string
  /** Next's request handler, for a request this module took and then finds it has no handler for. */
  next: (req: http.IncomingMessage, res: http.ServerResponse) => unknown
}

export type Front = {
  /** Answers the request and returns true, or returns false and leaves it untouched for Next. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean
}

/**
 * A path the fast path takes at all: plain segments, percent-escapes included (a client encodes a
 * branch's slash, `feat%2Fx`, and every space or non-ASCII letter of a file's path: its downloads
 * need their length too). Each parameter is decoded segment by segment, as Next's route matcher
 * decodes them. Everything else (a trailing slash, `.` segments, `//`) Next normalizes or redirects.
 */
const PLAIN_PATH = /^(?:\/(?:[A-Za-z0-9_~-]|%[0-9A-Fa-f]{2})(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})*)+$/
/** A `.` or `..` segment, escaped or not: Next resolves those (an escaped one as well) before routing. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|$)/i

/** Next's Vary for an app route (base-server setVaryHeader: no interception routes in this app). */
const APP_VARY = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch'
/** Headers Next's sendResponse never copies from a route's Response (framing it sets itself). */
const FORBIDDEN = new Set(['content-encoding', 'transfer-encoding'])
const MULTIPLE = new Set(['set-cookie', 'www-authenticate', 'proxy-authenticate', 'vary'])

function publicFiles(dir: string): Set<string> {
  const found = new Set<string>()
  const walk = (at: string, prefix: string) => {
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(at, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (entry.isDirectory()) walk(path.join(at, entry.name), `${prefix}/${entry.name}`)
      else found.add(`${prefix}/${entry.name}`)
    }
  }
  walk(dir, '')
  return found
}

function readJson<T>(file: string): T | null {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T) : null
}

/** A has/missing condition of a matcher, as Next's matchHas reads it; any but a header counts as met (Next then decides). */
function condition(c: Condition, req: http.IncomingMessage): boolean {
  if (c.type !== 'header') return true
  const value = req.headers[c.key.toLowerCase()]
  if (value === undefined) return false
  if (c.value === undefined) return true
  return new RegExp(`^${c.value}$`).test(Array.isArray(value) ? value.join(', ') : value)
}

function dynamicRoute(route: ManifestRoute): DynamicRoute {
  const segments = route.page.split('/')
  return {
    page: route.page,
    regex: new RegExp(route.namedRegex ?? route.regex),
    keys: Object.keys(route.routeKeys ?? {}).map((group) => {
      const name = group.replace(/^nxtP/, '')
      return { group, name, repeat: segments.some((s) => s === `[...${name}]` || s === `[[...${name}]]`) }
    }),
  }
}

/** Null when FAST_PATH is off or the build has no manifest (then every request goes to Next). */
export async function createFront(options: FrontOptions): Promise<Front | null> {
  if (!setting('FAST_PATH')) return null
  const manifestFile = path.join(options.distDir, 'routes-manifest.json')
  if (!fs.existsSync(manifestFile)) return null
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as RoutesManifest
  // Routing this module would have to repeat: none today. If next.config gains any, Next serves all.
  const rewrites = manifest.rewrites as { beforeFiles?: unknown[]; afterFiles?: unknown[]; fallback?: unknown[] } | unknown[]
  const rewriteCount = Array.isArray(rewrites) ? rewrites.length : (rewrites.beforeFiles?.length ?? 0) + (rewrites.afterFiles?.length ?? 0) + (rewrites.fallback?.length ?? 0)
  const customRedirects = manifest.redirects.filter((r) => !(r as { internal?: boolean }).internal)
  if (manifest.basePath || rewriteCount > 0 || customRedirects.length > 0) return null
  // Next's request filter (proxy.ts): a request it would see goes to Next. Edge middleware is not
  // repeated here: with any, Next serves everything.
  const edge = readJson<{ middleware?: Record<string, unknown> }>(path.join(options.distDir, 'server/middleware-manifest.json'))
  if (Object.keys(edge?.middleware ?? {}).length > 0) return null
  const functions = readJson<{ functions?: Record<string, { matchers?: Matcher[] }> }>(path.join(options.distDir, 'server/functions-config-manifest.json'))
  const proxyMatchers = (functions?.functions?.['/_middleware']?.matchers ?? []).map((m) => ({ ...m, regex: new RegExp(m.regexp) }))
  const proxySees = (req: http.IncomingMessage, pathname: string) =>
    proxyMatchers.some((m) => m.regex.test(pathname) && (m.has ?? []).every((c) => condition(c, req)) && !(m.missing ?? []).some((c) => c.type === 'header' && condition(c, req)))
  const config = (JSON.parse(fs.readFileSync(path.join(options.distDir, 'required-server-files.json'), 'utf8')) as { config: { compress?: boolean } }).config

  const staticPages = new Set(manifest.staticRoutes.map((r) => r.page))
  const dynamicRoutes = manifest.dynamicRoutes.map(dynamicRoute)
  const files = publicFiles(options.publicDir)
  const configHeaders = manifest.headers.map((h) => ({ regex: new RegExp(h.regex), headers: h.headers }))

  // The route modules of Next's build, each loaded on its first request as Next loads it (the
  // moderation route pulls in its engines: loading them all at start would cost every process
  // their memory whether it serves them or not).
  const requireBuilt = createRequire(path.join(options.distDir, 'server', 'front.js'))
  const entries = new Map<string, string>()
  for (const page of Object.keys(FAST_ROUTES)) {
    const entry = path.join(options.distDir, 'server', 'app', page, 'route.js')
    if (fs.existsSync(entry)) entries.set(page, entry)
  }
  const loaded = new Map<string, Promise<Record<string, unknown>>>()
  function userland(page: string): Promise<Record<string, unknown>> {
    let loading = loaded.get(page)
    if (!loading) {
      loading = (async () => {
        const routeModule = (requireBuilt(entries.get(page)!) as { routeModule: { ensureUserland(): Promise<void>; userland: Record<string, unknown> } }).routeModule
        await routeModule.ensureUserland()
        return routeModule.userland
      })()
      loading.catch(() => loaded.delete(page))
      loaded.set(page, loading)
    }
    return loading
  }
  const compression = requireBuilt('next/dist/compiled/compression') as () => Middleware
  const { releaseCompressionStream } = requireBuilt('next/dist/server/lib/release-compression-stream') as { releaseCompressionStream(res: http.ServerResponse): void }
  const compress = config.compress !== false ? compression() : null
  const origin = (req: http.IncomingMessage) =>
    `${req.headers['x-forwarded-proto']?.includes('https') ? 'https' : 'http'}://${options.hostname ?? 'localhost'}:${options.port}`

  function route(method: string, pathname: string): { page: string; params: Params } | null {
    if (!PLAIN_PATH.test(pathname) || DOT_SEGMENT.test(pathname)) return null
    if (files.has(pathname) || pathname.startsWith('/_next/')) return null
    let page: string | null = null
    let params: Params = {}
    if (staticPages.has(pathname)) page = pathname
    else {
      for (const candidate of dynamicRoutes) {
        const match = candidate.regex.exec(pathname)
        if (!match) continue
        page = candidate.page
        for (const key of candidate.keys) {
          const value = match.groups?.[key.group]
          if (value === undefined) continue
          try {
            params[key.name] = key.repeat ? value.split('/').map(decodeURIComponent) : decodeURIComponent(value)
          } catch {
            return null // not UTF-8 (scripts/serve.mjs answers those first): Next's to refuse
          }
        }
        break
      }
    }
    if (!page || !entries.has(page) || !FAST_ROUTES[page]!.includes(method)) return null
    return { page, params }
  }

  async function answer(handler: Handler, params: Params, req: http.IncomingMessage, res: http.ServerResponse) {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue
      if (Array.isArray(value)) for (const v of value) headers.append(name, v)
      else headers.append(name, value)
    }
    // The body is the connection's own stream, which every handler here reads through lib/http/body
    // (readBoundedBody, requestBodyStream); the Request carries none. A web body over `req` made a
    // web stream per request that nothing read: 2-3% of a token exchange's CPU (bench/oauth/RESULTS.md).
    const request = new Request(origin(req) + req.url, { method: req.method, headers })
    // Aborted when the client goes away, as Next's is; made only if the handler reads it.
    attachLazySignal(request, res)
    if (req.method !== 'GET' && req.method !== 'HEAD') attachNodeBody(request, req)

    let response: Response
    try {
      response = await handler(request, { params: Promise.resolve(params) })
      if (!(response instanceof Response)) throw new Error('a route handler returned no Response')
    } catch (error) {
      console.error(error)
      if (!res.headersSent) res.statusCode = 500
      res.end()
      return
    }
    res.statusCode = response.status
    res.statusMessage = response.statusText || res.statusMessage
    const pathname = (req.url ?? '/').split('?')[0]!
    for (const rule of configHeaders) if (rule.regex.test(pathname)) for (const h of rule.headers) res.setHeader(h.key, h.value)
    res.appendHeader('vary', APP_VARY)
    response.headers.forEach((value, name) => {
      if (FORBIDDEN.has(name)) return
      if (name === 'set-cookie') return
      if (MULTIPLE.has(name) || res.getHeader(name) === undefined) res.appendHeader(name, value)
    })
    for (const cookie of response.headers.getSetCookie()) res.appendHeader('set-cookie', cookie)
    // Next never has a Content-Length here, so its compression middleware gzips any compressible
    // answer a client accepts gzip for: the length stays off until the middleware has decided, and
    // comes back (the handler's, or a one-chunk body's) only on an answer it left uncompressed.
    const declared = res.getHeader('content-length')
    res.removeHeader('content-length')
    // A file download's own Node stream goes to the socket as it is (lib/http/stream-response).
    const node = takeNodeResponseBody(response)
    const reader = node ? undefined : response.body?.getReader()
    const first: Read = reader ? await reader.read() : { done: true, value: undefined }
    const second: Read = reader && !first.done ? await reader.read() : { done: true, value: undefined }
    const length = declared ?? (node ? undefined : second.done ? (first.done ? 0 : first.value.byteLength) : undefined)
    const writeHead = res.writeHead
    res.writeHead = function (this: http.ServerResponse, ...args: Parameters<http.ServerResponse['writeHead']>) {
      // Not on a 304: its length would be the 200's (RFC 9110 8.6), which the answer does not know.
      if (length !== undefined && !this.getHeader('content-encoding') && this.statusCode !== 304) this.setHeader('content-length', length)
      return writeHead.apply(this, args)
    } as http.ServerResponse['writeHead']
    // A file download goes out as stored (the Hub does not gzip its files either).
    if (compress && !node) {
      compress(req, res, () => {})
      res.once('close', () => {
        if (!res.writableFinished) releaseCompressionStream(res)
      })
    }
    if (node) await sendNodeBody(node, res)
    else await send(reader, first, second, res)
  }

  return {
    handle(req, res) {
      const method = req.method ?? 'GET'
      if (method !== 'GET' && method !== 'POST' && method !== 'HEAD' && method !== 'PUT' && method !== 'DELETE') return false
      const url = req.url ?? '/'
      const q = url.indexOf('?')
      const pathname = q === -1 ? url : url.slice(0, q)
      const found = route(method, pathname)
      if (!found || proxySees(req, pathname)) return false
      // A browser's session (cookies, no Authorization) is read through next-auth, which needs
      // Next's request context (headers()): those requests are Next's. API clients send a token.
      if (req.headers.cookie && !req.headers.authorization) return false
      userland(found.page)
        .then((module) => {
          const handler = module[method]
          // A method the route does not export: Next answers (405, or its automatic HEAD/OPTIONS).
          if (typeof handler !== 'function') return options.next(req, res)
          return answer(handler as Handler, found.params, req, res)
        })
        .catch((error) => {
          console.error(error)
          if (!res.headersSent) res.statusCode = 500
          res.end()
        })
      return true
    },
  }
}

type Read = ReadableStreamReadResult<Uint8Array>

/** The body, streamed with back-pressure (write, then end, as Next's pipe does). */
async function send(reader: ReadableStreamDefaultReader<Uint8Array> | undefined, first: Read, second: Read, res: http.ServerResponse) {
  if (!reader || first.done) {
    res.end()
    return
  }
  let chunk = first.value
  let next = second
  try {
    for (;;) {
      if (res.destroyed) {
        await reader.cancel()
        return
      }
      if (!res.write(chunk)) await drained(res)
      if (next.done) break
      chunk = next.value
      next = await reader.read()
    }
    res.end()
  } catch (error) {
    await reader.cancel(error).catch(() => {})
    res.destroy(error as Error)
  }
}
