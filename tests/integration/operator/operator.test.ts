// The operator role: only hub operators grant or revoke token exchange, only to apps of
// Enterprise-plan organizations; revoking ends live exchange tokens; both are audit-logged.
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { createOrg, setBilling } from '@/lib/hub/orgs'
import { createApp } from '@/lib/oauth/clients/apps'
import { issueToken, principalFromToken } from '@/lib/auth/tokens'
import type { Principal } from '@/lib/policy/principal'
import { grantTokenExchange, operatorOverview, revokeTokenExchange } from '@/lib/hub/org-apps'

const session = (userId: string) => ({ userId, principal: null })
let operatorId: string
let adminId: string
let enterpriseApp: string
let teamApp: string
let userApp: string
let enterpriseOrg: string

beforeAll(async () => {
  operatorId = (await createUser({ username: 'opsuser', email: 'opsuser@test.dev', password: 'password-ops' }, { isOperator: true })).id
  adminId = (await createUser({ username: 'opsadmin', email: 'opsadmin@test.dev', password: 'password-admin' })).id
  enterpriseOrg = (await createOrg(adminId, { name: 'opsent' })).id
  await setBilling(enterpriseOrg, { plan: 'enterprise', canPay: true })
  const teamOrg = (await createOrg(adminId, { name: 'opsteam' })).id
  await setBilling(teamOrg, { plan: 'team', canPay: true })
  const input = { name: 'Backend', redirectUris: ['https://b.example/cb'], scopes: ['read-repos'] }
  enterpriseApp = (await createApp({ kind: 'org', orgId: enterpriseOrg }, input, true)).app.id
  teamApp = (await createApp({ kind: 'org', orgId: teamOrg }, input, true)).app.id
  userApp = (await createApp({ kind: 'user', userId: adminId }, input, true)).app.id
})

describe('granting token exchange', () => {
  it('is for operators only: org admins, tokens and anonymous callers are refused', async () => {
    await expect(grantTokenExchange(session(adminId), enterpriseApp)).rejects.toMatchObject({ status: 404 })
    await expect(grantTokenExchange(null, enterpriseApp)).rejects.toMatchObject({ status: 401 })
    const principal: Principal = { userId: operatorId, username: 'opsuser', tokenId: 't', tokenKind: 'personal', displayName: 'ops token', role: 'write', scopes: [], orgIds: [], appId: null, repoId: null, createdAt: new Date(), expiresAt: null }
    await expect(grantTokenExchange({ userId: operatorId, principal }, enterpriseApp)).rejects.toMatchObject({ status: 403 })
    expect((await db.oAuthApp.findUniqueOrThrow({ where: { id: enterpriseApp } })).tokenExchange).toBe(false)
  })

  it('needs an app bound to an Enterprise-plan organization, and says so', async () => {
    await expect(grantTokenExchange(session(operatorId), teamApp)).rejects.toThrow('Token exchange needs an Enterprise-plan organization; opsteam is on the team plan')
    await expect(grantTokenExchange(session(operatorId), userApp)).rejects.toThrow(/not bound to an organization/)
    await expect(grantTokenExchange(session(operatorId), 'no-such-app')).rejects.toMatchObject({ status: 404 })
  })

  it('grants, audit-logs, and shows in the overview', async () => {
    await grantTokenExchange(session(operatorId), enterpriseApp, '192.0.2.5')
    const entry = await db.auditLogEntry.findFirstOrThrow({ where: { orgId: enterpriseOrg, action: 'app.exchange.grant' } })
    expect(entry).toMatchObject({ actorUserId: operatorId, appId: enterpriseApp, ip: '192.0.2.5' })
    const overview = await operatorOverview(session(operatorId))
    expect(overview.apps.find((a) => a.id === enterpriseApp)).toMatchObject({ tokenExchange: true, org: 'opsent', plan: 'enterprise', eligible: true })
    expect(overview.apps.find((a) => a.id === teamApp)).toMatchObject({ tokenExchange: false, eligible: false })
    expect(overview.apps.some((a) => a.id === userApp)).toBe(false)
    expect(overview.orgs.map((o) => o.name)).toEqual(expect.arrayContaining(['opsent', 'opsteam']))
    await expect(operatorOverview(session(adminId))).rejects.toMatchObject({ status: 404 })
  })

  it('revoking ends the app\'s live exchange tokens and is audit-logged', async () => {
    const { token } = await issueToken({ kind: 'exchange', userId: adminId, role: 'scoped', scopes: ['read-repos'], orgIds: [enterpriseOrg], appId: enterpriseApp })
    const { revokedTokens } = await revokeTokenExchange(session(operatorId), enterpriseApp)
    expect(revokedTokens).toBe(1)
    expect(await principalFromToken(token)).toBeNull()
    expect((await db.oAuthApp.findUniqueOrThrow({ where: { id: enterpriseApp } })).tokenExchange).toBe(false)
    expect(await db.auditLogEntry.count({ where: { orgId: enterpriseOrg, action: 'app.exchange.revoke' } })).toBe(1)
  })
})
