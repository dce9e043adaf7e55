// /api/{models|datasets|spaces}/{namespace}/{name}[/...]: repo info and its files (lib/hub/files).
//   GET    (none) | revision/{rev}            repo info: sha for who may see it, siblings for readers (blobs=True: ids, sizes, LFS)
//   GET    tree/{rev}/{path}                  file listing (recursive, expand; Link for the next page)
//   GET    commits/{rev}                      history (X-Total-Count, Link)
//   GET    refs                               branches
//   POST   preupload/{rev} | commit/{rev} | paths-info/{rev} | branch/{name}
//   DELETE branch/{name}
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { authorizedRepo, repoInfoJson } from '@/lib/hub/repos'
import { repoPath, repoTypeFromPlural } from '@/lib/hub/names'
import { repoDecision } from '@/lib/policy'
import { badRequest, boundedText, handle, jsonBody, notFound, unauthorized } from '@/lib/http/errors'
import { isTrueFlag, queryFlag, queryInteger } from '@/lib/http/query'
import { preflight } from '@/lib/http/cors'
import { clientIp } from '@/lib/ratelimit'
import {
  DEFAULT_BRANCH,
  createBranch,
  createCommit,
  deleteBranch,
  listCommits,
  MAX_COMMITS_PAGE,
  listRefs,
  listTree,
  pathsInfo,
  preupload,
  readCommitBody,
  repoAccess,
  revisionSummary,
} from '@/lib/hub/files'
import { publicOrigin } from '@/lib/hub/files/routes'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

/** The request's URL on the hub's public origin: the base of the Link headers clients follow. */
function publicUrl(request: Request): URL {
  const url = new URL(request.url)
  return new URL(`${url.pathname}${url.search}`, publicOrigin(request))
}

/**
 * paths-info's body: JSON from @huggingface/hub, a form from huggingface_hub (`paths` repeated,
 * `expand=True`), as the Hub accepts both.
 */
async function pathsInfoBody(request: Request): Promise<{ paths?: unknown; expand?: unknown }> {
  if (!request.headers.get('content-type')?.toLowerCase().startsWith('application/x-www-form-urlencoded')) return jsonBody(request, 1024 * 1024)
  const form = new URLSearchParams(await boundedText(request, 1024 * 1024))
  return { paths: form.getAll('paths'), expand: isTrueFlag(form.get('expand')) }
}

type Params = { params: Promise<{ repoType: string; namespace: string; name: string; rest?: string[] }> }

async function target(params: Params['params']) {
  const { repoType, namespace, name, rest = [] } = await params
  const type = repoTypeFromPlural(repoType)
  if (!type) throw notFound()
  return { ref: { type, namespace, name }, action: rest[0], args: rest.slice(1) }
}

export const GET = handle(async (request: Request, { params }: Params) => {
  const { ref, action, args } = await target(params)
  const caller = await callerFromRequest(request)
  const url = new URL(request.url)
  if (action === undefined || (action === 'revision' && args.length >= 1)) {
    const { repo, ctx } = await authorizedRepo(caller, ref.type, ref.namespace, ref.name, 'view')
    const mayRead = repoDecision(caller, 'read', repo, ctx) === 'allow'
    const revision = action === 'revision' ? args.join('/') : DEFAULT_BRANCH
    const summary = await revisionSummary(repo.id, revision, { blobs: queryFlag(url.searchParams, 'blobs') })
    return NextResponse.json(repoInfoJson(repo, mayRead ? summary : { ...summary, siblings: null }, summary.cardData))
  }
  if (action === 'tree' && args.length >= 1) {
    const { items, link } = await listTree(caller, ref, {
      segments: args,
      recursive: queryFlag(url.searchParams, 'recursive'),
      expand: queryFlag(url.searchParams, 'expand'),
      cursor: url.searchParams.get('cursor'),
      url: publicUrl(request),
    })
    return NextResponse.json(items, { headers: link ? { Link: link } : undefined })
  }
  if (action === 'commits' && args.length >= 1) {
    const { commits, total, link } = await listCommits(caller, ref, {
      revision: args.join('/'),
      limit: queryInteger(url.searchParams, 'limit', { min: 1, max: MAX_COMMITS_PAGE, fallback: 50 }),
      page: queryInteger(url.searchParams, 'p', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 }),
      url: publicUrl(request),
    })
    return NextResponse.json(commits, { headers: { 'X-Total-Count': String(total), ...(link ? { Link: link } : {}) } })
  }
  if (action === 'refs' && args.length === 0) return NextResponse.json(await listRefs(caller, ref))
  throw notFound()
}, { cors: true })

export const POST = handle(async (request: Request, { params }: Params) => {
  const { ref, action, args } = await target(params)
  if (args.length < 1) throw notFound()
  const revision = args.join('/')
  const caller = await callerFromRequest(request)
  // A client asking for a pull request (create_pr=1 on preupload and commit) must not have its
  // change land on the branch: this hub has no pull requests, so it says so before any upload.
  if ((action === 'preupload' || action === 'commit') && queryFlag(new URL(request.url).searchParams, 'create_pr')) {
    throw badRequest('This hub has no pull requests (create_pr): commit to a branch of your own (createBranch) instead')
  }
  switch (action) {
    case 'preupload':
      return NextResponse.json(await preupload(caller, ref, revision, await jsonBody(request, 1024 * 1024)))
    case 'paths-info':
      return NextResponse.json(await pathsInfo(caller, ref, revision, await pathsInfoBody(request)))
    case 'branch':
      await createBranch(caller, ref, revision, await jsonBody(request, 64 * 1024).catch(() => ({})))
      return NextResponse.json({ success: true })
    case 'commit': {
      const { repo } = await repoAccess(caller, ref, 'write')
      if (!caller) throw unauthorized('Authentication required')
      const { header, operations } = await readCommitBody(request, repo.id)
      const { commitId } = await createCommit(caller, repo, revision, header, operations, { ip: clientIp(request.headers) })
      return NextResponse.json({
        success: true,
        commitOid: commitId,
        commitUrl: `${publicOrigin(request)}${repoPath(ref.type, repo.namespace, repo.name)}/commit/${commitId}`,
        hookOutput: '',
      })
    }
    default:
      throw notFound()
  }
}, { cors: true })

export const DELETE = handle(async (request: Request, { params }: Params) => {
  const { ref, action, args } = await target(params)
  if (action !== 'branch' || args.length < 1) throw notFound()
  await deleteBranch(await callerFromRequest(request), ref, args.join('/'))
  return NextResponse.json({ success: true })
}, { cors: true })

export const OPTIONS = preflight
export const { PUT, PATCH } = refuseOtherMethods(['GET', 'POST', 'DELETE', 'OPTIONS'], hubMethodNotAllowed)
