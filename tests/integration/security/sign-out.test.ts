// Signing out ends the session itself: a copy of its cookie taken before (a shared computer, a
// stolen cookie) no longer signs anyone in, (next-auth's session endpoint reads it as pages and the API do, through lib/auth/nextauth's jwt callback). An attack
// run found the cookie still valid for its 30 days after sign-out.
import { beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '@/lib/hub/users'
import { GET as authGET, POST as authPOST } from '@/app/api/auth/[...nextauth]/route'

const HUB = 'http://localhost:3000'
const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')

/** Signs in through next-auth's credentials endpoint (CSRF token and all), as a browser does; the session cookie. */
async function signIn(login: string, password: string): Promise<string> {
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

async function sessionUser(cookie: string): Promise<string | null> {
  const res = await authGET(new Request(`${HUB}/api/auth/session`, { headers: { cookie } }) as never)
  const body = (await res.json()) as { user?: { name?: string } } | null
  return body?.user?.name ?? null
}

async function signOut(cookie: string) {
  const csrf = await authGET(new Request(`${HUB}/api/auth/csrf`, { headers: { cookie } }) as never)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const res = await authPOST(
    new Request(`${HUB}/api/auth/signout`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: HUB }, body: new URLSearchParams({ csrfToken, callbackUrl: HUB }) }) as never,
  )
  expect(res.status).toBeLessThan(400)
}

beforeAll(async () => {
  await createUser({ username: 'leaver', email: 'leaver@test.dev', password: 'leaver-password' })
})

describe('signing out', () => {
  it('ends the session: a copy of the cookie taken before signs nobody in afterwards', async () => {
    const copy = await signIn('leaver', 'leaver-password')
    expect(await sessionUser(copy)).toBe('leaver')
    await signOut(copy)
    expect(await sessionUser(copy)).toBeNull()
  })

  it('ends only that session: the same user signed in elsewhere stays signed in', async () => {
    const laptop = await signIn('leaver', 'leaver-password')
    const phone = await signIn('leaver', 'leaver-password')
    await signOut(laptop)
    expect(await sessionUser(laptop)).toBeNull()
    expect(await sessionUser(phone)).toBe('leaver')
  })
})
