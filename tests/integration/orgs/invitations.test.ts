// Invitations into an organization (lib/hub/invitations): nobody is a member until they accept; an
// admin may cancel; answers and cancellations race safely; every step is in the audit log.
import { beforeAll, describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { createUser } from '@/lib/hub/users'
import { changeMember, createOrg, leaveOrg, orgsOfUser } from '@/lib/hub/orgs'
import { answerInvitation, cancelInvitation, invitationsOfOrg, invitationsOfUser, inviteMember, MAX_PENDING_INVITATIONS } from '@/lib/hub/invitations'

let admin: { id: string }
let guest: { id: string }
let orgId: string

const auditActions = async () => (await db.auditLogEntry.findMany({ where: { orgId }, orderBy: { createdAt: 'asc' } })).map((e) => e.action)
const memberRole = async (userId: string) => (await db.membership.findUnique({ where: { orgId_userId: { orgId, userId } } }))?.role ?? null

beforeAll(async () => {
  admin = await createUser({ username: 'inv-admin', email: 'inv-admin@test.dev', password: 'password-admin' })
  guest = await createUser({ username: 'inv-guest', email: 'inv-guest@test.dev', password: 'password-guest' })
  orgId = (await createOrg(admin.id, { name: 'inv-org' })).id
})

describe('an invitation', () => {
  it('makes no member until it is accepted, then one with the role on offer', async () => {
    expect(await inviteMember(orgId, ' inv-guest ', 'read', { userId: admin.id, ip: '203.0.113.5' })).toBe('invited')
    // A second invitation changes the role on offer; still one invitation, still no member.
    expect(await inviteMember(orgId, 'inv-guest', 'write', { userId: admin.id })).toBe('invited')
    expect(await memberRole(guest.id)).toBeNull()
    expect(await orgsOfUser(guest.id)).toEqual([])
    expect((await invitationsOfOrg(orgId)).map((i) => [i.user.username, i.role])).toEqual([['inv-guest', 'write']])
    expect(await invitationsOfUser(guest.id)).toMatchObject([{ role: 'write', org: { name: 'inv-org' }, invitedBy: 'inv-admin' }])

    await answerInvitation(guest.id, 'inv-org', true, '203.0.113.9')
    expect(await memberRole(guest.id)).toBe('write')
    expect((await db.auditLogEntry.findFirstOrThrow({ where: { orgId, action: 'member.join' } })).ip).toBe('203.0.113.9')
    expect(await invitationsOfUser(guest.id)).toEqual([])
    await expect(answerInvitation(guest.id, 'inv-org', true)).rejects.toThrow(/No invitation/)
    // Inviting a member changes their role at once.
    expect(await inviteMember(orgId, 'inv-guest', 'contributor', { userId: admin.id })).toBe('role-changed')
    expect(await memberRole(guest.id)).toBe('contributor')
    expect(await auditActions()).toEqual(['member.invite', 'member.invite', 'member.join', 'member.role'])
    const invite = await db.auditLogEntry.findFirstOrThrow({ where: { orgId, action: 'member.invite' } })
    expect([invite.actorUserId, invite.userId, invite.ip, JSON.parse(invite.data)]).toEqual([admin.id, guest.id, '203.0.113.5', { username: 'inv-guest', role: 'read' }])
  })

  it('may be declined or cancelled, and then cannot be accepted', async () => {
    const other = await createUser({ username: 'inv-other', email: 'inv-other@test.dev', password: 'password-other' })
    await inviteMember(orgId, 'inv-other', 'admin', { userId: admin.id })
    await answerInvitation(other.id, 'inv-org', false)
    await expect(answerInvitation(other.id, 'inv-org', true)).rejects.toThrow(/No invitation/)
    expect(await memberRole(other.id)).toBeNull()

    await inviteMember(orgId, 'inv-other', 'read', { userId: admin.id })
    const [pending] = await invitationsOfOrg(orgId)
    await cancelInvitation(orgId, pending!.id, { userId: admin.id })
    await expect(cancelInvitation(orgId, pending!.id, { userId: admin.id })).rejects.toThrow(/No such invitation/)
    await expect(answerInvitation(other.id, 'inv-org', true)).rejects.toThrow(/No invitation/)
    expect(await memberRole(other.id)).toBeNull()
    expect((await auditActions()).slice(-4)).toEqual(['member.invite', 'member.decline', 'member.invite', 'member.invite-cancel'])
  })

  it('is by username only, for a user that exists, with a known role; another organization cannot cancel it', async () => {
    await expect(inviteMember(orgId, 'inv-guest@test.dev', 'read', { userId: admin.id })).rejects.toThrow(/by username/)
    await expect(inviteMember(orgId, 'no-such-user', 'read', { userId: admin.id })).rejects.toThrow(/No user named/)
    await expect(inviteMember(orgId, 'inv-guest', 'owner', { userId: admin.id })).rejects.toThrow()
    const stranger = await createUser({ username: 'inv-stranger', email: 'inv-stranger@test.dev', password: 'password-stranger' })
    await inviteMember(orgId, 'inv-stranger', 'read', { userId: admin.id })
    const [pending] = await invitationsOfOrg(orgId)
    const elsewhere = await createOrg(stranger.id, { name: 'inv-elsewhere' })
    await expect(cancelInvitation(elsewhere.id, pending!.id, { userId: stranger.id })).rejects.toThrow(/No such invitation/)
    expect(await invitationsOfOrg(orgId)).toHaveLength(1)
  })

  it('answered twice at once (accept and decline) makes exactly one outcome', async () => {
    const racer = await createUser({ username: 'inv-racer', email: 'inv-racer@test.dev', password: 'password-racer' })
    await inviteMember(orgId, 'inv-racer', 'read', { userId: admin.id })
    const answers = [true, false, true]
    const outcomes = await Promise.allSettled(answers.map((accept) => answerInvitation(racer.id, 'inv-org', accept)))
    const won = outcomes.findIndex((o) => o.status === 'fulfilled')
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    for (const o of outcomes) if (o.status === 'rejected') expect(String(o.reason)).toMatch(/No invitation/)
    expect(await db.membership.count({ where: { orgId, userId: racer.id } })).toBe(answers[won] ? 1 : 0)
    const answered = await db.auditLogEntry.findMany({ where: { orgId, userId: racer.id, action: { in: ['member.join', 'member.decline'] } } })
    expect(answered.map((e) => e.action)).toEqual([answers[won] ? 'member.join' : 'member.decline'])
  })

  it(`waits at most ${MAX_PENDING_INVITATIONS} at once per organization`, async () => {
    const crowdOrg = await createOrg(admin.id, { name: 'inv-crowd' })
    const users = await Promise.all(Array.from({ length: MAX_PENDING_INVITATIONS + 1 }, (_, i) => db.user.create({ data: { username: `inv-crowd-${i}`, email: `inv-crowd-${i}@test.dev`, passwordHash: 'x' } })))
    for (const u of users.slice(0, MAX_PENDING_INVITATIONS)) await inviteMember(crowdOrg.id, u.username, 'read', { userId: admin.id })
    await expect(inviteMember(crowdOrg.id, users.at(-1)!.username, 'read', { userId: admin.id })).rejects.toThrow(/At most 100 invitations/)
    // Re-inviting someone already invited is not a new invitation.
    expect(await inviteMember(crowdOrg.id, users[0]!.username, 'write', { userId: admin.id })).toBe('invited')
  })
})

describe('membership changes by an admin or the member', () => {
  it('are in the audit log: role changed, removed, left', async () => {
    const m = await createUser({ username: 'inv-member', email: 'inv-member@test.dev', password: 'password-member' })
    await inviteMember(orgId, 'inv-member', 'read', { userId: admin.id })
    await answerInvitation(m.id, 'inv-org', true)
    await changeMember(orgId, m.id, 'write', { userId: admin.id })
    await changeMember(orgId, m.id, 'write', { userId: admin.id }) // no change, no entry
    await changeMember(orgId, m.id, null, { userId: admin.id })
    await inviteMember(orgId, 'inv-member', 'read', { userId: admin.id })
    await answerInvitation(m.id, 'inv-org', true)
    await leaveOrg(m.id, 'inv-org', '198.51.100.7')
    const entries = await db.auditLogEntry.findMany({ where: { orgId, userId: m.id }, orderBy: { createdAt: 'asc' } })
    expect(entries.map((e) => e.action)).toEqual(['member.invite', 'member.join', 'member.role', 'member.remove', 'member.invite', 'member.join', 'member.leave'])
    expect(JSON.parse(entries[2]!.data)).toEqual({ username: 'inv-member', from: 'read', to: 'write' })
    expect([entries[6]!.actorUserId, entries[6]!.ip]).toEqual([m.id, '198.51.100.7'])
  })
})
