// DELETE /api/repos/delete: the body @huggingface/hub's deleteRepo sends.
import { NextResponse } from 'next/server'
import { z } from 'zod'
import { callerFromRequest } from '@/lib/auth/caller'
import { deleteRepoWithFiles } from '@/lib/hub/files'
import { usernameOf } from '@/lib/hub/users'
import { badRequest, handle, jsonBody, unauthorized, zodMessage } from '@/lib/http/errors'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

const body = z.object({
  name: z.string().min(1).max(96),
  organization: z.string().max(42).optional(),
  type: z.enum(['model', 'dataset', 'space']).default('model'),
})

export const DELETE = handle(async (request: Request) => {
  const caller = await callerFromRequest(request)
  if (!caller) throw unauthorized('Authorization header is required')
  const parsed = body.safeParse(await jsonBody(request))
  if (!parsed.success) throw badRequest(zodMessage(parsed.error))
  const namespace = parsed.data.organization ?? (await usernameOf(caller.userId))
  await deleteRepoWithFiles(caller, parsed.data.type, namespace, parsed.data.name)
  return new NextResponse(null, { status: 200 })
})
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = refuseOtherMethods(['DELETE'], hubMethodNotAllowed)
