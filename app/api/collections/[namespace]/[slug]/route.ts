// GET /api/collections/{namespace}/{slug}: one collection, without the items the caller may not see.
// DELETE: remove it (owners, and organization members with write).
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { authorizedCollection, collectionJson, deleteCollection } from '@/lib/hub/collections'
import { handle } from '@/lib/http/errors'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

type Params = { params: Promise<{ namespace: string; slug: string }> }

export const GET = handle(async (request: Request, { params }: Params) => {
  const { namespace, slug } = await params
  const caller = await callerFromRequest(request)
  const collection = await authorizedCollection(caller, `${namespace}/${slug}`, 'read')
  return NextResponse.json(collectionJson(collection))
})

export const DELETE = handle(async (request: Request, { params }: Params) => {
  const { namespace, slug } = await params
  await deleteCollection(await callerFromRequest(request), `${namespace}/${slug}`)
  return new NextResponse(null, { status: 200 })
})
export const { POST, PUT, PATCH, OPTIONS } = refuseOtherMethods(['GET', 'DELETE'], hubMethodNotAllowed)
