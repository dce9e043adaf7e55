// Who may do what. Every access decision of the hub goes through this module: route handlers and
// pages ask it and never look at roles or scopes themselves.
//
// A decision combines two limits:
//   1. what the user may do (owner, organization role, public/private, gated access), and
//   2. what the credential may do: a browser session carries all of the user's rights; a token
//      carries only its role (personal read/write), or its scopes and granted organizations
//      (fine-grained, OAuth, exchange, trusted publisher).
import type { Principal } from '@/lib/policy/principal'

export type OrgRole = 'read' | 'contributor' | 'write' | 'admin'
export const ORG_ROLES: readonly OrgRole[] = ['read', 'contributor', 'write', 'admin']

/** The caller: anonymous (null), a browser session (principal null), or a bearer token. */
export type Caller = { userId: string; principal: Principal | null } | null

export type Decision = 'allow' | 'unauthenticated' | 'forbidden' | 'not-found'

// ---------------------------------------------------------------- repositories

export type RepoFacts = {
  private: boolean
  gated: boolean
  ownerUserId: string | null
  ownerOrgId: string | null
  createdById: string | null
  createdByApp: string | null
  id?: string
}

/** view: metadata; read: content (files) — gated repos need granted access; write; manage: settings, delete. */
export type RepoAction = 'view' | 'read' | 'write' | 'manage'

export type RepoContext = {
  /** The caller's role in the owning organization, if any. */
  orgRole: OrgRole | null
  /** Whether the caller's access request to this gated repo was accepted. */
  gatedAccepted: boolean
}

const RANK: Record<RepoAction, number> = { view: 0, read: 1, write: 2, manage: 3 }

/** The strongest action the user may take on the repo with full (session) rights; null: none. */
function userRepoLevel(userId: string | null, repo: RepoFacts, ctx: RepoContext): RepoAction | null {
  if (userId && repo.ownerUserId === userId) return 'manage'
  if (userId && repo.ownerOrgId && ctx.orgRole) {
    switch (ctx.orgRole) {
      case 'admin':
        return 'manage'
      case 'write':
        return 'write'
      case 'contributor':
        return repo.createdById === userId ? 'write' : 'read'
      case 'read':
        return 'read'
    }
  }
  if (repo.private) return null
  return repo.gated && !ctx.gatedAccepted ? 'view' : 'read'
}

/** Scopes that let a token act on repos of the user, or of an organization it was granted. */
const REPO_SCOPE_LEVEL: Record<string, RepoAction> = {
  'read-repos': 'read',
  'write-repos': 'write',
  'manage-repos': 'manage',
}

/** The strongest action the credential allows on this repo, before the user's own rights. */
function tokenRepoLevel(p: Principal, repo: RepoFacts, ctx: RepoContext): RepoAction | null {
  if (p.tokenKind === 'personal' && p.role === 'write') return 'manage'
  if (p.tokenKind === 'personal' && p.role === 'read') return 'read'

  // A trusted-publisher token with a repo writes to that one repo and nothing else.
  if (p.tokenKind === 'publisher' && p.repoId) return repo.id === p.repoId ? 'write' : publicLevel(p, repo, ctx)

  const ownRepo = repo.ownerUserId === p.userId
  const grantedOrgRepo = repo.ownerOrgId !== null && p.orgIds.includes(repo.ownerOrgId)
  // Exchange tokens are bound to one organization: the user's own repos are outside it.
  const reachable = p.tokenKind === 'exchange' ? grantedOrgRepo : ownRepo || grantedOrgRepo
  if (!reachable) return publicLevel(p, repo, ctx)

  let level: RepoAction | null = null
  for (const scope of p.scopes) {
    const granted = REPO_SCOPE_LEVEL[scope]
    if (granted && (level === null || RANK[granted] > RANK[level])) level = granted
  }
  if (p.scopes.includes('contribute-repos') && p.appId && repo.createdByApp === p.appId) level = 'manage'
  if (level === null) return publicLevel(p, repo, ctx)
  return level
}

/** What any credential may do with a repo outside its reach: what anyone may, gated content only with gated-repos. */
function publicLevel(p: Principal, repo: RepoFacts, ctx: RepoContext): RepoAction | null {
  if (repo.private) return null
  if (!repo.gated) return 'read'
  const mayReadGated = p.scopes.includes('gated-repos') || p.tokenKind === 'exchange' || (p.tokenKind === 'personal' && p.role !== 'fineGrained')
  return mayReadGated && ctx.gatedAccepted ? 'read' : 'view'
}

/**
 * Who reads the model repo a moderation caller picks for one request (`?model=`): the credential
 * as it is, except a session credential. That one is the signed-in hub page's own (the playground's
 * server side), held by the browser that reads the same repos with its session cookie, so a model
 * it picks is read with its user's own access; the credential itself still reaches no repository
 * through the hub's API.
 */
export function modelPickCaller(principal: Principal): NonNullable<Caller> {
  return { userId: principal.userId, principal: principal.tokenKind === 'session' ? null : principal }
}

export function repoDecision(caller: Caller, action: RepoAction, repo: RepoFacts, ctx: RepoContext): Decision {
  const userLevel = userRepoLevel(caller?.userId ?? null, repo, ctx)
  if (userLevel === null) return 'not-found'
  let level: RepoAction | null = userLevel
  if (caller?.principal) {
    const tokenLevel = tokenRepoLevel(caller.principal, repo, ctx)
    level = tokenLevel === null ? null : RANK[tokenLevel] < RANK[userLevel] ? tokenLevel : userLevel
    // A private repo the credential cannot even see is not revealed.
    if (level === null) return 'not-found'
  }
  if (RANK[level] >= RANK[action]) return 'allow'
  return caller ? 'forbidden' : 'unauthenticated'
}

// ---------------------------------------------------------------- creating repositories

export type RepoOwner = { kind: 'user'; userId: string } | { kind: 'org'; orgId: string; role: OrgRole | null }

export function createRepoDecision(caller: Caller, owner: RepoOwner): Decision {
  if (!caller) return 'unauthenticated'
  const userMay = owner.kind === 'user' ? owner.userId === caller.userId : owner.role !== null && owner.role !== 'read'
  if (!userMay) return 'forbidden'
  const p = caller.principal
  if (!p) return 'allow'
  if (p.tokenKind === 'personal' && p.role === 'write') return 'allow'
  if (p.tokenKind === 'personal' && p.role === 'read') return 'forbidden'
  if (p.tokenKind === 'publisher') return 'forbidden'
  const reachable = owner.kind === 'user' ? p.tokenKind !== 'exchange' : p.orgIds.includes(owner.orgId)
  const scoped = p.scopes.includes('manage-repos') || p.scopes.includes('contribute-repos')
  return reachable && scoped ? 'allow' : 'forbidden'
}

// ---------------------------------------------------------------- collections

export type CollectionFacts = { private: boolean; ownerUserId: string | null; ownerOrgId: string | null }
export type CollectionAction = 'read' | 'write'

export function collectionDecision(caller: Caller, action: CollectionAction, c: CollectionFacts, orgRole: OrgRole | null): Decision {
  const isOwner = caller !== null && c.ownerUserId === caller.userId
  const userMay: CollectionAction | null = isOwner
    ? 'write'
    : c.ownerOrgId && orgRole
      ? orgRole === 'write' || orgRole === 'admin'
        ? 'write'
        : 'read'
      : c.private
        ? null
        : 'read'
  if (userMay === null) return 'not-found'
  const p = caller?.principal
  let may: CollectionAction | null = userMay
  if (p) {
    const reachable = c.ownerOrgId ? p.orgIds.includes(c.ownerOrgId) : p.tokenKind !== 'exchange' && isOwner
    let tokenMay: CollectionAction | null
    if (p.tokenKind === 'personal' && p.role !== 'fineGrained') tokenMay = p.role === 'write' ? 'write' : 'read'
    else if (reachable && p.scopes.includes('write-collections')) tokenMay = 'write'
    else if (reachable && p.scopes.includes('read-collections')) tokenMay = 'read'
    else tokenMay = c.private ? null : 'read'
    if (tokenMay === null) return 'not-found'
    may = tokenMay === 'read' || userMay === 'read' ? 'read' : 'write'
  }
  if (action === 'read' || may === 'write') return 'allow'
  return caller ? 'forbidden' : 'unauthenticated'
}

// ---------------------------------------------------------------- organizations and APIs

/** Managing members, plan and billing flag, org apps: organization admins with a session or a write token. */
export function manageOrgDecision(caller: Caller, orgRole: OrgRole | null): Decision {
  if (!caller) return 'unauthenticated'
  if (orgRole !== 'admin') return orgRole ? 'forbidden' : 'not-found'
  const p = caller.principal
  if (p && !(p.tokenKind === 'personal' && p.role === 'write')) return 'forbidden'
  return 'allow'
}

/** The moderation API: scope write:users, or a write personal token. */
export function mayUseModeration(p: Principal): boolean {
  if (p.tokenKind === 'personal' && p.role === 'write') return true
  return p.scopes.includes('write:users')
}

/**
 * Profile fields in whoami/userinfo: sessions and personal tokens see everything; others by scope.
 * An organization's exchange token reaches only that organization (SPEC B rule 8): whatever its
 * scopes, it lists no other membership of the member and not their own billing.
 */
export function profileVisibility(p: Pick<Principal, 'tokenKind' | 'role' | 'scopes'> | null) {
  const all = !p || (p.tokenKind === 'personal' && p.role !== 'fineGrained')
  const has = (s: string) => all || p!.scopes.includes(s)
  const outsideOrg = p?.tokenKind === 'exchange'
  return {
    profile: all || has('profile') || has('openid'),
    email: has('email'),
    /** Every organization of the user (else only those the grant names). */
    memberships: has('read-memberships') && !outsideOrg,
    /** read-billing was granted; which organizations' canPay it shows: seesOrgBilling. */
    billing: has('read-billing'),
    /** canPay of the user themselves. */
    ownBilling: has('read-billing') && !outsideOrg,
  }
}

/**
 * Whether whoami and userinfo show an organization's canPay: read-billing applies to the
 * organizations the user selected when authorizing (SPEC B), those an OAuth or exchange token
 * names; a session or a personal token sees every one of the user's.
 */
export function seesOrgBilling(p: Pick<Principal, 'tokenKind' | 'role' | 'scopes' | 'orgIds'> | null, orgId: string): boolean {
  if (!profileVisibility(p).billing) return false
  return !p || p.tokenKind === 'personal' || p.orgIds.includes(orgId)
}

// ---------------------------------------------------------------- hub operators

/**
 * Hub-operator actions (the operator page: granting apps the token-exchange privilege). Only an
 * operator in a browser session: no token of any kind carries operator rights. Others are not
 * told the page exists.
 */
export function operatorDecision(caller: Caller, isOperator: boolean): Decision {
  if (!caller) return 'unauthenticated'
  if (!isOperator) return 'not-found'
  if (caller.principal) return 'forbidden'
  return 'allow'
}
