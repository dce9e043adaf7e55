// GET|POST /oauth/userinfo (OIDC Core 5.3): the token's user, each field only with its scope.
import { principalFromAuthorization } from '@/lib/auth/bearer'
import { preflight } from '@/lib/http/cors'
import { invalidToken, oauthHandler, tokenRequired } from '@/lib/oauth/errors'
import { userinfoClaims } from '@/lib/oauth/userinfo'
import { refuseOtherMethods, oauthMethodNotAllowed } from '@/lib/http/methods'

async function userinfo(request: Request): Promise<Response> {
  const authorization = request.headers.get('authorization')
  if (!authorization) throw tokenRequired()
  const principal = await principalFromAuthorization(authorization)
  if (!principal) throw invalidToken('A valid bearer access token is required')
  return Response.json(await userinfoClaims(principal.userId, principal))
}

export const GET = oauthHandler(userinfo)
export const POST = oauthHandler(userinfo)
export const OPTIONS = preflight
export const { PUT, PATCH, DELETE } = refuseOtherMethods(['GET', 'POST', 'OPTIONS'], oauthMethodNotAllowed)
