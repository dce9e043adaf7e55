import { preflight } from '@/lib/http/cors'
import { oauthHandler } from '@/lib/oauth/errors'
import { tokenEndpoint } from '@/lib/oauth/token-endpoint'
import { refuseOtherMethods, oauthMethodNotAllowed } from '@/lib/http/methods'

export const POST = oauthHandler(tokenEndpoint)
export const OPTIONS = preflight
export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(['POST', 'OPTIONS'], oauthMethodNotAllowed)
