// The identity summary of /api/whoami-v2, in the Hub's shape (@huggingface/hub's whoAmI reads it).
import { db } from '@/lib/db'
import { hubUrl } from '@/lib/config'
import { profileVisibility } from '@/lib/policy'
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

export async function whoami(userId: string, principal: Principal | null) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, include: { memberships: { include: { org: true } } } })
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
    canPay: see.billing ? user.isPro : false,
    billingMode: 'postpaid',
    avatarUrl: avatarUrl(user.username, user.avatarUrl),
    periodEnd: null,
    orgs: memberships.map((m) => ({
      type: 'org',
      id: m.org.id,
      name: m.org.name,
      fullname: m.org.fullname,
      email: null,
      canPay: see.billing ? m.org.canPay : false,
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
