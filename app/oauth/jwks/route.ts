import { preflight } from '@/lib/http/cors'
import { oauthHandler } from '@/lib/oauth/errors'
import { jwks } from '@/lib/oauth/keys'
import { refuseOtherMethods, oauthMethodNotAllowed } from '@/lib/http/methods'

// The key is created on first use, in the database: never at build time.
export const dynamic = 'force-dynamic'

export const GET = oauthHandler(async () =>
  Response.json(await jwks(), { headers: { 'Content-Type': 'application/jwk-set+json', 'Cache-Control': 'public, max-age=300' } }),
)
export const OPTIONS = preflight
export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(['GET', 'OPTIONS'], oauthMethodNotAllowed)
