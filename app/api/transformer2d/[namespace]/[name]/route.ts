// POST /api/transformer2d/{namespace}/{name}: runs the repo's Transformer2DModel on the server
// with the caller's inputs (lib/hub/transformer2d-runs.ts). The body is JSON ({ revision, subfolder,
// inputs }) or, with Content-Type application/octet-stream, one safetensors file of the forward
// arguments (revision and subfolder then in the query); Accept: application/octet-stream answers
// the output as safetensors, anything else as JSON.
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { bytesBody, handle, jsonBody } from '@/lib/http/errors'
import { runAsJson, runAsSafetensors, runRepoTransformer2D } from '@/lib/hub/transformer2d-runs'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

/** Tensors as JSON lists: a 64×64 latent with a few channels and its conditioning fit well below this (as safetensors, four times as many). */
const MAX_BODY_BYTES = 16 * 1024 ** 2
const SAFETENSORS = 'application/octet-stream'

type Params = { params: Promise<{ namespace: string; name: string }> }

export const POST = handle(async (request: Request, { params }: Params) => {
  const caller = await callerFromRequest(request)
  const query = new URL(request.url).searchParams
  const body = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase() === SAFETENSORS
    ? { revision: query.get('revision') ?? undefined, subfolder: query.get('subfolder') ?? undefined, safetensors: await bytesBody(request, MAX_BODY_BYTES) }
    : await jsonBody(request, MAX_BODY_BYTES)
  const run = await runRepoTransformer2D(caller, await params, body, request.signal)
  if ((request.headers.get('accept') ?? '').includes(SAFETENSORS)) {
    return new Response(Buffer.from(runAsSafetensors(run)), { headers: { 'Content-Type': SAFETENSORS, 'X-Repo-Commit': run.commit } })
  }
  return NextResponse.json(runAsJson(run))
})
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['POST'], hubMethodNotAllowed)
