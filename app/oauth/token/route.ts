import { preflight } from '@/lib/http/cors'
import { oauthHandler } from '@/lib/oauth/errors'
import { tokenEndpoint } from '@/lib/oauth/token-endpoint'

export const POST = oauthHandler(tokenEndpoint)
export const OPTIONS = preflight
