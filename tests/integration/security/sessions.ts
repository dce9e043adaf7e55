// Browser sessions driven through next-auth's own endpoints (CSRF token and all), as a browser
// does: for the tests of what ends a session (sign-out, a password change).
import { expect } from 'vitest'
import { GET as authGET, POST as authPOST } from '@/app/api/auth/[...nextauth]/route'

export const HUB = 'http://localhost:3000'
const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')

/** Signs in through next-auth's credentials endpoint (CSRF token and all), as a browser does; the session cookie. */
export async function signIn(login: string, password: string): Promise<string> {
  const csrf = await authGET(new Request(`${HUB}/api/auth/csrf`) as never)
  const csrfCookie = cookieOf(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const res = await authPOST(
    new Request(`${HUB}/api/auth/callback/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie, 'x-forwarded-for': '198.51.100.77', origin: HUB },
      body: new URLSearchParams({ login, password, csrfToken, callbackUrl: HUB }),
    }) as never,
  )
  const session = res.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token='))
  expect(session, 'signed in').toBeDefined()
  return `${csrfCookie}; ${session!.split(';')[0]}`
}

export async function sessionUser(cookie: string): Promise<string | null> {
  const res = await authGET(new Request(`${HUB}/api/auth/session`, { headers: { cookie } }) as never)
  const body = (await res.json()) as { user?: { name?: string } } | null
  return body?.user?.name ?? null
}

export async function signOut(cookie: string) {
  const csrf = await authGET(new Request(`${HUB}/api/auth/csrf`, { headers: { cookie } }) as never)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const res = await authPOST(
    new Request(`${HUB}/api/auth/signout`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: HUB }, body: new URLSearchParams({ csrfToken, callbackUrl: HUB }) }) as never,
  )
  expect(res.status).toBeLessThan(400)
}
