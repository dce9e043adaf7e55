// Who is making a request: a bearer token if the request carries one, else the browser session.
import { redirect } from 'next/navigation'
import { auth } from '@/lib/auth/nextauth'
import { bearerToken } from '@/lib/auth/bearer'
import { principalFromToken } from '@/lib/auth/tokens'
import { HubError, invalidCredentials } from '@/lib/http/errors'
import { crossOriginRefusal } from '@/lib/http/origin'
import type { Caller } from '@/lib/policy'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** For API routes: a present but invalid Authorization header is a 401, never silently anonymous. */
export async function callerFromRequest(request: Request): Promise<Caller> {
  const header = request.headers.get('authorization')
  if (header) {
    const token = bearerToken(header)
    const principal = token ? await principalFromToken(token) : null
    if (!principal) throw invalidCredentials()
    return { userId: principal.userId, principal }
  }
  // Only requests that carry a session cookie can be signed in; skip decoding otherwise.
  if (!/(^|;\s*)(__Secure-)?authjs\.session-token/.test(request.headers.get('cookie') ?? '')) return null
  // A page of another origin of the same site gets the cookie sent too (lib/http/origin).
  if (!SAFE_METHODS.has(request.method)) {
    const refused = crossOriginRefusal(request.headers, 'request')
    if (refused) throw new HubError(refused.status, refused.error)
  }
  return sessionCaller()
}

/** For pages and server actions: the signed-in user, with full rights, or null. */
export async function sessionCaller(): Promise<Caller> {
  const session = await auth()
  const userId = session?.user?.id
  return userId ? { userId, principal: null } : null
}

/** The signed-in user and when they signed in (null for a session from before that was kept), for OAuth's prompt=login and max_age. */
export async function sessionSignIn(): Promise<{ caller: NonNullable<Caller>; authTime: number | null } | null> {
  const session = await auth()
  const userId = session?.user?.id
  return userId ? { caller: { userId, principal: null }, authTime: session.authTime ?? null } : null
}

/** For pages that need a signed-in user: everyone else goes to sign in and comes back to `returnTo`. */
export async function signedInCaller(returnTo: string): Promise<NonNullable<Caller>> {
  const caller = await sessionCaller()
  if (!caller) redirect(`/login?next=${encodeURIComponent(returnTo)}`)
  return caller
}
