// Pending gated-access requests across every repository a user manages (Settings → Access
// requests), and the operator's say over whether an organization has a payment method on file.
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { addMember, createOrg, setBilling } from '@/lib/hub/orgs'
import { createRepo, decideGatedAccess, pendingAccessRequests, requestGatedAccess } from '@/lib/hub/repos'
import { setOrgPaymentMethod } from '@/lib/hub/org-apps'

const session = (userId: string) => ({ userId, principal: null })
let owner: string
let orgAdmin: string
let orgWriter: string
let asker: string
let orgId: string

beforeAll(async () => {
  owner = (await createUser({ username: 'arowner', email: 'arowner@test.dev', password: 'password-owner' })).id
  orgAdmin = (await createUser({ username: 'aradmin', email: 'aradmin@test.dev', password: 'password-admin' })).id
  orgWriter = (await createUser({ username: 'arwriter', email: 'arwriter@test.dev', password: 'password-writer' })).id
  asker = (await createUser({ username: 'arasker', email: 'arasker@test.dev', password: 'password-asker' })).id
  orgId = (await createOrg(orgAdmin, { name: 'arorg' })).id
  await addMember(orgId, 'arwriter', 'write')
  await createRepo(session(owner), { namespace: 'arowner', name: 'gated-model', gated: true })
  await createRepo(session(owner), { type: 'dataset', namespace: 'arowner', name: 'gated-data', gated: true })
  await createRepo(session(orgAdmin), { namespace: 'arorg', name: 'org-gated', gated: true })
  await requestGatedAccess(session(asker), 'model', 'arowner', 'gated-model')
  await requestGatedAccess(session(asker), 'dataset', 'arowner', 'gated-data')
  await requestGatedAccess(session(asker), 'model', 'arorg', 'org-gated')
})

describe('pending access requests', () => {
  it('lists every request to the repos the user owns, across types', async () => {
    const requests = await pendingAccessRequests(session(owner))
    expect(requests.map((r) => `${r.repo.type}:${r.repo.namespace}/${r.repo.name}:${r.username}`).sort()).toEqual([
      'dataset:arowner/gated-data:arasker',
      'model:arowner/gated-model:arasker',
    ])
  })

  it('an organization admin sees its repos; a write member, who cannot manage them, does not', async () => {
    expect((await pendingAccessRequests(session(orgAdmin))).map((r) => r.repo.name)).toEqual(['org-gated'])
    expect(await pendingAccessRequests(session(orgWriter))).toEqual([])
    expect(await pendingAccessRequests(session(asker))).toEqual([])
  })

  it('a decided request leaves the list', async () => {
    const [request] = (await pendingAccessRequests(session(owner))).filter((r) => r.repo.name === 'gated-model')
    await decideGatedAccess(session(owner), request!.repo.id, asker, 'accepted')
    expect((await pendingAccessRequests(session(owner))).map((r) => r.repo.name)).toEqual(['gated-data'])
  })
})

describe('payment method on file', () => {
  it('is the hub operator\'s to set: an organization admin is refused and nothing changes', async () => {
    const operator = (await createUser({ username: 'aroperator', email: 'aroperator@test.dev', password: 'password-operator' }, { isOperator: true })).id
    await expect(setOrgPaymentMethod(session(orgAdmin), orgId, true)).rejects.toMatchObject({ status: 404 })
    expect((await db.org.findUniqueOrThrow({ where: { id: orgId } })).canPay).toBe(false)
    await setOrgPaymentMethod(session(operator), orgId, true, '192.0.2.9')
    expect((await db.org.findUniqueOrThrow({ where: { id: orgId } })).canPay).toBe(true)
    expect(await db.auditLogEntry.findFirst({ where: { orgId, action: 'org.payment-method' } })).toMatchObject({ actorUserId: operator, ip: '192.0.2.9' })
  })

  it('the admins\' plan form leaves it as the operator set it', async () => {
    await setBilling(orgId, { plan: 'team' })
    expect(await db.org.findUniqueOrThrow({ where: { id: orgId } })).toMatchObject({ plan: 'team', canPay: true })
  })
})
