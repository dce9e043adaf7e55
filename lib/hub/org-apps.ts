// Organization-bound OAuth apps and their token-exchange privilege (SPEC.md area B, 6-8):
//   - hub operators grant or revoke the privilege, and only to apps bound to an Enterprise-plan
//     organization; the organization never grants it to itself;
//   - organization admins set how long exchanged tokens live (default 8 h, at most 30 days).
// Every change is written to the organization's audit log in the same transaction.
import { z } from 'zod'
import { db } from '@/lib/db'
import { recordAudit } from '@/lib/hub/audit'
import { roleInOrg } from '@/lib/hub/orgs'
import { manageOrgDecision, operatorDecision, type Caller } from '@/lib/policy'
import { badRequest, denial, notFound } from '@/lib/http/errors'

export const EXCHANGE_LIFETIME_DEFAULT_SECONDS = 8 * 3600
export const EXCHANGE_LIFETIME_MIN_SECONDS = 5 * 60
export const EXCHANGE_LIFETIME_MAX_SECONDS = 30 * 24 * 3600

export const exchangeLifetimeSeconds = z.coerce
  .number({ message: 'must be a number of seconds' })
  .int('must be a whole number of seconds')
  .min(EXCHANGE_LIFETIME_MIN_SECONDS, 'must be at least 5 minutes')
  .max(EXCHANGE_LIFETIME_MAX_SECONDS, 'must be at most 30 days')

/** The signed-in operator, or the policy's refusal. */
export async function requireOperator(caller: Caller) {
  const user = caller ? await db.user.findUnique({ where: { id: caller.userId }, select: { id: true, username: true, isOperator: true } }) : null
  const decision = operatorDecision(caller, user?.isOperator ?? false)
  if (decision !== 'allow') throw denial(decision, 'Page')
  return user!
}

async function orgBoundApp(appId: string) {
  const app = await db.oAuthApp.findUnique({ where: { id: appId }, include: { ownerOrg: true } })
  if (!app) throw notFound('No such app')
  return app
}

/** Grants the token-exchange privilege; the app must be bound to an Enterprise-plan organization. */
export async function grantTokenExchange(caller: Caller, appId: string, ip: string | null = null) {
  const operator = await requireOperator(caller)
  const app = await orgBoundApp(appId)
  if (!app.ownerOrg) throw badRequest(`"${app.name}" is not bound to an organization: only organization apps can exchange tokens`)
  if (app.ownerOrg.plan !== 'enterprise') {
    throw badRequest(`Token exchange needs an Enterprise-plan organization; ${app.ownerOrg.name} is on the ${app.ownerOrg.plan} plan`)
  }
  if (!app.secretHash) throw badRequest(`"${app.name}" is a public app (no client secret): token exchange needs an app that authenticates with a secret`)
  if (app.tokenExchange) return app
  return db.$transaction(async (tx) => {
    const updated = await tx.oAuthApp.update({ where: { id: app.id }, data: { tokenExchange: true } })
    await recordAudit({ orgId: app.ownerOrgId, action: 'app.exchange.grant', actorUserId: operator.id, appId: app.id, data: { clientId: app.clientId, app: app.name }, ip }, tx)
    return updated
  })
}

/**
 * Whether an organization has a payment method on file. There is no payment flow on the hub, so
 * only the hub operator records it (organization admins see it read-only).
 */
export async function setOrgPaymentMethod(caller: Caller, orgId: string, canPay: boolean, ip: string | null = null) {
  const operator = await requireOperator(caller)
  const org = await db.org.findUnique({ where: { id: orgId } })
  if (!org) throw notFound('Organization not found')
  if (org.canPay === canPay) return org
  return db.$transaction(async (tx) => {
    const updated = await tx.org.update({ where: { id: org.id }, data: { canPay } })
    await recordAudit({ orgId: org.id, action: 'org.payment-method', actorUserId: operator.id, data: { canPay }, ip }, tx)
    return updated
  })
}

/** Revokes the privilege and ends the exchange tokens the app holds. */
export async function revokeTokenExchange(caller: Caller, appId: string, ip: string | null = null) {
  const operator = await requireOperator(caller)
  const app = await orgBoundApp(appId)
  if (!app.tokenExchange) return { app, revokedTokens: 0 }
  return db.$transaction(async (tx) => {
    const updated = await tx.oAuthApp.update({ where: { id: app.id }, data: { tokenExchange: false } })
    const revoked = await tx.accessToken.updateMany({ where: { appId: app.id, kind: 'exchange', revokedAt: null }, data: { revokedAt: new Date() } })
    await recordAudit(
      { orgId: app.ownerOrgId, action: 'app.exchange.revoke', actorUserId: operator.id, appId: app.id, data: { clientId: app.clientId, app: app.name, revokedTokens: revoked.count }, ip },
      tx,
    )
    return { app: updated, revokedTokens: revoked.count }
  })
}

/** Sets how long the app's exchanged tokens live; organization admins only. Existing tokens keep their expiry. */
export async function setExchangeTokenLifetime(caller: Caller, appId: string, seconds: unknown, ip: string | null = null) {
  const lifetime = exchangeLifetimeSeconds.parse(seconds)
  const app = await orgBoundApp(appId)
  if (!app.ownerOrgId) throw badRequest('Only organization apps have an exchange token lifetime')
  const decision = manageOrgDecision(caller, await roleInOrg(caller?.userId, app.ownerOrgId))
  if (decision !== 'allow') throw denial(decision, 'App')
  if (app.exchangeTokenLifetime === lifetime) return app
  return db.$transaction(async (tx) => {
    const updated = await tx.oAuthApp.update({ where: { id: app.id }, data: { exchangeTokenLifetime: lifetime } })
    await recordAudit(
      { orgId: app.ownerOrgId, action: 'app.exchange.lifetime', actorUserId: caller!.userId, appId: app.id, data: { clientId: app.clientId, from: app.exchangeTokenLifetime, to: lifetime }, ip },
      tx,
    )
    return updated
  })
}

/** What the operator page shows: every organization, and the apps bound to organizations. */
export async function operatorOverview(caller: Caller) {
  await requireOperator(caller)
  const [orgs, apps] = await Promise.all([
    db.org.findMany({ orderBy: { name: 'asc' }, include: { _count: { select: { members: true, apps: true } } } }),
    db.oAuthApp.findMany({ where: { ownerOrgId: { not: null } }, orderBy: [{ tokenExchange: 'desc' }, { name: 'asc' }], include: { ownerOrg: { select: { name: true, plan: true } } } }),
  ])
  return {
    orgs: orgs.map((o) => ({ id: o.id, name: o.name, plan: o.plan, canPay: o.canPay, members: o._count.members, apps: o._count.apps })),
    apps: apps.map((a) => ({
      id: a.id,
      clientId: a.clientId,
      name: a.name,
      org: a.ownerOrg!.name,
      plan: a.ownerOrg!.plan,
      tokenExchange: a.tokenExchange,
      exchangeTokenLifetime: a.exchangeTokenLifetime,
      eligible: a.ownerOrg!.plan === 'enterprise',
    })),
  }
}
