// Table-driven test of lib/policy: every credential kind and scope against every kind of repo.
import { describe, expect, it } from 'vitest'
import { collectionDecision, createRepoDecision, mayUseModeration, modelPickCaller, operatorDecision, repoDecision, type Caller, type RepoAction, type RepoFacts } from '@/lib/policy'
import type { Principal } from '@/lib/policy/principal'

const ME = 'u-me'
const OTHER = 'u-other'
const ORG = 'o-acme'
const OTHER_ORG = 'o-other'
const APP = 'app-1'

const repos: Record<string, RepoFacts> = {
  ownPublic: { id: 'r1', private: false, gated: false, ownerUserId: ME, ownerOrgId: null, createdById: ME, createdByApp: null },
  ownPrivate: { id: 'r2', private: true, gated: false, ownerUserId: ME, ownerOrgId: null, createdById: ME, createdByApp: null },
  ownByApp: { id: 'r3', private: true, gated: false, ownerUserId: ME, ownerOrgId: null, createdById: ME, createdByApp: APP },
  othersPublic: { id: 'r4', private: false, gated: false, ownerUserId: OTHER, ownerOrgId: null, createdById: OTHER, createdByApp: null },
  othersPrivate: { id: 'r5', private: true, gated: false, ownerUserId: OTHER, ownerOrgId: null, createdById: OTHER, createdByApp: null },
  othersGated: { id: 'r6', private: false, gated: true, ownerUserId: OTHER, ownerOrgId: null, createdById: OTHER, createdByApp: null },
  orgPrivate: { id: 'r7', private: true, gated: false, ownerUserId: null, ownerOrgId: ORG, createdById: OTHER, createdByApp: null },
  orgPublic: { id: 'r8', private: false, gated: false, ownerUserId: null, ownerOrgId: ORG, createdById: OTHER, createdByApp: null },
  otherOrgPrivate: { id: 'r9', private: true, gated: false, ownerUserId: null, ownerOrgId: OTHER_ORG, createdById: OTHER, createdByApp: null },
}

function token(kind: Principal['tokenKind'], extra: Partial<Principal> = {}): Caller {
  return {
    userId: ME,
    principal: {
      userId: ME, username: 'me', tokenId: 't', tokenKind: kind, displayName: 't', role: null, scopes: [], orgIds: [], appId: null, repoId: null,
      createdAt: new Date(0), expiresAt: null, ...extra,
    },
  }
}

const session: Caller = { userId: ME, principal: null }
const callers: Record<string, Caller> = {
  anonymous: null,
  session,
  personalRead: token('personal', { role: 'read' }),
  personalWrite: token('personal', { role: 'write' }),
  oauthNoScope: token('oauth', { scopes: ['openid', 'profile'] }),
  oauthReadRepos: token('oauth', { scopes: ['read-repos'] }),
  oauthWriteRepos: token('oauth', { scopes: ['write-repos'], orgIds: [ORG] }),
  oauthManageRepos: token('oauth', { scopes: ['manage-repos'] }),
  oauthContribute: token('oauth', { scopes: ['contribute-repos'], appId: APP }),
  oauthGated: token('oauth', { scopes: ['gated-repos'] }),
  exchangeOrg: token('exchange', { scopes: ['read-repos', 'write-repos'], orgIds: [ORG] }),
  publisherRepo: token('publisher', { scopes: [], repoId: 'r8' }),
}

// The caller is a `write` member of ORG and was granted access to othersGated.
const ctxFor = (repo: RepoFacts) => ({ orgRole: repo.ownerOrgId === ORG ? ('write' as const) : null, gatedAccepted: repo.id === 'r6' })

// Expected strongest allowed action per (caller, repo); '-' = not even visible (404 or 401 for anonymous).
// Columns: ownPublic ownPrivate ownByApp othersPublic othersPrivate othersGated orgPrivate orgPublic otherOrgPrivate
const table: Record<string, string[]> = {
  anonymous:        ['read',   '-',      '-',      'read', '-', 'view', '-',     'read',  '-'],
  session:          ['manage', 'manage', 'manage', 'read', '-', 'read', 'write', 'write', '-'],
  personalRead:     ['read',   'read',   'read',   'read', '-', 'read', 'read',  'read',  '-'],
  personalWrite:    ['manage', 'manage', 'manage', 'read', '-', 'read', 'write', 'write', '-'],
  oauthNoScope:     ['read',   '-',      '-',      'read', '-', 'view', '-',     'read',  '-'],
  oauthReadRepos:   ['read',   'read',   'read',   'read', '-', 'view', '-',     'read',  '-'],
  oauthWriteRepos:  ['write',  'write',  'write',  'read', '-', 'view', 'write', 'write', '-'],
  oauthManageRepos: ['manage', 'manage', 'manage', 'read', '-', 'view', '-',     'read',  '-'],
  oauthContribute:  ['read',   '-',      'manage', 'read', '-', 'view', '-',     'read',  '-'],
  oauthGated:       ['read',   '-',      '-',      'read', '-', 'read', '-',     'read',  '-'],
  exchangeOrg:      ['read',   '-',      '-',      'read', '-', 'read', 'write', 'write', '-'],
  publisherRepo:    ['read',   '-',      '-',      'read', '-', 'view', '-',     'write', '-'],
}

const ACTIONS: RepoAction[] = ['view', 'read', 'write', 'manage']
const repoNames = Object.keys(repos)

describe('repo policy table', () => {
  for (const [callerName, row] of Object.entries(table)) {
    repoNames.forEach((repoName, i) => {
      const expected = row[i]!
      it(`${callerName} on ${repoName}: up to ${expected}`, () => {
        const repo = repos[repoName]!
        const caller = callers[callerName]!
        // Anonymous callers have no membership and no granted access (as repoContext says).
        const ctx = caller ? ctxFor(repo) : { orgRole: null, gatedAccepted: false }
        const allowed = ACTIONS.filter((a) => repoDecision(caller, a, repo, ctx) === 'allow')
        const strongest = allowed.length ? allowed[allowed.length - 1] : '-'
        expect(strongest).toBe(expected)
        // Allowed actions are always a prefix of view < read < write < manage.
        expect(allowed).toEqual(ACTIONS.slice(0, allowed.length))
        if (expected === '-') expect(repoDecision(caller, 'view', repo, ctx)).toBe('not-found')
      })
    })
  }

  it('answers 401 to anonymous callers for gated content and 403 to signed-in callers without the right', () => {
    expect(repoDecision(null, 'read', repos.othersGated!, { orgRole: null, gatedAccepted: false })).toBe('unauthenticated')
    expect(repoDecision(callers.personalRead!, 'write', repos.ownPublic!, ctxFor(repos.ownPublic!))).toBe('forbidden')
  })

  it('lets organization contributors write only to repos they created', () => {
    const mine = { ...repos.orgPrivate!, createdById: ME }
    expect(repoDecision(session, 'write', mine, { orgRole: 'contributor', gatedAccepted: false })).toBe('allow')
    expect(repoDecision(session, 'write', repos.orgPrivate!, { orgRole: 'contributor', gatedAccepted: false })).toBe('forbidden')
    expect(repoDecision(session, 'manage', repos.orgPrivate!, { orgRole: 'admin', gatedAccepted: false })).toBe('allow')
    expect(repoDecision(session, 'read', repos.orgPrivate!, { orgRole: 'read', gatedAccepted: false })).toBe('allow')
  })
})

describe('creating repos', () => {
  const user = { kind: 'user', userId: ME } as const
  const org = (role: 'read' | 'contributor' | 'write' | 'admin' | null) => ({ kind: 'org', orgId: ORG, role }) as const
  const cases: [string, Caller, Parameters<typeof createRepoDecision>[1], string][] = [
    ['anonymous', null, user, 'unauthenticated'],
    ['session, own namespace', session, user, 'allow'],
    ['session, someone else', session, { kind: 'user', userId: OTHER }, 'forbidden'],
    ['session, org reader', session, org('read'), 'forbidden'],
    ['session, org contributor', session, org('contributor'), 'allow'],
    ['read token', callers.personalRead!, user, 'forbidden'],
    ['write token', callers.personalWrite!, user, 'allow'],
    ['oauth read-repos', callers.oauthReadRepos!, user, 'forbidden'],
    ['oauth manage-repos', callers.oauthManageRepos!, user, 'allow'],
    ['oauth contribute-repos', callers.oauthContribute!, user, 'allow'],
    ['oauth manage-repos, org not granted', callers.oauthManageRepos!, org('admin'), 'forbidden'],
    ['exchange, own namespace', callers.exchangeOrg!, user, 'forbidden'],
    ['publisher', callers.publisherRepo!, user, 'forbidden'],
  ]
  for (const [name, caller, owner, expected] of cases) it(name, () => expect(createRepoDecision(caller, owner)).toBe(expected))
})

describe('collections', () => {
  const mine = { private: true, ownerUserId: ME, ownerOrgId: null }
  const publicOther = { private: false, ownerUserId: OTHER, ownerOrgId: null }
  it('hides private collections from others and from tokens without the scope', () => {
    expect(collectionDecision(null, 'read', mine, null)).toBe('not-found')
    expect(collectionDecision(callers.oauthNoScope!, 'read', mine, null)).toBe('not-found')
    expect(collectionDecision(token('oauth', { scopes: ['read-collections'] }), 'read', mine, null)).toBe('allow')
    expect(collectionDecision(token('oauth', { scopes: ['read-collections'] }), 'write', mine, null)).toBe('forbidden')
    expect(collectionDecision(token('oauth', { scopes: ['write-collections'] }), 'write', mine, null)).toBe('allow')
    expect(collectionDecision(callers.exchangeOrg!, 'read', mine, null)).toBe('not-found')
  })
  it('lets anyone read public collections but only owners write', () => {
    expect(collectionDecision(null, 'read', publicOther, null)).toBe('allow')
    expect(collectionDecision(session, 'write', publicOther, null)).toBe('forbidden')
    expect(collectionDecision(callers.exchangeOrg!, 'read', publicOther, null)).toBe('allow')
  })
})

describe('moderation API access', () => {
  it('needs write:users or a write personal token', () => {
    expect(mayUseModeration(callers.personalWrite!.principal!)).toBe(true)
    expect(mayUseModeration(callers.personalRead!.principal!)).toBe(false)
    expect(mayUseModeration(token('oauth', { scopes: ['read:users'] })!.principal!)).toBe(false)
    expect(mayUseModeration(token('oauth', { scopes: ['write:users'] })!.principal!)).toBe(true)
  })
})

describe('a model repo picked for one moderation request (?model=)', () => {
  const ctx = { orgRole: null, gatedAccepted: false }
  const readsOwnPrivate = (caller: Caller) => repoDecision(caller, 'read', repos.ownPrivate!, ctx)
  it('is read with a session credential\'s user\'s own access (the playground page\'s server side)', () => {
    const credential = token('session', { scopes: ['write:users'] })!.principal!
    // On its own the credential reaches no private repo; for a model it picks, its user's access counts.
    expect(readsOwnPrivate(token('session', { scopes: ['write:users'] }))).toBe('not-found')
    expect(modelPickCaller(credential)).toEqual({ userId: ME, principal: null })
    expect(readsOwnPrivate(modelPickCaller(credential))).toBe('allow')
    expect(repoDecision(modelPickCaller(credential), 'read', repos.othersPrivate!, ctx)).toBe('not-found')
  })

  it('is read with any other credential as it is, scopes and all', () => {
    for (const name of ['personalRead', 'personalWrite', 'oauthNoScope'] as const) {
      const principal = callers[name]!.principal!
      expect(modelPickCaller(principal)).toEqual({ userId: ME, principal })
    }
    expect(readsOwnPrivate(modelPickCaller(callers.oauthNoScope!.principal!))).toBe('not-found')
  })
})

describe('hub operator actions', () => {
  it('need an operator in a browser session; tokens never carry operator rights', () => {
    expect(operatorDecision(null, false)).toBe('unauthenticated')
    expect(operatorDecision(session, false)).toBe('not-found')
    expect(operatorDecision(session, true)).toBe('allow')
    for (const name of ['personalWrite', 'oauthManageRepos', 'exchangeOrg', 'publisherRepo']) {
      expect(operatorDecision(callers[name]!, true), name).toBe('forbidden')
    }
  })
})
