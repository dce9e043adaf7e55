// GET /api/collections?owner={namespace}[&owner=...]: collections of users or organizations the caller may see.
// POST /api/collections: create one (the body @huggingface/hub's createCollection sends).
// Listings carry no item counts: a count would reveal private repos the caller cannot see.
import { NextResponse } from 'next/server'
import { z } from 'zod'
import { callerFromRequest } from '@/lib/auth/caller'
import { createCollection, listCollections } from '@/lib/hub/collections'
import { badRequest, handle, jsonBody, unauthorized, zodMessage } from '@/lib/http/errors'

export const GET = handle(async (request: Request) => {
  const owners = new URL(request.url).searchParams.getAll('owner').slice(0, 20)
  if (owners.length === 0 || owners.some((o) => !o || o.length > 42)) throw badRequest('Query parameter "owner" is required')
  const caller = await callerFromRequest(request)
  const rows = (await Promise.all(owners.map((o) => listCollections(caller, o)))).flat()
  return NextResponse.json(
    rows.map((c) => ({ slug: c.slug, title: c.title, description: c.description, private: c.private, owner: { name: c.namespace }, lastUpdated: c.updatedAt.toISOString() })),
  )
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
  return NextResponse.json({ slug: collection.slug, title: collection.title, private: collection.private })
})
