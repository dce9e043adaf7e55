import { preflight } from '@/lib/http/cors'
import { oauthHandler } from '@/lib/oauth/errors'
import { serverMetadata } from '@/lib/oauth/discovery'
import { refuseOtherMethods, oauthMethodNotAllowed } from '@/lib/http/methods'

// Rendered per request: the issuer is the hub's configured URL at run time, not at build time.
export const dynamic = 'force-dynamic'

export const GET = oauthHandler(async () => Response.json(serverMetadata(), { headers: { 'Cache-Control': 'public, max-age=300' } }))
export const OPTIONS = preflight
export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(['GET', 'OPTIONS'], oauthMethodNotAllowed)
