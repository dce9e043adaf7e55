// POST /api/repos/create: the body @huggingface/hub's createRepo sends; its `files` and `license`
// become the repo's first commit (lib/hub/files/initial-commit).
import { NextResponse } from 'next/server'
import { z } from 'zod'
import { callerFromRequest } from '@/lib/auth/caller'
import { createRepoWithFiles, initialOperations, inlineFileValue, SPACE_SDKS } from '@/lib/hub/files'
import { usernameOf } from '@/lib/hub/users'
import { repoPath } from '@/lib/hub/names'
import { hubUrl } from '@/lib/config'
import { badRequest, handle, jsonBody, unauthorized, zodMessage } from '@/lib/http/errors'
import { clientIp } from '@/lib/ratelimit'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

const body = z.object({
  name: z.string(),
  organization: z.string().optional(),
  type: z.enum(['model', 'dataset', 'space']).default('model'),
  visibility: z.enum(['public', 'private']).optional(),
  private: z.boolean().optional(),
  gated: z.boolean().optional(),
  files: z.array(inlineFileValue).optional(),
  license: z.string().optional(),
  sdk: z.enum(SPACE_SDKS).optional(),
})

export const POST = handle(async (request: Request) => {
  const caller = await callerFromRequest(request)
  if (!caller) throw unauthorized('Authorization header is required')
  const parsed = body.safeParse(await jsonBody(request, 10 * 1024 * 1024))
  if (!parsed.success) throw badRequest(zodMessage(parsed.error))
  const b = parsed.data
  const space = b.type === 'space' ? { title: b.name, sdk: b.sdk ?? 'static' } : undefined
  const operations = initialOperations(b.type, b.files ?? [], { license: b.license, space })
  const input = {
    type: b.type,
    namespace: b.organization ?? (await usernameOf(caller.userId)),
    name: b.name,
    private: b.visibility ? b.visibility === 'private' : (b.private ?? false),
    gated: b.gated ?? false,
  }
  const repo = await createRepoWithFiles(caller, input, operations, { ip: clientIp(request.headers) })
  return NextResponse.json({ url: `${hubUrl()}${repoPath(repo.type as 'model', repo.namespace, repo.name)}`, name: `${repo.namespace}/${repo.name}`, id: repo.id })
})
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['POST'], hubMethodNotAllowed)
