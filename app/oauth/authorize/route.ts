// GET|POST /oauth/authorize: checks the request, signs the user in if needed, then either answers
// at once (remembered consent, or an error for the app) or shows the consent page.
import { sessionCaller } from '@/lib/auth/caller'
import { checkAuthorizationRequest, decideWithoutPrompt, loginRequiredLocation } from '@/lib/oauth/authorize'
import { OAuthError } from '@/lib/oauth/errors'
import { MAX_BODY_BYTES, paramsFrom, type Params } from '@/lib/oauth/request'
import { seeOther as redirectTo } from '@/lib/http/redirect'

const seeOther = (location: string) => redirectTo(location, { 'Cache-Control': 'no-store' })

/** Query parameters, plus form fields of a POST (the OIDC form-post style of request). */
async function requestParams(request: Request): Promise<Params> {
  const entries = [...new URL(request.url).searchParams]
  const type = request.headers.get('content-type') ?? ''
  if (request.method === 'POST' && type.startsWith('application/x-www-form-urlencoded')) {
    const body = await request.text()
    if (body.length > MAX_BODY_BYTES) throw new OAuthError('invalid_request', 'Request too large')
    entries.push(...new URLSearchParams(body))
  }
  return paramsFrom(entries)
}

async function authorize(request: Request): Promise<Response> {
  let params: Params
  try {
    params = await requestParams(request)
  } catch {
    // Malformed beyond reading: the consent page explains it without trusting any redirect_uri.
    return seeOther(`/oauth/authorize/consent?${new URL(request.url).searchParams}`)
  }
  const query = new URLSearchParams([...params]).toString()
  const check = await checkAuthorizationRequest(params)
  if (check.kind === 'redirect') return seeOther(check.location)
  if (check.kind === 'show-error') return seeOther(`/oauth/authorize/consent?${query}`)
  const caller = await sessionCaller()
  if (!caller) {
    if (check.request.prompt === 'none') return seeOther(loginRequiredLocation(check.request))
    // Back to the consent page, not here: the sign-in form returns by client-side navigation, which
    // would keep this URL in the address bar, and the consent page's actions post to that URL.
    return seeOther(`/login?next=${encodeURIComponent(`/oauth/authorize/consent?${query}`)}`)
  }
  const location = await decideWithoutPrompt(check.request, caller.userId)
  return seeOther(location ?? `/oauth/authorize/consent?${query}`)
}

export const GET = authorize
export const POST = authorize
