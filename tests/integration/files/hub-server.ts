// The hub the file tests talk to over HTTP. With FILES_TEST_SERVER=next it is the real thing:
// `next start` of the last build (npm run build) on FILES_TEST_PORT (default 3630), on the test's
// database and blob store; with FILES_TEST_SERVER=start it is `npm start` (scripts/serve.mjs: the
// fast path of scripts/front.ts answers resolve, whoami and repo info, Next the rest). Otherwise a test-only HTTP server answers with the route handlers of
// app/ themselves, matched as Next's file-system router matches them (the route table below mirrors
// the folders), which needs no build. Either way @huggingface/hub talks real HTTP, streaming included.
import http from 'node:http'
import { spawn } from 'node:child_process'
import { Readable } from 'node:stream'
import type { AddressInfo } from 'node:net'
import * as repoApi from '@/app/api/[repoType]/[namespace]/[name]/[[...rest]]/route'
import * as repoList from '@/app/api/[repoType]/route'
import * as createRepoRoute from '@/app/api/repos/create/route'
import * as deleteRepoRoute from '@/app/api/repos/delete/route'
import * as whoami from '@/app/api/whoami-v2/route'
import * as uploads from '@/app/api/lfs/uploads/[token]/[[...rest]]/route'
import * as modelResolve from '@/app/[namespace]/[name]/resolve/[...rest]/route'
import * as modelRaw from '@/app/[namespace]/[name]/raw/[...rest]/route'
import * as modelLfs from '@/app/[namespace]/[name]/info/lfs/objects/[action]/route'
import * as datasetResolve from '@/app/datasets/[namespace]/[name]/resolve/[...rest]/route'
import * as datasetRaw from '@/app/datasets/[namespace]/[name]/raw/[...rest]/route'
import * as datasetLfs from '@/app/datasets/[namespace]/[name]/info/lfs/objects/[action]/route'
import * as spaceResolve from '@/app/spaces/[namespace]/[name]/resolve/[...rest]/route'
import * as spaceRaw from '@/app/spaces/[namespace]/[name]/raw/[...rest]/route'
import * as spaceLfs from '@/app/spaces/[namespace]/[name]/info/lfs/objects/[action]/route'

type Handler = (request: Request, context: { params: Promise<Record<string, unknown>> }) => Response | Promise<Response>
type Module = Partial<Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS', Handler>>

/** A route file's exports, whose params types differ per folder, as the router calls them. */
const routeModule = (exports: unknown) => exports as Module

// [pattern, module]: ":x" one segment, ":x*" zero or more, ":x+" one or more; static routes first, as in Next.
const ROUTES: [string, Module][] = [
  ['/api/whoami-v2', routeModule(whoami)],
  ['/api/repos/create', routeModule(createRepoRoute)],
  ['/api/repos/delete', routeModule(deleteRepoRoute)],
  ['/api/lfs/uploads/:token/:rest*', routeModule(uploads)],
  ['/api/:repoType', routeModule(repoList)],
  ['/api/:repoType/:namespace/:name/:rest*', routeModule(repoApi)],
  ['/datasets/:namespace/:name/resolve/:rest+', routeModule(datasetResolve)],
  ['/datasets/:namespace/:name/raw/:rest+', routeModule(datasetRaw)],
  ['/datasets/:namespace/:name/info/lfs/objects/:action', routeModule(datasetLfs)],
  ['/spaces/:namespace/:name/resolve/:rest+', routeModule(spaceResolve)],
  ['/spaces/:namespace/:name/raw/:rest+', routeModule(spaceRaw)],
  ['/spaces/:namespace/:name/info/lfs/objects/:action', routeModule(spaceLfs)],
  ['/:namespace/:name/resolve/:rest+', routeModule(modelResolve)],
  ['/:namespace/:name/raw/:rest+', routeModule(modelRaw)],
  ['/:namespace/:name/info/lfs/objects/:action', routeModule(modelLfs)],
]

function match(pattern: string, segments: string[]): Record<string, unknown> | null {
  const parts = pattern.split('/').filter(Boolean)
  const params: Record<string, unknown> = {}
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (part.endsWith('*') || part.endsWith('+')) {
      const rest = segments.slice(i)
      if (part.endsWith('+') && rest.length === 0) return null
      if (rest.length) params[part.slice(1, -1)] = rest
      return params
    }
    if (i >= segments.length) return null
    if (part.startsWith(':')) params[part.slice(1)] = segments[i]
    else if (part !== segments[i]) return null
  }
  return parts.length === segments.length ? params : null
}

export type HubServer = { url: string; close: () => Promise<void> }

/** Starts the hub with extra environment (blob store, limits) for the server process. */
export async function startHubServer(env: Record<string, string> = {}): Promise<HubServer> {
  const mode = process.env.FILES_TEST_SERVER
  return mode === 'next' || mode === 'start' ? startNext(env, mode) : startInProcess()
}

async function startNext(env: Record<string, string>, mode: 'next' | 'start'): Promise<HubServer> {
  const port = Number(process.env.FILES_TEST_PORT || 3630)
  const [command, args] = mode === 'next' ? ['node_modules/.bin/next', ['start', '-p', String(port), '-H', '127.0.0.1']] : [process.execPath, ['scripts/serve.mjs']]
  const child = spawn(command, args, {
    env: { ...process.env, ...env, PORT: String(port), HUB_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let log = ''
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`next start exited: ${log}`)
    try {
      if ((await fetch(`${url}/api/health`)).ok) break
    } catch {
      // not listening yet
    }
    if (i > 120) throw new Error(`next start did not answer: ${log}`)
    await new Promise((r) => setTimeout(r, 500))
  }
  return {
    url,
    close: async () => {
      process.kill(-child.pid!, 'SIGTERM')
      await new Promise((r) => child.once('exit', r))
    },
  }
}

async function startInProcess(): Promise<HubServer> {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url!, `http://${req.headers.host}`)
      const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent)
      for (const [pattern, module] of ROUTES) {
        const params = match(pattern, segments)
        if (!params) continue
        const handler = module[req.method as keyof Module]
        if (!handler) break
        const headers = new Headers()
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v)
        const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
        const request = new Request(url, {
          method: req.method,
          headers,
          body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
          ...(hasBody ? { duplex: 'half' } : {}),
        } as RequestInit)
        const response = await handler(request, { params: Promise.resolve(params) })
        // An answer given before the body was read (413, 401...) ends the connection, as Node's
        // server would otherwise try to reuse it with the unread body still in the pipe.
        if (hasBody && !req.complete) res.setHeader('Connection', 'close')
        res.writeHead(response.status, Object.fromEntries(response.headers))
        if (response.body && req.method !== 'HEAD') Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res)
        else res.end()
        return
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no route' }))
    } catch (error) {
      console.error(error)
      if (!res.headersSent) res.writeHead(500)
      res.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port: actual } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${actual}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}
