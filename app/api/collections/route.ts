// GET /api/collections?owner={namespace}: the collections of a user or organization the caller may see.
import { NextResponse } from 'next/server'
import { callerFromRequest } from '@/lib/auth/caller'
import { listCollections } from '@/lib/hub/collections'
import { badRequest, handle } from '@/lib/http/errors'

export const GET = handle(async (request: Request) => {
  const owner = new URL(request.url).searchParams.get('owner')
  if (!owner || owner.length > 42) throw badRequest('Query parameter "owner" is required')
  const caller = await callerFromRequest(request)
  const rows = await listCollections(caller, owner)
  return NextResponse.json(
    rows.map((c) => ({ slug: c.slug, title: c.title, description: c.description, private: c.private, owner: { name: c.namespace }, numberItems: c._count.items, lastUpdated: c.updatedAt.toISOString() })),
  )
})
