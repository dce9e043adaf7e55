// Handlers for the git-style paths, shared by the model, dataset and space routes under app/
// (/{ns}/{name}/resolve|raw/..., /datasets/{ns}/{name}/..., /{ns}/{name}.git/info/lfs/...).
import { preflight } from '@/lib/http/cors'
import { queryFlag } from '@/lib/http/query'
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { hubUrl, setting } from '@/lib/config'
import type { RepoType } from '@/lib/hub/names'
import { handle, jsonBody, notFound } from '@/lib/http/errors'
import { fileResponse } from './resolve'
import { lfsBatch, verifyObject } from './lfs'

type FileParams = { params: Promise<{ namespace: string; name: string; rest: string[] }> }
type LfsParams = { params: Promise<{ namespace: string; name: string; action: string }> }

/** The origin clients reached the hub at: HUB_URL when set (behind a proxy), else the request's. */
export function publicOrigin(request: Request): string {
  return setting('HUB_URL') ? hubUrl() : new URL(request.url).origin
}

export function fileRoutes(type: RepoType, mode: 'resolve' | 'raw') {
  const serve = (method: 'GET' | 'HEAD') =>
    handle(async (request: Request, { params }: FileParams) => {
      const { namespace, name, rest } = await params
      if (!rest || rest.length < 2) throw notFound()
      const [revision, ...path] = rest
      const url = new URL(request.url)
      return fileResponse(await callerFromRequest(request), { type, namespace, name }, {
        revision: revision!,
        path: path.join('/'),
        raw: mode === 'raw',
        method,
        range: request.headers.get('range'),
        ifRange: request.headers.get('if-range'),
        ifNoneMatch: request.headers.get('if-none-match'),
        noContentDisposition: url.searchParams.has('noContentDisposition'),
        download: queryFlag(url.searchParams, 'download'),
      })
    }, { cors: true })
  return { GET: serve('GET'), HEAD: serve('HEAD'), OPTIONS: preflight }
}

const LFS_JSON = { 'Content-Type': 'application/vnd.git-lfs+json' }

export function lfsRoutes(type: RepoType) {
  return {
    POST: handle(async (request: Request, { params }: LfsParams) => {
      const { namespace, name: gitName, action } = await params
      if (!gitName.endsWith('.git')) throw notFound()
      const ref = { type, namespace, name: gitName.slice(0, -'.git'.length) }
      const caller = await callerFromRequest(request)
      const body = await jsonBody(request, 1024 * 1024)
      if (action === 'batch') {
        return NextResponse.json(await lfsBatch(caller, ref, body, publicOrigin(request), request.headers.get('authorization')), { headers: LFS_JSON })
      }
      if (action === 'verify') return NextResponse.json(await verifyObject(caller, ref, body), { headers: LFS_JSON })
      throw notFound()
    }, { cors: true }),
    OPTIONS: preflight,
  }
}
