// An operator disables an account (abuse, a compromise): no sign-in (said only to the right
// password), its sessions end, every token of it is refused while it stays disabled (personal, OAuth),
// its refresh tokens and unexchanged codes end for good; enabling it lets it sign in and its personal
// tokens work again. Only operators may, and not on their own account. Operators choose who else
// operates the hub, and none removes their own role.
import { beforeAll, describe, expect, it } from 'vitest'
import { createUser, disableAccount, disabledAccounts, enableAccount, hubOperators, setHubOperator } from '@/lib/hub/users'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { principalFromToken } from '@/lib/auth/tokens'
import { signInWithPassword } from '@/lib/auth/sign-in'
import { GET as whoami } from '@/app/api/whoami-v2/route'
import { authorizationCode, basic, createFixture, token, VERIFIER, type Fixture } from '../oauth/setup'
import { sessionUser, signIn } from './sessions'

const REDIRECT = 'https://app.example/cb'
let f: Fixture
let operator: { userId: string; principal: null }

beforeAll(async () => {
  f = await createFixture('dis')
  operator = { userId: (await createUser({ username: 'disabler', email: 'disabler@test.dev', password: 'operator-password' }, { isOperator: true })).id, principal: null }
})

const whoamiStatus = async (bearer: string) => (await whoami(new Request('http://hub.test/api/whoami-v2', { headers: { authorization: `Bearer ${bearer}` } }))).status

describe('disabling an account', () => {
  it('is for operators only, not on their own account, and names an account that does not exist', async () => {
    await expect(disableAccount({ userId: f.other.id, principal: null }, f.user.username, null)).rejects.toMatchObject({ status: 404 })
    await expect(disableAccount(null, f.user.username, null)).rejects.toMatchObject({ status: 401 })
    await expect(disableAccount(operator, 'disabler', null)).rejects.toThrow('You cannot disable your own account')
    await expect(disableAccount(operator, 'nobody-at-all', null)).rejects.toMatchObject({ status: 404 })
    expect(await disabledAccounts(operator)).toEqual([])
  })

  it('refuses sign-in, ends sessions, refuses tokens and ends refresh tokens and codes; enabling restores sign-in and personal tokens', async () => {
    const auth = { authorization: basic(f.confidential.app.clientId, f.confidential.secret) }
    const session = await signIn(f.user.username, 'password-user')
    const { token: personal } = await createPersonalToken(f.user.id, { name: 'before', role: 'read', expiresInDays: null })
    const issued = await token({ grant_type: 'authorization_code', code: await authorizationCode(f.user.id, { clientId: f.confidential.app.clientId, redirectUri: REDIRECT }), redirect_uri: REDIRECT, code_verifier: VERIFIER }, auth)
    expect(issued.res.status).toBe(200)
    const unexchanged = await authorizationCode(f.user.id, { clientId: f.confidential.app.clientId, redirectUri: REDIRECT })
    expect(await whoamiStatus(personal)).toBe(200)

    await disableAccount(operator, f.user.email, '203.0.113.8')
    expect((await disabledAccounts(operator)).map((u) => u.username)).toEqual([f.user.username])
    expect(await sessionUser(session)).toBeNull()
    expect((await signInWithPassword(f.user.username, 'password-user', '203.0.113.9')).kind).toBe('disabled')
    expect((await signInWithPassword(f.user.username, 'a-wrong-one', '203.0.113.9')).kind).toBe('wrong')
    expect(await principalFromToken(personal)).toBeNull()
    expect(await whoamiStatus(personal)).toBe(401)
    expect(await whoamiStatus(issued.body.access_token!)).toBe(401)
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token! }, auth)
    expect([refreshed.res.status, refreshed.body.error]).toEqual([400, 'invalid_grant'])
    const late = await token({ grant_type: 'authorization_code', code: unexchanged, redirect_uri: REDIRECT, code_verifier: VERIFIER }, auth)
    expect([late.res.status, late.body.error]).toEqual([400, 'invalid_grant'])

    await enableAccount(operator, f.user.username, null)
    expect(await disabledAccounts(operator)).toEqual([])
    expect((await signInWithPassword(f.user.username, 'password-user', '203.0.113.9')).kind).toBe('ok')
    expect(await whoamiStatus(personal)).toBe(200)
    // The revoked refresh token stays revoked: the app is authorized anew.
    expect((await token({ grant_type: 'refresh_token', refresh_token: issued.body.refresh_token! }, auth)).body.error).toBe('invalid_grant')
  })
})

describe('choosing operators', () => {
  it('makes an account an operator, who then may act as one, and another operator removes it; never one\'s own role', async () => {
    const helper = await createUser({ username: 'helper-op', email: 'helper-op@test.dev', password: 'helper-password' })
    const asHelper = { userId: helper.id, principal: null }
    await expect(setHubOperator(asHelper, 'helper-op', true, null)).rejects.toMatchObject({ status: 404 })
    await setHubOperator(operator, 'helper-op@test.dev', true, null)
    expect((await hubOperators(asHelper)).map((u) => u.username)).toContain('helper-op')
    await expect(setHubOperator(asHelper, 'helper-op', false, null)).rejects.toThrow('You cannot remove your own operator role')
    await setHubOperator(asHelper, 'disabler', false, null)
    await expect(hubOperators(operator)).rejects.toMatchObject({ status: 404 })
    await setHubOperator(asHelper, 'disabler', true, null)
    await setHubOperator(operator, 'helper-op', false, null)
    await expect(hubOperators(asHelper)).rejects.toMatchObject({ status: 404 })
  })

  it('does not make a disabled account an operator', async () => {
    await createUser({ username: 'benched', email: 'benched@test.dev', password: 'benched-password' })
    await disableAccount(operator, 'benched', null)
    await expect(setHubOperator(operator, 'benched', true, null)).rejects.toThrow('benched is disabled; enable the account first')
  })
})
