// POST /api/collections/{namespace}/{slug}/items: add a repo (the body @huggingface/hub's
// addCollectionItem sends: {item: {type, id}, note}); answers the collection as it is now.
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { addToCollection, authorizedCollection, collectionJson } from '@/lib/hub/collections'
import { handle, jsonBody } from '@/lib/http/errors'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

type Params = { params: Promise<{ namespace: string; slug: string }> }

export const POST = handle(async (request: Request, { params }: Params) => {
  const { namespace, slug } = await params
  const caller = await callerFromRequest(request)
  await addToCollection(caller, `${namespace}/${slug}`, await jsonBody(request))
  return NextResponse.json(collectionJson(await authorizedCollection(caller, `${namespace}/${slug}`, 'read')))
})
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['POST'], hubMethodNotAllowed)
