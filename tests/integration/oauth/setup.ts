// Shared fixtures of the OAuth integration tests: users, an organization, apps, and a way to get an
// authorization code as the consent page would (the browser part is covered by the e2e tests).
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg } from '@/lib/hub/orgs'
import { createApp } from '@/lib/oauth/clients/apps'
import { approve, checkAuthorizationRequest } from '@/lib/oauth/authorize'
import { paramsFrom } from '@/lib/oauth/request'
import { s256 } from '@/lib/oauth/pkce'
import { POST as tokenPOST } from '@/app/oauth/token/route'

export const BASE = 'http://hub.test'
export const VERIFIER = 'a-verifier-that-is-long-enough-for-rfc-7636-0123456789abcdef'
export const CHALLENGE = s256(VERIFIER)

export type Fixture = Awaited<ReturnType<typeof createFixture>>

/** Users, an org the user belongs to, a confidential and a public app; names carry a prefix per test file. */
export async function createFixture(prefix: string) {
  const user = await createUser({ username: `${prefix}user`, email: `${prefix}user@test.dev`, password: 'password-user', fullname: 'Test User' })
  const other = await createUser({ username: `${prefix}other`, email: `${prefix}other@test.dev`, password: 'password-other' })
  const org = await createOrg(other.id, { name: `${prefix}org` })
  await addMember(org.id, user.username, 'write')
  const secondOrg = await createOrg(other.id, { name: `${prefix}org2` })
  await addMember(secondOrg.id, user.username, 'read')
  const scopes = ['openid', 'profile', 'email', 'read-repos', 'read-memberships', 'read-billing', 'manage-repos']
  const confidential = await createApp({ kind: 'user', userId: other.id }, { name: 'Confidential', redirectUris: ['https://app.example/cb', 'http://127.0.0.1/cb'], scopes }, true)
  const pub = await createApp({ kind: 'user', userId: other.id }, { name: 'Public', redirectUris: ['http://localhost/', 'https://spa.example/cb?x=1'], scopes }, false)
  return { user, other, org, secondOrg, confidential: { ...confidential, secret: confidential.secret! }, pub: pub.app }
}

export type CodeOptions = { clientId: string; redirectUri: string; scope?: string; orgIds?: string[]; nonce?: string; pkce?: boolean; state?: string; authTime?: number }

/** What approving on the consent page does: check the request, remember the consent, issue a code. */
export async function authorizationCode(userId: string, o: CodeOptions): Promise<string> {
  const params = paramsFrom(
    Object.entries({
      client_id: o.clientId,
      redirect_uri: o.redirectUri,
      scope: o.scope ?? 'openid profile',
      state: o.state ?? 'st',
      nonce: o.nonce,
      ...(o.pkce === false ? {} : { code_challenge: CHALLENGE, code_challenge_method: 'S256' }),
    }),
  )
  const checked = await checkAuthorizationRequest(params)
  if (checked.kind !== 'ok') throw new Error(`authorization request refused: ${JSON.stringify(checked)}`)
  const location = new URL(await approve(checked.request, userId, o.orgIds ?? [], { remember: true, authTime: o.authTime }))
  return location.searchParams.get('code')!
}

export function basic(clientId: string, secret: string): string {
  return 'Basic ' + Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')
}

let ipCounter = 0
/** POST /oauth/token with a form body (or JSON with json: true); each call from its own address unless given. */
export async function token(body: Record<string, string>, init: { authorization?: string; json?: boolean; ip?: string } = {}) {
  const headers = new Headers({ 'content-type': init.json ? 'application/json' : 'application/x-www-form-urlencoded', 'x-forwarded-for': init.ip ?? `10.0.0.${++ipCounter % 250}` })
  if (init.authorization) headers.set('authorization', init.authorization)
  const res = await tokenPOST(new Request(`${BASE}/oauth/token`, { method: 'POST', headers, body: init.json ? JSON.stringify(body) : new URLSearchParams(body).toString() }))
  return { res, body: (await res.json()) as Record<string, unknown> & { error?: string; access_token?: string; refresh_token?: string; id_token?: string } }
}
