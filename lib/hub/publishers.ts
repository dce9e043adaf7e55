// Trusted publishers: a repo owner (or a user, for themselves) names a CI identity, an OIDC issuer
// plus exact claims, that may obtain short-lived hub tokens without any stored secret:
//   - for a repo: a 1 h token that writes to that one repo (kind 'publisher', repoId), acting as
//     the user who registered the publisher, so never beyond that user's rights;
//   - for a user: a 1 h read-only gated-repos token.
// The CI posts its id_token to the token endpoint (RFC 8693 token exchange, no client auth), where
// lib/oauth/grants/trusted-publisher checks it and issues the token. Adding and removing are
// audit-logged here.
import { z } from 'zod'
import { db, lockRow, statementsIn, type Tx } from '@/lib/db'
import { recordAudit } from '@/lib/hub/audit'
import { authorizedRepo, repoContext, reposManagedBy } from '@/lib/hub/repos'
import { REPO_TYPE_PLURAL, type RepoType } from '@/lib/hub/names'
import { repoDecision, type Caller } from '@/lib/policy'
import { badRequest, denial, notFound } from '@/lib/http/errors'
import { loopbackFetchAllowed } from '@/lib/net/outbound'

// ---------------------------------------------------------------- issuers

export type IssuerPreset = {
  id: 'github' | 'gitlab' | 'circleci'
  label: string
  /** The issuer URL; CircleCI's names the CircleCI organization ({org} below). */
  issuer: string
  /** A claim every publisher of this issuer must pin, so that no other project's token matches. */
  identityClaim: string
  suggestedClaims: string[]
}

export const ISSUER_PRESETS: readonly IssuerPreset[] = [
  { id: 'github', label: 'GitHub Actions', issuer: 'https://token.actions.githubusercontent.com', identityClaim: 'repository', suggestedClaims: ['repository', 'repository_owner_id', 'ref', 'workflow', 'environment'] },
  { id: 'gitlab', label: 'GitLab CI/CD', issuer: 'https://gitlab.com', identityClaim: 'project_path', suggestedClaims: ['project_path', 'namespace_id', 'ref', 'ref_type', 'environment'] },
  { id: 'circleci', label: 'CircleCI', issuer: 'https://oidc.circleci.com/org/{org}', identityClaim: 'oidc.circleci.com/project-id', suggestedClaims: ['oidc.circleci.com/project-id', 'oidc.circleci.com/context-ids'] },
]

const CIRCLECI_ISSUER = /^https:\/\/oidc\.circleci\.com\/org\/[0-9a-f-]{36}$/

/** The issuer URL a preset stands for; `value` is CircleCI's organization id, or the URL of any other issuer. */
export function issuerFromPreset(presetId: string, value: string): string {
  const preset = ISSUER_PRESETS.find((p) => p.id === presetId)
  if (!preset) return value.trim()
  return preset.issuer.replace('{org}', value.trim().toLowerCase())
}

/** "name=value" lines (the settings form's claims box) as a record; the schema then checks them. */
export function claimsFromLines(text: string): Record<string, string> {
  const claims: Record<string, string> = {}
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue
    const at = line.indexOf('=')
    if (at < 0) throw badRequest(`Write each claim as name=value (got "${line.trim().slice(0, 60)}")`)
    claims[line.slice(0, at).trim()] = line.slice(at + 1).trim()
  }
  return claims
}

/** The claim a publisher must pin for this issuer (a preset's identity claim), or null for other issuers. */
function identityClaimOf(issuer: string): string | null {
  if (CIRCLECI_ISSUER.test(issuer)) return 'oidc.circleci.com/project-id'
  return ISSUER_PRESETS.find((p) => p.issuer === issuer)?.identityClaim ?? null
}

// Claims the verification itself decides; pinning them would mean nothing or break matching.
const RESERVED_CLAIMS = new Set(['iss', 'aud', 'exp', 'nbf', 'iat', 'jti'])

const issuerUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => {
    if (!URL.canParse(v)) return false
    const url = new URL(v)
    const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && loopbackFetchAllowed())
    return scheme && !url.username && !url.password && !url.hash && !url.search
  }, 'must be an https URL without query or fragment')

export const publisherInput = z
  .object({
    issuer: issuerUrl,
    claims: z
      .record(
        z.string().trim().regex(/^[A-Za-z0-9_.:/-]{1,100}$/, 'claim names are letters, digits and _ . : / -'),
        z.string().trim().min(1, 'claim value must not be empty').max(500),
      )
      .refine((c) => Object.keys(c).length >= 1, 'pin at least one claim')
      .refine((c) => Object.keys(c).length <= 10, 'at most 10 claims')
      .refine((c) => !Object.keys(c).some((k) => RESERVED_CLAIMS.has(k)), 'iss, aud, exp, nbf, iat and jti are checked by the hub and cannot be pinned'),
  })
  .superRefine((input, ctx) => {
    const required = identityClaimOf(input.issuer)
    if (required && !(required in input.claims)) ctx.addIssue({ code: 'custom', path: ['claims'], message: `Publishers of this issuer must pin the ${required} claim` })
  })

export type PublisherInput = z.input<typeof publisherInput>

// ---------------------------------------------------------------- registration

/** A repo as the token request's resource parameter names it: ns/name for models, else with the type. */
export function resourceName(type: RepoType, namespace: string, name: string): string {
  return type === 'model' ? `${namespace}/${name}` : `${REPO_TYPE_PLURAL[type]}/${namespace}/${name}`
}

export type PublisherTarget = { kind: 'user' } | { kind: 'repo'; type: RepoType; namespace: string; name: string }

const MAX_PUBLISHERS_PER_TARGET = 20

/** Publishers are managed from settings pages, in a browser session; a token cannot add one. */
function sessionOnly(caller: Caller): asserts caller is NonNullable<Caller> {
  if (!caller) throw denial('unauthenticated')
  if (caller.principal) throw denial('forbidden')
}

export async function addPublisher(caller: Caller, target: PublisherTarget, input: PublisherInput, ip: string | null = null) {
  sessionOnly(caller)
  const data = publisherInput.parse(input)
  const scope =
    target.kind === 'user'
      ? { ownerUserId: caller.userId, repoId: null, orgId: null, label: 'your account' }
      : await (async () => {
          const { repo } = await authorizedRepo(caller, target.type, target.namespace, target.name, 'manage')
          return { ownerUserId: null, repoId: repo.id, orgId: repo.ownerOrgId, label: resourceName(repo.type as RepoType, repo.namespace, repo.name) }
        })()
  const where = scope.repoId ? { repoId: scope.repoId } : { ownerUserId: scope.ownerUserId, repoId: null }
  return db.$transaction(async (tx) => {
    // Counted under the repo's or the user's row lock, so a burst of requests cannot pass the cap together.
    await lockRow(statementsIn(tx), scope.repoId ? 'Repo' : 'User', scope.repoId ?? caller.userId)
    if ((await tx.trustedPublisher.count({ where })) >= MAX_PUBLISHERS_PER_TARGET) throw badRequest(`At most ${MAX_PUBLISHERS_PER_TARGET} trusted publishers for ${scope.label}`)
    const publisher = await tx.trustedPublisher.create({
      data: { ownerUserId: scope.ownerUserId, repoId: scope.repoId, issuer: data.issuer, claims: JSON.stringify(data.claims), createdById: caller.userId },
    })
    await recordAudit(
      { orgId: scope.orgId, action: 'publisher.add', actorUserId: caller.userId, userId: caller.userId, data: { publisherId: publisher.id, for: scope.label, issuer: data.issuer, claims: data.claims }, ip },
      tx,
    )
    return publisher
  })
}

/** Removes a publisher the caller manages, and ends the tokens it issued. */
export async function removePublisher(caller: Caller, publisherId: string, ip: string | null = null) {
  sessionOnly(caller)
  const publisher = await db.trustedPublisher.findUnique({ where: { id: publisherId } })
  if (!publisher) throw notFound('No such trusted publisher')
  let orgId: string | null = null
  let label = 'your account'
  if (publisher.repoId) {
    const repo = await db.repo.findUnique({ where: { id: publisher.repoId } })
    if (!repo) throw notFound('No such trusted publisher')
    const decision = repoDecision(caller, 'manage', repo, await repoContext(caller, repo))
    if (decision !== 'allow') throw notFound('No such trusted publisher')
    orgId = repo.ownerOrgId
    label = resourceName(repo.type as RepoType, repo.namespace, repo.name)
  } else if (publisher.ownerUserId !== caller.userId) {
    throw notFound('No such trusted publisher')
  }
  await db.$transaction(async (tx: Tx) => {
    await tx.trustedPublisher.delete({ where: { id: publisher.id } })
    await tx.accessToken.updateMany({ where: { kind: 'publisher', grantId: publisher.id, revokedAt: null }, data: { revokedAt: new Date() } })
    await recordAudit(
      { orgId, action: 'publisher.remove', actorUserId: caller.userId, userId: caller.userId, data: { publisherId: publisher.id, for: label, issuer: publisher.issuer, claims: JSON.parse(publisher.claims) }, ip },
      tx,
    )
  })
}

export type PublisherView = { id: string; issuer: string; claims: Record<string, string>; for: string; repo: { type: RepoType; namespace: string; name: string } | null; createdAt: Date }

/**
 * The caller's own publishers and those of the repos they manage, their organizations' included (the settings page's
 * list): whoever may add or remove a repo's publisher sees it, whoever added it.
 */
export async function listPublishers(caller: Caller): Promise<PublisherView[]> {
  sessionOnly(caller)
  const repos = await reposManagedBy(caller.userId)
  const repoById = new Map(repos.map((r) => [r.id, r]))
  const rows = await db.trustedPublisher.findMany({
    where: { OR: [{ ownerUserId: caller.userId, repoId: null }, { repoId: { in: repos.map((r) => r.id) } }] },
    orderBy: { createdAt: 'asc' },
  })
  return rows.map((p) => {
    const repo = p.repoId ? repoById.get(p.repoId)! : null
    return {
      id: p.id,
      issuer: p.issuer,
      claims: JSON.parse(p.claims) as Record<string, string>,
      for: repo ? resourceName(repo.type as RepoType, repo.namespace, repo.name) : 'your account',
      repo: repo ? { type: repo.type as RepoType, namespace: repo.namespace, name: repo.name } : null,
      createdAt: p.createdAt,
    }
  })
}
