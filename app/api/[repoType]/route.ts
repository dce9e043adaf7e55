// GET /api/{models|datasets|spaces}?author=&search=&filter=&pipeline_tag=&sort=&direction=&limit=&cursor=&expand=&full=:
// one page of the repos the caller may see, with the metadata of their model cards (as
// @huggingface/hub's listModels, listDatasets and listSpaces and huggingface_hub's list_models ask:
// `filter` once per tag, every one required; `pipeline_tag` the task; `search` a part of the full
// id). When more follow, a Link header (rel="next") holds the next page's URL, which both clients follow.
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { MAX_REPO_PAGE, nextPageLink, repoListing, repoOrder } from '@/lib/hub/repos'
import { publicOrigin } from '@/lib/hub/files/routes'
import { repoTypeFromPlural } from '@/lib/hub/names'
import { preflight } from '@/lib/http/cors'
import { handle, notFound } from '@/lib/http/errors'
import { queryFlag, queryInteger } from '@/lib/http/query'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

export const GET = handle(async (request: Request, { params }: { params: Promise<{ repoType: string }> }) => {
  const plural = (await params).repoType
  const type = repoTypeFromPlural(plural)
  if (!type) throw notFound()
  const query = new URL(request.url).searchParams
  const expand = query.getAll('expand')
  // listModels' filePaths asks for siblings; huggingface_hub's full=True for everything.
  const withFiles = expand.includes('siblings') || expand.includes('sha') || queryFlag(query, 'full')
  const { items, nextCursor } = await repoListing(await callerFromRequest(request), {
    type,
    namespace: query.get('author') ?? undefined,
    search: query.get('search')?.slice(0, 100) || undefined,
    tags: query.getAll('filter').flatMap((value) => value.split(',')).map((tag) => tag.trim()).filter(Boolean),
    task: query.get('pipeline_tag'),
    order: repoOrder(query.get('sort'), query.get('direction')),
    // A page with every repo's files is far larger: a tenth as many repos (as the Hub pages expanded listings).
    limit: queryInteger(query, 'limit', { min: 1, max: withFiles ? MAX_REPO_PAGE / 10 : MAX_REPO_PAGE, fallback: withFiles ? MAX_REPO_PAGE / 10 : MAX_REPO_PAGE }),
    cursor: query.get('cursor'),
    withFiles,
  })
  const headers = nextCursor ? { Link: nextPageLink(publicOrigin(request), `/api/${plural}`, query, nextCursor) } : undefined
  return NextResponse.json(items, { headers })
}, { cors: true })

// Browser pages on any origin list repos as they read them (lib/http/cors.ts: Link is exposed).
export const OPTIONS = preflight
export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(['GET', 'OPTIONS'], hubMethodNotAllowed)
