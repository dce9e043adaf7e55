// GET /api/{models|datasets|spaces}?author=&search=&filter=&pipeline_tag=&limit=: the repos the
// caller may see, with the metadata of their model cards (as @huggingface/hub's listModels,
// listDatasets and listSpaces ask: `filter` once per tag, every one required; `pipeline_tag` the task).
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { cardTags, listRepos, repoInfoJson } from '@/lib/hub/repos'
import { defaultBranchCards } from '@/lib/hub/files'
import { repoTypeFromPlural } from '@/lib/hub/names'
import { handle, notFound } from '@/lib/http/errors'

/** How many repos a listing looks at (the newest first), as listRepos reads them. */
const MAX_LISTED = 1000

export const GET = handle(async (request: Request, { params }: { params: Promise<{ repoType: string }> }) => {
  const type = repoTypeFromPlural((await params).repoType)
  if (!type) throw notFound()
  const url = new URL(request.url)
  const limit = Math.min(Math.max(Number(url.searchParams.get('limit')) || 100, 1), MAX_LISTED)
  const tags = url.searchParams.getAll('filter').flatMap((value) => value.split(',')).map((tag) => tag.trim()).filter(Boolean)
  const task = url.searchParams.get('pipeline_tag')
  const filtered = tags.length > 0 || Boolean(task)
  const caller = await callerFromRequest(request)
  const repos = await listRepos(caller, {
    type,
    namespace: url.searchParams.get('author') ?? undefined,
    search: url.searchParams.get('search')?.slice(0, 100) ?? undefined,
    // A filter reads every candidate's card before the page is cut.
    limit: filtered ? MAX_LISTED : limit,
  })
  const cards = await defaultBranchCards(repos.map((r) => r.id))
  const matching = repos.filter((repo) => {
    const card = cards.get(repo.id) ?? {}
    const repoTags = cardTags(card)
    return (!task || card.pipeline_tag === task) && tags.every((tag) => repoTags.includes(tag))
  })
  return NextResponse.json(matching.slice(0, limit).map((r) => repoInfoJson(r, null, cards.get(r.id))))
})
