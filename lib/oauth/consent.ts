// Remembered approvals of (user, client, scopes, organizations): a request that asks for no more
// than was approved passes without a prompt. Revoking one ends the tokens the client holds.
import { db, readList, writeList, type Tx } from '@/lib/db'
import { revokeRefreshTokens } from '@/lib/oauth/tokens'

export type Consent = { scopes: string[]; orgIds: string[] }

export async function findConsent(userId: string, clientId: string): Promise<Consent | null> {
  const row = await db.oAuthConsent.findUnique({ where: { userId_clientId: { userId, clientId } } })
  return row ? { scopes: readList(row.scopes), orgIds: readList(row.orgIds) } : null
}

/** Whether the consent already approves these scopes and organizations. */
export function consentCovers(consent: Consent | null, scopes: readonly string[], orgIds: readonly string[]): boolean {
  return consent !== null && scopes.every((s) => consent.scopes.includes(s)) && orgIds.every((o) => consent.orgIds.includes(o))
}

/** Remembers an approval; scopes approved earlier stay approved, the organizations are the new pick. */
export async function saveConsent(userId: string, clientId: string, scopes: readonly string[], orgIds: readonly string[], tx: Tx = db) {
  const earlier = await tx.oAuthConsent.findUnique({ where: { userId_clientId: { userId, clientId } } })
  const allScopes = writeList([...readList(earlier?.scopes), ...scopes])
  await tx.oAuthConsent.upsert({
    where: { userId_clientId: { userId, clientId } },
    create: { userId, clientId, scopes: allScopes, orgIds: writeList(orgIds) },
    update: { scopes: allScopes, orgIds: writeList(orgIds) },
  })
}

export async function listConsents(userId: string) {
  const consents = await db.oAuthConsent.findMany({ where: { userId }, orderBy: { updatedAt: 'desc' } })
  const apps = await db.oAuthApp.findMany({ where: { clientId: { in: consents.map((c) => c.clientId) } } })
  const orgs = await db.org.findMany({ where: { id: { in: consents.flatMap((c) => readList(c.orgIds)) } } })
  return consents.map((c) => ({
    clientId: c.clientId,
    app: apps.find((a) => a.clientId === c.clientId) ?? null,
    scopes: readList(c.scopes),
    orgs: orgs.filter((o) => readList(c.orgIds).includes(o.id)),
    updatedAt: c.updatedAt,
  }))
}

/** Forgets the approval and revokes every code and token the client holds for this user; false when there was none of either. */
export async function revokeConsent(userId: string, clientId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.oAuthConsent.deleteMany({ where: { userId, clientId } })
    const now = new Date()
    // Codes and device codes first: an exchange spending one at this moment holds its row, so these
    // wait for it to commit, and the refresh token it stored is among those revoked next.
    await tx.authorizationCode.updateMany({ where: { userId, clientId, usedAt: null }, data: { usedAt: now } })
    // An approved device code not yet redeemed would still give its device tokens.
    await tx.deviceCode.updateMany({ where: { userId, clientId, status: 'approved' }, data: { status: 'denied' } })
    // Then the refresh tokens (rotations racing this included), before the access tokens.
    await revokeRefreshTokens(tx, { userId, clientId })
    const app = await tx.oAuthApp.findUnique({ where: { clientId }, select: { id: true } })
    // Tokens with no consent behind them count too (an organization's exchange tokens for this user): revoked, it is said.
    const tokens = app ? await tx.accessToken.updateMany({ where: { userId, appId: app.id, revokedAt: null }, data: { revokedAt: now } }) : { count: 0 }
    // Metadata-document clients have no app row: their access tokens are found through the grants
    // (codes, refresh families, device codes) they came from.
    const [codes, families, devices] = await Promise.all([
      tx.authorizationCode.findMany({ where: { userId, clientId }, select: { id: true } }),
      tx.refreshToken.findMany({ where: { userId, clientId }, select: { familyId: true }, distinct: ['familyId'] }),
      tx.deviceCode.findMany({ where: { userId, clientId }, select: { id: true } }),
    ])
    const grantIds = [...codes.map((c) => c.id), ...families.map((f) => f.familyId), ...devices.map((d) => d.id)]
    const viaGrants = grantIds.length ? await tx.accessToken.updateMany({ where: { userId, grantId: { in: grantIds }, revokedAt: null }, data: { revokedAt: now } }) : { count: 0 }
    return count > 0 || tokens.count > 0 || viaGrants.count > 0
  })
}
