// GET|POST /oauth/authorize: checks the request, signs the user in if needed, then either answers
// at once (remembered consent, or an error for the app) or shows the consent page.
import { sessionSignIn } from '@/lib/auth/caller'
import { authorizationQuery, consentAfterSignIn, decideWithoutPrompt, loginRequiredLocation, readAuthorizationRequest, shownErrorLocation, signInAgainLocation } from '@/lib/oauth/authorize'
import { invalidRequest } from '@/lib/oauth/errors'
import { readBoundedText } from '@/lib/http/body'
import { MAX_BODY_BYTES } from '@/lib/oauth/request'
import { seeOther as redirectTo } from '@/lib/http/redirect'
import { refuseOtherMethods, oauthMethodNotAllowed } from '@/lib/http/methods'

const seeOther = (location: string) => redirectTo(location, { 'Cache-Control': 'no-store' })

/** Query parameters, plus form fields of a POST (the OIDC form-post style of request). */
async function requestEntries(request: Request): Promise<[string, string][]> {
  const entries = [...new URL(request.url).searchParams]
  const type = request.headers.get('content-type') ?? ''
  if (request.method === 'POST' && type.startsWith('application/x-www-form-urlencoded')) {
    entries.push(...new URLSearchParams(await readBoundedText(request, MAX_BODY_BYTES)))
  }
  return entries
}

async function authorize(request: Request): Promise<Response> {
  let entries: [string, string][]
  try {
    entries = await requestEntries(request)
  } catch {
    // Too large or unreadable as a request: the consent page explains it without trusting any
    // redirect_uri (and never takes the URL's parameters alone for the request).
    return seeOther(shownErrorLocation(invalidRequest('The request is too large or cannot be read')))
  }
  const check = await readAuthorizationRequest(entries)
  if (check.kind === 'redirect') return seeOther(check.location)
  // The consent page shows this verdict, not its own of what the carried query would leave.
  if (check.kind === 'show-error') return seeOther(shownErrorLocation(check.error))
  // The consent page reads the same request again from its query.
  const query = authorizationQuery(entries)
  const signedIn = await sessionSignIn()
  if (!signedIn) {
    if (check.request.prompts.has('none')) return seeOther(loginRequiredLocation(check.request))
    // Back to the consent page, not here: the sign-in form returns by client-side navigation, which
    // would keep this URL in the address bar, and the consent page's actions post to that URL. Marked
    // as asked now: the sign-in on the way answers prompt=login and max_age.
    return seeOther(`/login?next=${encodeURIComponent(consentAfterSignIn(check.request, query))}`)
  }
  const signInAgain = signInAgainLocation(check.request, query, { userId: signedIn.caller.userId, authTime: signedIn.authTime })
  if (signInAgain) return seeOther(signInAgain)
  const location = await decideWithoutPrompt(check.request, signedIn.caller.userId, signedIn.authTime)
  return seeOther(location ?? `/oauth/authorize/consent?${query}`)
}

export const GET = authorize
export const POST = authorize
export const { PUT, PATCH, DELETE, OPTIONS } = refuseOtherMethods(['GET', 'POST'], oauthMethodNotAllowed)
