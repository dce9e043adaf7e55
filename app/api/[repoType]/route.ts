// GET /api/{models|datasets|spaces}?author=&search=&limit=: list repos the caller may see.
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { listRepos, repoInfoJson } from '@/lib/hub/repos'
import { repoTypeFromPlural } from '@/lib/hub/names'
import { handle, notFound } from '@/lib/http/errors'

export const GET = handle(async (request: Request, { params }: { params: Promise<{ repoType: string }> }) => {
  const type = repoTypeFromPlural((await params).repoType)
  if (!type) throw notFound()
  const url = new URL(request.url)
  const limit = Math.min(Math.max(Number(url.searchParams.get('limit')) || 100, 1), 1000)
  const caller = await callerFromRequest(request)
  const repos = await listRepos(caller, {
    type,
    namespace: url.searchParams.get('author') ?? undefined,
    search: url.searchParams.get('search')?.slice(0, 100) ?? undefined,
    limit,
  })
  return NextResponse.json(repos.map((r) => repoInfoJson(r, null)))
})
