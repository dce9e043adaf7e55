// Organizations, their members and roles, plan and billing flag.
import { z } from 'zod'
import { db, lockRow, statementsIn, type Tx } from '@/lib/db'
import { claimName, isUniqueViolation } from '@/lib/hub/namespaces'
import { recordAudit } from '@/lib/hub/audit'
import { namespaceName } from '@/lib/hub/names'
import { displayText } from '@/lib/display-text'
import { ORG_ROLES, manageOrgDecision, type Caller, type OrgRole } from '@/lib/policy'
import { badRequest, conflict, denial, notFound } from '@/lib/http/errors'

export const orgRole = z.enum(ORG_ROLES as [OrgRole, ...OrgRole[]])
export const PLANS = ['free', 'team', 'enterprise'] as const
export const plan = z.enum(PLANS)

export const createOrgInput = z.object({
  name: namespaceName,
  fullname: displayText(100).default(''),
})

/** Organizations one user may administer: names are a shared space, and each organization brings budgets of its own. */
const MAX_ADMINISTERED_ORGS = 100

export async function createOrg(creatorId: string, input: z.input<typeof createOrgInput>) {
  const data = createOrgInput.parse(input)
  try {
    return await db.$transaction(async (tx) => {
      // Counted under the user's row lock, so a burst of requests cannot pass the cap together.
      await lockRow(statementsIn(tx), 'User', creatorId)
      if ((await tx.membership.count({ where: { userId: creatorId, role: 'admin' } })) >= MAX_ADMINISTERED_ORGS) {
        throw badRequest(`You may administer at most ${MAX_ADMINISTERED_ORGS} organizations; leave or delete one first`)
      }
      await claimName(data.name, 'org', tx)
      const org = await tx.org.create({ data: { name: data.name, fullname: data.fullname || data.name } })
      await tx.membership.create({ data: { orgId: org.id, userId: creatorId, role: 'admin' } })
      return org
    })
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(`The name "${data.name}" is already taken`)
    throw e
  }
}

export async function roleInOrg(userId: string | null | undefined, orgId: string, tx: Tx = db): Promise<OrgRole | null> {
  if (!userId) return null
  const m = await tx.membership.findUnique({ where: { orgId_userId: { orgId, userId } }, select: { role: true } })
  return (m?.role as OrgRole | undefined) ?? null
}

export async function findOrg(name: string) {
  return db.org.findUnique({ where: { name } })
}

/**
 * The organization named `name`, for a caller who may manage it (its admins; lib/policy decides).
 * Throws the hub's 404 for an unknown name and the policy's denial otherwise; pages turn either into
 * their 404 page.
 */
export async function authorizedOrg(caller: Caller, name: string) {
  const org = await db.org.findUnique({ where: { name } })
  if (!org) throw notFound('Organization not found')
  const decision = manageOrgDecision(caller, await roleInOrg(caller?.userId, org.id))
  if (decision !== 'allow') throw denial(decision, 'Organization')
  return org
}

/** The members of an organization its admin manages, oldest first (the settings page). */
export async function orgMembersView(caller: Caller, name: string) {
  const org = await authorizedOrg(caller, name)
  const members = await db.membership.findMany({ where: { orgId: org.id }, include: { user: true }, orderBy: { createdAt: 'asc' } })
  return { ...org, members }
}

/**
 * The user a membership form names, by username only: an e-mail address is never looked up (any
 * signed-in user may create an organization, and adding an address would tell them whose account
 * it is). 400 for an address, 404 for no such user.
 */
export async function userToAdd(login: string, verb: 'Add' | 'Invite') {
  const key = login.trim()
  if (key.includes('@')) throw badRequest(`${verb} members by username; e-mail addresses are not looked up`)
  const user = await db.user.findUnique({ where: { username: key } })
  if (!user) throw notFound(`No user named "${key.slice(0, 100)}"`)
  return user
}

/**
 * Makes a user, by username, a member at once; an existing member's role changes as changeMember
 * would. For the demo data and tests: people join through an invitation they accept
 * (lib/hub/invitations.ts).
 */
export async function addMember(orgId: string, login: string, role: string) {
  const validRole = orgRole.parse(role)
  const user = await userToAdd(login, 'Add')
  if (await db.membership.findUnique({ where: { orgId_userId: { orgId, userId: user.id } } })) return changeMember(orgId, user.id, validRole)
  try {
    await db.membership.create({ data: { orgId, userId: user.id, role: validRole } })
  } catch (e) {
    if (!isUniqueViolation(e)) throw e
    return changeMember(orgId, user.id, validRole) // added by a concurrent request meanwhile
  }
}

/** Who changed a membership, for the audit log (absent for the demo data). */
export type MemberChangeActor = { userId: string; ip?: string | null }

/**
 * Changes a member's role or removes them; an organization always keeps at least one admin. With
 * an actor the change goes to the organization's audit log (a member removing themselves: left).
 */
export async function changeMember(orgId: string, userId: string, role: string | null, actor?: MemberChangeActor) {
  const validRole = role === null ? null : orgRole.parse(role)
  return db.$transaction(async (tx) => {
    // The organization's row, locked first: two admins demoting each other at once each counted two
    // admins before either committed, and none was left. Now the second counts what the first left.
    await lockRow(statementsIn(tx), 'Org', orgId)
    const member = await tx.membership.findUnique({ where: { orgId_userId: { orgId, userId } }, include: { user: { select: { username: true } } } })
    if (!member) throw notFound('Not a member of this organization')
    if (member.role === 'admin' && validRole !== 'admin') {
      const admins = await tx.membership.count({ where: { orgId, role: 'admin' } })
      if (admins <= 1) throw badRequest('An organization needs at least one admin')
    }
    if (validRole === null) await tx.membership.delete({ where: { id: member.id } })
    else await tx.membership.update({ where: { id: member.id }, data: { role: validRole } })
    if (actor && validRole !== member.role) {
      const action = validRole !== null ? 'member.role' : actor.userId === userId ? 'member.leave' : 'member.remove'
      const data = { username: member.user.username, from: member.role, ...(validRole !== null ? { to: validRole } : {}) }
      await recordAudit({ orgId, action, actorUserId: actor.userId, userId, data, ip: actor.ip }, tx)
    }
  })
}

/**
 * The signed-in user leaves an organization (a member may always leave, whoever added them);
 * the last admin may not, as changeMember says. 404 when they are not a member.
 */
export async function leaveOrg(userId: string, orgName: string, ip: string | null = null) {
  const org = await db.org.findUnique({ where: { name: orgName } })
  if (!org) throw notFound('Not a member of this organization')
  await changeMember(org.id, userId, null, { userId, ip })
  return org
}

/**
 * An organization admin's choice of plan: a paid plan needs a payment method on file (recorded by the hub operator,
 * setOrgPaymentMethod in lib/hub/org-apps; the admins' form never sets it); the plan the organization is on may be kept, and the free plan is always open.
 */
export async function choosePlan(org: { id: string; plan: string; canPay: boolean }, choice: string) {
  const chosen = plan.parse(choice)
  if (chosen !== 'free' && chosen !== org.plan && !org.canPay) {
    throw badRequest(`The ${chosen} plan needs a payment method on file; ask the hub operator to record one`)
  }
  return setBilling(org.id, { plan: chosen })
}

/** Sets the plan (and payment method) as recorded, with no checks: the seed, the operator, tests. */
export async function setBilling(orgId: string, input: { plan: string; canPay?: boolean }) {
  const p = plan.parse(input.plan)
  return db.org.update({ where: { id: orgId }, data: { plan: p, ...(input.canPay === undefined ? {} : { canPay: input.canPay }) } })
}

export async function orgsOfUser(userId: string) {
  const memberships = await db.membership.findMany({ where: { userId }, include: { org: true }, orderBy: { createdAt: 'asc' } })
  return memberships.map((m) => ({ ...m.org, role: m.role as OrgRole }))
}
