import { CORS_HEADERS, preflight } from '@/lib/http/cors'
import { serverMetadata } from '@/lib/oauth/discovery'

// Rendered per request: the issuer is the hub's configured URL at run time, not at build time.
export const dynamic = 'force-dynamic'

export function GET() {
  return Response.json(serverMetadata(), { headers: { ...CORS_HEADERS, 'Cache-Control': 'public, max-age=300' } })
}
export const OPTIONS = preflight
