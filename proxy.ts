// Next's request filter (proxy.ts, formerly middleware.ts). It only sees POSTs that may be server
// actions: the matcher selects them by header in Next's own router, so every other request skips
// it. Malformed or cross-origin ones get a 400/403 here instead of a 500 from the framework.
import { NextResponse, type NextRequest } from 'next/server'
import { crossOriginRefusal } from '@/lib/http/origin'

export function proxy(request: NextRequest) {
  if (request.method !== 'POST') return NextResponse.next()
  const refused = crossOriginRefusal(request.headers, 'server action')
  return refused ? NextResponse.json({ error: refused.error }, { status: refused.status, headers: { 'Cache-Control': 'no-store' } }) : NextResponse.next()
}

export const config = {
  matcher: [
    // Actions called from the page (fetch): they carry a Next-Action header.
    { source: '/:path*', has: [{ type: 'header', key: 'next-action' }] },
    // Forms submitted before JavaScript loaded: multipart posts, the action named in the body. No
    // route handler of the hub reads multipart bodies, so this catches nothing else of value.
    { source: '/:path*', has: [{ type: 'header', key: 'content-type', value: 'multipart/form-data.*' }] },
  ],
}
