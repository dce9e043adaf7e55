// Invitations into an organization. An admin invites a user by username with a role; the user is a
// member only once they accept (Settings -> Organizations), so nobody is listed in an organization,
// or given its private repos, without saying yes. Inviting someone who is a member already changes
// their role, as changeMember does. Every step is in the organization's audit log.
import { db, lockRow, sql, statementsIn } from '@/lib/db'
import { recordAudit } from '@/lib/hub/audit'
import { changeMember, orgRole, userToAdd, type MemberChangeActor } from '@/lib/hub/orgs'
import { badRequest, notFound } from '@/lib/http/errors'

/** Invitations an organization may have waiting at once: enough for a team, too few to spam a hub's users. */
export const MAX_PENDING_INVITATIONS = 100

/**
 * Invites the user named `login` (a username: userToAdd) with `role`. A second invitation of the same user replaces the role
 * on offer. Returns what happened.
 */
export async function inviteMember(orgId: string, login: string, role: string, actor: MemberChangeActor): Promise<'invited' | 'role-changed'> {
  const validRole = orgRole.parse(role)
  const user = await userToAdd(login, 'Invite')
  if (await db.membership.findUnique({ where: { orgId_userId: { orgId, userId: user.id } } })) {
    await changeMember(orgId, user.id, validRole, actor)
    return 'role-changed'
  }
  await db.$transaction(async (tx) => {
    // Counted under the organization's row lock (lib/db lockRow), so a burst cannot pass the cap.
    await lockRow(statementsIn(tx), 'Org', orgId)
    const pending = await tx.orgInvitation.count({ where: { orgId } })
    const existing = await tx.orgInvitation.findUnique({ where: { orgId_userId: { orgId, userId: user.id } } })
    if (!existing && pending >= MAX_PENDING_INVITATIONS) {
      throw badRequest(`At most ${MAX_PENDING_INVITATIONS} invitations may wait at once; cancel some first`)
    }
    await tx.orgInvitation.upsert({
      where: { orgId_userId: { orgId, userId: user.id } },
      create: { orgId, userId: user.id, role: validRole, invitedById: actor.userId },
      update: { role: validRole, invitedById: actor.userId },
    })
    await recordAudit({ orgId, action: 'member.invite', actorUserId: actor.userId, userId: user.id, data: { username: user.username, role: validRole }, ip: actor.ip }, tx)
  })
  return 'invited'
}

/** The invitations waiting for a user's answer, newest first (Settings -> Organizations). */
export async function invitationsOfUser(userId: string) {
  const rows = await db.orgInvitation.findMany({
    where: { userId },
    orderBy: { createdAt: 'desc' },
    select: { id: true, role: true, createdAt: true, org: { select: { name: true, fullname: true } }, invitedBy: { select: { username: true } } },
  })
  return rows.map((r) => ({ id: r.id, role: r.role, createdAt: r.createdAt, org: r.org, invitedBy: r.invitedBy?.username ?? null }))
}

/** How many invitations wait for the user's answer (the header shows it, so that nobody has to look). */
export async function invitationCount(userId: string | null | undefined): Promise<number> {
  if (!userId) return 0
  return db.orgInvitation.count({ where: { userId } })
}

/** The invitations an organization has waiting, oldest first (its settings page, for its admins). */
export async function invitationsOfOrg(orgId: string) {
  return db.orgInvitation.findMany({
    where: { orgId },
    orderBy: { createdAt: 'asc' },
    select: { id: true, role: true, createdAt: true, user: { select: { username: true } } },
  })
}

/**
 * The invited user's answer: accepting makes them a member with the role on offer; declining drops
 * the invitation. 404 when they have no invitation from that organization (never invited, answered
 * already, or cancelled by an admin meanwhile). Returns the organization.
 */
export async function answerInvitation(userId: string, orgName: string, accept: boolean, ip: string | null = null) {
  const org = await db.org.findUnique({ where: { name: orgName } })
  if (!org) throw notFound('No invitation from this organization')
  await db.$transaction(async (tx) => {
    // Taken by its DELETE: of two answers at once (or an answer and a cancellation), one finds the row.
    const [invitation] = await statementsIn(tx).rows<{ role: string }>(
      sql`DELETE FROM "OrgInvitation" WHERE "orgId" = ${org.id} AND "userId" = ${userId} RETURNING "role"`,
    )
    if (!invitation) throw notFound('No invitation from this organization')
    const member = await tx.membership.findUnique({ where: { orgId_userId: { orgId: org.id, userId } } })
    if (accept && !member) await tx.membership.create({ data: { orgId: org.id, userId, role: invitation.role } })
    await recordAudit({ orgId: org.id, action: accept ? 'member.join' : 'member.decline', actorUserId: userId, userId, data: { role: invitation.role }, ip }, tx)
  })
  return org
}

/** An admin withdraws an invitation that has not been answered; 404 when there is none. */
export async function cancelInvitation(orgId: string, invitationId: string, actor: MemberChangeActor) {
  await db.$transaction(async (tx) => {
    const [invitation] = await statementsIn(tx).rows<{ userId: string; role: string }>(
      sql`DELETE FROM "OrgInvitation" WHERE "id" = ${invitationId} AND "orgId" = ${orgId} RETURNING "userId", "role"`,
    )
    if (!invitation) throw notFound('No such invitation')
    const user = await tx.user.findUnique({ where: { id: invitation.userId }, select: { username: true } })
    await recordAudit(
      { orgId, action: 'member.invite-cancel', actorUserId: actor.userId, userId: invitation.userId, data: { username: user?.username, role: invitation.role }, ip: actor.ip },
      tx,
    )
  })
}
