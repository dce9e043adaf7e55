// The identity summary of /api/whoami-v2, in the Hub's shape (@huggingface/hub's whoAmI reads it).
import { rows, sql } from '@/lib/db'
import { hubUrl } from '@/lib/config'
import { profileVisibility, seesOrgBilling } from '@/lib/policy'
import type { Principal } from '@/lib/policy/principal'

const AUTH_TYPE: Record<Principal['tokenKind'], string> = {
  personal: 'access_token',
  oauth: 'oauth',
  exchange: 'token_exchange',
  publisher: 'trusted_publisher',
  session: 'session_credential',
}

export function avatarUrl(name: string, stored: string | null): string {
  return stored || `${hubUrl()}/avatars/${encodeURIComponent(name)}.svg`
}

/** A row of a statement that selects USER_MEMBERSHIPS_COLUMNS. */
export type UserMembershipRow = {
  id: string
  username: string
  fullname: string
  email: string
  emailVerified: boolean
  avatarUrl: string | null
  website: string | null
  isPro: boolean
  orgId: string | null
  role: string | null
  orgName: string | null
  orgFullname: string | null
  orgAvatarUrl: string | null
  orgPlan: string | null
  orgCanPay: boolean | null
}

export type UserWithMemberships = Pick<UserMembershipRow, 'id' | 'username' | 'fullname' | 'email' | 'emailVerified' | 'avatarUrl' | 'website' | 'isPro'> & {
  memberships: { orgId: string; role: string; org: { id: string; name: string; fullname: string; avatarUrl: string | null; plan: string; canPay: boolean } }[]
}

/**
 * What a statement selects to read a user (joined as `u`) with their memberships (`m`) and
 * organizations (`o`): one row per membership, oldest first (ORDER BY USER_MEMBERSHIPS_ORDER).
 * A statement that reads a row naming a user can read the user with it (the token endpoint reads
 * a code or refresh token and its user in one statement).
 */
export const USER_MEMBERSHIPS_COLUMNS = sql`u."id", u."username", u."fullname", u."email", u."emailVerified", u."avatarUrl", u."website", u."isPro",
  m."orgId", m."role", o."name" AS "orgName", o."fullname" AS "orgFullname", o."avatarUrl" AS "orgAvatarUrl",
  o."plan" AS "orgPlan", o."canPay" AS "orgCanPay"`
export const USER_MEMBERSHIPS_JOINS = sql`LEFT JOIN "Membership" m ON m."userId" = u."id" LEFT JOIN "Org" o ON o."id" = m."orgId"`
export const USER_MEMBERSHIPS_ORDER = sql`m."createdAt" ASC, m."id" ASC`

/** The user those rows read, or null when they read none (u."id" null: no such user). */
export function userFromMembershipRows(found: readonly UserMembershipRow[]): UserWithMemberships | null {
  const [first] = found
  if (!first?.id) return null
  const { id, username, fullname, email, emailVerified, avatarUrl, website, isPro } = first
  return {
    id,
    username,
    fullname,
    email,
    emailVerified: Boolean(emailVerified),
    avatarUrl,
    website,
    isPro: Boolean(isPro),
    memberships: found
      .filter((r) => r.orgId !== null)
      .map((r) => ({
        orgId: r.orgId!,
        role: r.role!,
        org: { id: r.orgId!, name: r.orgName!, fullname: r.orgFullname!, avatarUrl: r.orgAvatarUrl, plan: r.orgPlan!, canPay: Boolean(r.orgCanPay) },
      })),
  }
}

/**
 * A user with their memberships and organizations, oldest membership first, or null: one statement
 * (Prisma's nested include takes three), read on every whoami-v2, userinfo and id_token.
 */
export async function userWithMemberships(userId: string): Promise<UserWithMemberships | null> {
  return userFromMembershipRows(
    await rows<UserMembershipRow>(sql`SELECT ${USER_MEMBERSHIPS_COLUMNS} FROM "User" u ${USER_MEMBERSHIPS_JOINS} WHERE u."id" = ${userId} ORDER BY ${USER_MEMBERSHIPS_ORDER}`),
  )
}

export async function whoami(userId: string, principal: Principal | null) {
  const user = await userWithMemberships(userId)
  if (!user) throw new Error(`No user ${userId}`)
  const see = profileVisibility(principal)
  // OAuth and exchange tokens list only the organizations they may reach unless they may read memberships.
  const memberships = user.memberships.filter((m) => see.memberships || !principal || principal.orgIds.includes(m.orgId))
  return {
    type: 'user',
    id: user.id,
    name: user.username,
    fullname: user.fullname,
    email: see.email ? user.email : null,
    emailVerified: see.email ? user.emailVerified : false,
    isPro: user.isPro,
    canPay: see.ownBilling ? user.isPro : false,
    billingMode: 'postpaid',
    avatarUrl: avatarUrl(user.username, user.avatarUrl),
    periodEnd: null,
    orgs: memberships.map((m) => ({
      type: 'org',
      id: m.org.id,
      name: m.org.name,
      fullname: m.org.fullname,
      email: null,
      canPay: seesOrgBilling(principal, m.orgId) ? m.org.canPay : false,
      avatarUrl: avatarUrl(m.org.name, m.org.avatarUrl),
      periodEnd: null,
      plan: m.org.plan,
      roleInOrg: m.role,
    })),
    auth: principal
      ? {
          type: AUTH_TYPE[principal.tokenKind],
          ...(principal.tokenKind === 'personal'
            ? { accessToken: { displayName: principal.displayName, role: principal.role, createdAt: principal.createdAt.toISOString() } }
            : {}),
          ...(principal.scopes.length ? { scope: principal.scopes.join(' ') } : {}),
          ...(principal.expiresAt ? { expiresAt: principal.expiresAt.toISOString() } : {}),
        }
      : { type: 'session' },
  }
}
