// The claims of /oauth/userinfo, also carried by id_tokens: the Hugging Face shape that
// @huggingface/hub and Spaces-style clients read, each field only with its scope.
import { hubUrl } from '@/lib/config'
import { avatarUrl, userWithMemberships, type UserWithMemberships } from '@/lib/hub/identity'
import { profileVisibility, seesOrgBilling } from '@/lib/policy'
import type { Principal } from '@/lib/policy/principal'

export type Grantee = Pick<Principal, 'tokenKind' | 'role' | 'scopes' | 'orgIds'>

export async function userinfoClaims(userId: string, grant: Grantee): Promise<Record<string, unknown>> {
  const user = await userWithMemberships(userId)
  if (!user) throw new Error(`No user ${userId}`)
  return userinfoClaimsOf(user, grant)
}

/** The claims of a user already read (lib/hub/identity). */
export function userinfoClaimsOf(user: UserWithMemberships, grant: Grantee): Record<string, unknown> {
  const see = profileVisibility(grant)
  const claims: Record<string, unknown> = { sub: user.id }
  if (see.profile) {
    claims.name = user.fullname || user.username
    claims.preferred_username = user.username
    claims.picture = avatarUrl(user.username, user.avatarUrl)
    claims.profile = `${hubUrl()}/${user.username}`
    if (user.website) claims.website = user.website
    claims.isPro = user.isPro
  }
  if (see.email) {
    claims.email = user.email
    claims.email_verified = user.emailVerified
  }
  if (see.ownBilling) claims.canPay = user.isPro
  // Organizations: all of them with read-memberships, else those granted at consent.
  claims.orgs = user.memberships
    .filter((m) => see.memberships || grant.orgIds.includes(m.orgId))
    .map((m) => ({
      sub: m.org.id,
      name: m.org.fullname || m.org.name,
      preferred_username: m.org.name,
      picture: avatarUrl(m.org.name, m.org.avatarUrl),
      plan: m.org.plan,
      ...(seesOrgBilling(grant, m.orgId) ? { canPay: m.org.canPay } : {}),
      roleInOrg: m.role,
    }))
  return claims
}
