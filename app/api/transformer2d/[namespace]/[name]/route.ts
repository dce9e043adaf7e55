// POST /api/transformer2d/{namespace}/{name}: runs the repo's Transformer2DModel on the server
// with the caller's inputs (lib/hub/transformer2d-runs.ts).
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { handle, jsonBody } from '@/lib/http/errors'
import { runRepoTransformer2D } from '@/lib/hub/transformer2d-runs'

/** Tensors as JSON lists: a 64×64 latent with a few channels and its conditioning fit well below this. */
const MAX_BODY_BYTES = 16 * 1024 ** 2

type Params = { params: Promise<{ namespace: string; name: string }> }

export const POST = handle(async (request: Request, { params }: Params) => {
  const caller = await callerFromRequest(request)
  const body = await jsonBody(request, MAX_BODY_BYTES)
  return NextResponse.json(await runRepoTransformer2D(caller, await params, body))
})
