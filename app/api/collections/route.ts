// GET /api/collections?owner=&item=&q=&sort=&limit=&cursor=: the collections the caller may read
// (of the owners named, else everyone's), each with its first four items the caller may see, as
// @huggingface/hub's listCollections and huggingface_hub's list_collections ask; when more follow,
// a Link header (rel="next") holds the next page's URL.
// POST /api/collections: create one (the body @huggingface/hub's createCollection sends); answers
// the new collection as GET /api/collections/{slug} does (huggingface_hub reads all of it).
import { NextResponse } from 'next/server'
import { z } from 'zod'
import { callerFromRequest } from '@/lib/auth/caller'
import { collectionJson, collectionListing, createCollection, MAX_COLLECTION_PAGE } from '@/lib/hub/collections'
import { nextPageLink } from '@/lib/hub/repos'
import { queryInteger } from '@/lib/http/query'
import { publicOrigin } from '@/lib/hub/files/routes'
import { badRequest, handle, jsonBody, unauthorized, zodMessage } from '@/lib/http/errors'
import { refuseOtherMethods, hubMethodNotAllowed } from '@/lib/http/methods'

export const GET = handle(async (request: Request) => {
  const query = new URL(request.url).searchParams
  const owners = query.getAll('owner')
  if (owners.length > 20 || owners.some((o) => !o || o.length > 42)) throw badRequest('Query parameter "owner" must name at most 20 users or organizations')
  const items = query.getAll('item')
  if (items.length > 20 || items.some((i) => !i || i.length > 250)) throw badRequest('Query parameter "item" must name at most 20 items')
  const { collections, nextCursor } = await collectionListing(await callerFromRequest(request), {
    owners,
    items,
    search: query.get('q')?.slice(0, 100) || undefined,
    sort: query.get('sort'),
    limit: queryInteger(query, 'limit', { min: 1, max: MAX_COLLECTION_PAGE, fallback: MAX_COLLECTION_PAGE }),
    cursor: query.get('cursor'),
  })
  const headers = nextCursor ? { Link: nextPageLink(publicOrigin(request), '/api/collections', query, nextCursor) } : undefined
  return NextResponse.json(collections.map(collectionJson), { headers })
})

const createBody = z.object({
  title: z.string(),
  namespace: z.string(),
  description: z.string().optional(),
  private: z.boolean().optional(),
})

export const POST = handle(async (request: Request) => {
  const caller = await callerFromRequest(request)
  if (!caller) throw unauthorized('Authorization header is required')
  const parsed = createBody.safeParse(await jsonBody(request))
  if (!parsed.success) throw badRequest(zodMessage(parsed.error))
  const collection = await createCollection(caller, parsed.data)
  return NextResponse.json(collectionJson({ ...collection, items: [] }))
})
export const { PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['GET', 'POST'], hubMethodNotAllowed)
