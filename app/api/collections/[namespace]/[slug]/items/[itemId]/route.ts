// DELETE /api/collections/{namespace}/{slug}/items/{itemId}: remove one item, by the `_id` the
// collection JSON gives it (@huggingface/hub's deleteCollectionItem).
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { removeFromCollection } from '@/lib/hub/collections'
import { handle } from '@/lib/http/errors'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

type Params = { params: Promise<{ namespace: string; slug: string; itemId: string }> }

export const DELETE = handle(async (request: Request, { params }: Params) => {
  const { namespace, slug, itemId } = await params
  await removeFromCollection(await callerFromRequest(request), `${namespace}/${slug}`, itemId)
  return NextResponse.json({ success: true })
})
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = refuseOtherMethods(['DELETE'], hubMethodNotAllowed)
