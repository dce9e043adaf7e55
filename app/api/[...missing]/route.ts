// Any /api/ path no route serves: a JSON 404, as every other API answer is, not the HTML page
// Next renders for a missing page (a client's JSON parser got HTML: collectionInfo with a slug
// that has no namespace, a mistyped path). Next matches a catch-all last, so it shadows nothing.
import { NextResponse } from 'next/server'

function notFound(request: Request) {
  return NextResponse.json({ error: `Not Found: no API route at ${new URL(request.url).pathname.slice(0, 200)}` }, { status: 404 })
}

export const GET = notFound
export const HEAD = notFound
export const POST = notFound
export const PUT = notFound
export const PATCH = notFound
export const DELETE = notFound
export const OPTIONS = notFound
