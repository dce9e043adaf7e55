// POST /oauth/device: the device authorization endpoint (RFC 8628 3.1).
// GET /oauth/device: people arrive here from verification_uri; the page lives one level down.
import { oauthHandler } from '@/lib/oauth/errors'
import { preflight } from '@/lib/http/cors'
import { startDeviceAuthorization } from '@/lib/oauth/device-authorization'
import { seeOther } from '@/lib/http/redirect'
import { refuseOtherMethods, oauthMethodNotAllowed } from '@/lib/http/methods'

export const POST = oauthHandler(async (request: Request) => Response.json(await startDeviceAuthorization(request)))

export async function GET(request: Request) {
  const url = new URL(request.url)
  return seeOther(`/oauth/device/verify${url.search}`)
}

export const OPTIONS = preflight
export const { PUT, PATCH, DELETE } = refuseOtherMethods(['GET', 'POST', 'OPTIONS'], oauthMethodNotAllowed)
