// GET /api/{models|datasets|spaces}/{namespace}/{name}[/revision/{rev}]: repo info.
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { authorizedRepo, repoInfoJson } from '@/lib/hub/repos'
import { repoTypeFromPlural } from '@/lib/hub/names'
import { repoDecision } from '@/lib/policy'
import { handle, notFound } from '@/lib/http/errors'

type Params = { params: Promise<{ repoType: string; namespace: string; name: string; rest?: string[] }> }

export const GET = handle(async (request: Request, { params }: Params) => {
  const { repoType, namespace, name, rest } = await params
  const type = repoTypeFromPlural(repoType)
  if (!type || (rest && !(rest.length === 2 && rest[0] === 'revision'))) throw notFound()
  const caller = await callerFromRequest(request)
  const { repo, ctx } = await authorizedRepo(caller, type, namespace, name, 'view')
  return NextResponse.json(repoInfoJson(repo, repoDecision(caller, 'read', repo, ctx) === 'allow'))
})
