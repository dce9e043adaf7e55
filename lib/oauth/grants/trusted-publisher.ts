// A CI's OIDC id_token for a trusted publisher (RFC 8693 token exchange, no client
// authentication): `resource` names the repo or user, the registrations of lib/hub/publishers say
// which issuer and exact claims may obtain a token, and the token is a 1 h write token for that one
// repo (or a read-only gated-repos token for a user).
import { decodeJwt, errors as joseErrors } from 'jose'
import { db, lockRow, statementsIn, type Tx } from '@/lib/db'
import { hubUrl } from '@/lib/config'
import { issueToken } from '@/lib/auth/tokens'
import { findRepo, repoContext } from '@/lib/hub/repos'
import { REPO_TYPE_PLURAL, type RepoType } from '@/lib/hub/names'
import { repoDecision } from '@/lib/policy'
import { invalidGrant, invalidRequest } from '@/lib/oauth/errors'
import { CLOCK_SKEW_SECONDS, IssuerKeysError, verifyIssuerToken } from '@/lib/oauth/ci-issuer-keys'
import { sha256Hex } from '@/lib/auth/secrets'
import { isUniqueViolation } from '@/lib/hub/namespaces'

export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token'
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token'
export const PUBLISHER_TOKEN_SECONDS = 3600

export type PublisherTokenResponse = {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  scope?: string
  issued_token_type: typeof ACCESS_TOKEN_TYPE
}

type Resource = { kind: 'repo'; type: RepoType; namespace: string; name: string } | { kind: 'user'; username: string }

const SEGMENT = '[A-Za-z0-9][A-Za-z0-9._-]{0,95}'
const REPO_RESOURCE = new RegExp(`^(?:(models|datasets|spaces)/)?(${SEGMENT})/(${SEGMENT})$`)
const USER_RESOURCE = new RegExp(`^${SEGMENT}$`)
const TYPE_OF_PLURAL = Object.fromEntries(Object.entries(REPO_TYPE_PLURAL).map(([type, plural]) => [plural, type])) as Record<string, RepoType>

/** `ns/name` (a model), `datasets/ns/name`, `spaces/ns/name`, or a username. */
export function parseResource(resource: string): Resource {
  const repo = REPO_RESOURCE.exec(resource)
  if (repo) return { kind: 'repo', type: repo[1] ? TYPE_OF_PLURAL[repo[1]]! : 'model', namespace: repo[2]!, name: repo[3]! }
  if (USER_RESOURCE.test(resource)) return { kind: 'user', username: resource }
  throw invalidRequest('resource must be ns/name, datasets/ns/name, spaces/ns/name or a username')
}

/** Share of spends that also delete the records of tokens that have expired. */
const SWEEP_PROBABILITY = 0.01

/**
 * Each id_token is traded once: its signed part (header and payload; the signature's spelling is not
 * unique, since base64url leaves spare bits and ECDSA has two valid s values) is recorded until
 * the token expires, in the transaction that issues the hub token, and a second exchange of it is
 * invalid_grant. A CI job that needs another hub token asks its provider for a fresh id_token.
 */
async function spendIdToken(tx: Tx, token: string, exp: number): Promise<void> {
  const signedPart = token.split('.').slice(0, 2).join('.')
  const expiresAt = new Date((exp + CLOCK_SKEW_SECONDS) * 1000)
  try {
    await tx.spentIdToken.create({ data: { tokenHash: sha256Hex(signedPart), expiresAt } })
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidGrant('This id_token was exchanged already; ask the CI provider for a new one')
    throw error
  }
  if (Math.random() < SWEEP_PROBABILITY) void db.spentIdToken.deleteMany({ where: { expiresAt: { lt: new Date() } } }).catch(() => {})
}

/** A refusal that tells nothing of the resource (see exchangeCiIdToken). */
const NOT_ACCEPTED = 'No trusted publisher of this resource accepts this id_token'

function claimsMatch(payload: Record<string, unknown>, pinned: Record<string, string>): boolean {
  return Object.entries(pinned).every(([name, value]) => typeof payload[name] === 'string' && payload[name] === value)
}

/**
 * Trades a CI provider's id_token for a 1 h hub token (no refresh). Throws OAuthError:
 * invalid_request for a malformed token or resource, invalid_grant for everything the token or
 * the registration does not allow (unknown resource or issuer, signature, audience, expiry,
 * claim mismatch).
 */
export async function exchangeCiIdToken(input: { subjectToken: string; resource: string }): Promise<PublisherTokenResponse> {
  const resource = parseResource(input.resource.trim())
  let unverified: Record<string, unknown>
  try {
    unverified = decodeJwt(input.subjectToken)
  } catch {
    throw invalidRequest('subject_token is not a JWT')
  }
  const issuer = unverified.iss
  if (typeof issuer !== 'string' || !issuer) throw invalidGrant('The id_token has no issuer')

  let target: { repoId: string | null; ownerUserId: string | null; repo: Awaited<ReturnType<typeof findRepo>> }
  if (resource.kind === 'repo') {
    // In any letter case, as every repo id on the hub.
    const repo = await findRepo(resource.type, resource.namespace, resource.name)
    if (!repo) throw invalidGrant(NOT_ACCEPTED)
    target = { repoId: repo.id, ownerUserId: null, repo }
  } else {
    const user = await db.user.findUnique({ where: { username: resource.username }, select: { id: true } })
    if (!user) throw invalidGrant('Resource not found')
    target = { repoId: null, ownerUserId: user.id, repo: null }
  }

  // Only issuers someone registered for this resource are ever contacted.
  const publishers = await db.trustedPublisher.findMany({
    where: target.repoId ? { repoId: target.repoId, issuer } : { ownerUserId: target.ownerUserId, repoId: null, issuer },
  })
  // Until a publisher accepts the token, a private repo's refusals all say NOT_ACCEPTED, as a missing
  // repo's does: the request is anonymous, and each reason would tell that the repo exists and which
  // CI provider it trusts. A public repo's (and an account's) say why, for whoever sets one up.
  const refuse = (reason: string) => invalidGrant(target.repo?.private ? NOT_ACCEPTED : reason)
  if (publishers.length === 0) throw refuse('No trusted publisher of this resource uses that issuer')

  let payload: Record<string, unknown>
  try {
    payload = await verifyIssuerToken(input.subjectToken, { issuer, audience: hubUrl() })
  } catch (e) {
    if (e instanceof joseErrors.JOSEError) throw refuse(`The id_token is not valid: ${e.message}`)
    if (e instanceof IssuerKeysError) {
      console.warn(`[trusted publisher] the keys of ${issuer.slice(0, 200)} are unavailable: ${e.message.slice(0, 200)}`)
      throw refuse(`The issuer's keys are unavailable: ${e.message}`)
    }
    throw e
  }
  const publisher = publishers.find((p) => claimsMatch(payload, JSON.parse(p.claims) as Record<string, string>))
  if (!publisher) throw refuse('The id_token does not match the claims of any trusted publisher')
  // The id_token is spent in the transaction that issues the hub token: a refusal or a failure leaves it unspent.
  // The publisher is locked and found again there: one removed since it was read above (its tokens
  // ended then) issues nothing, and one removed after this commits ends this token too.
  const issueOnce = (row: Parameters<typeof issueToken>[0]) =>
    db.$transaction(async (tx) => {
      if (!(await lockRow(statementsIn(tx), 'TrustedPublisher', publisher.id))) throw invalidGrant('The trusted publisher was removed')
      await spendIdToken(tx, input.subjectToken, payload.exp as number)
      return issueToken(row, statementsIn(tx))
    })

  if (target.repo) {
    const repo = target.repo
    const actingUserId = publisher.createdById ?? repo.ownerUserId
    // The token acts as the user who registered the publisher: if they lost write access, so did it.
    const acting = actingUserId ? { userId: actingUserId, principal: null } : null
    if (!acting || repoDecision(acting, 'write', repo, await repoContext(acting, repo)) !== 'allow') {
      throw invalidGrant('The publisher\'s owner can no longer write to this repository')
    }
    const { token } = await issueOnce({
      kind: 'publisher',
      userId: acting.userId,
      displayName: `trusted publisher ${new URL(issuer).host}`,
      role: 'scoped',
      repoId: repo.id,
      grantId: publisher.id,
      expiresAt: new Date(Date.now() + PUBLISHER_TOKEN_SECONDS * 1000),
    })
    return { access_token: token, token_type: 'bearer', expires_in: PUBLISHER_TOKEN_SECONDS, issued_token_type: ACCESS_TOKEN_TYPE }
  }
  const { token } = await issueOnce({
    kind: 'publisher',
    userId: target.ownerUserId!,
    displayName: `trusted publisher ${new URL(issuer).host}`,
    role: 'scoped',
    scopes: ['gated-repos'],
    grantId: publisher.id,
    expiresAt: new Date(Date.now() + PUBLISHER_TOKEN_SECONDS * 1000),
  })
  return { access_token: token, token_type: 'bearer', expires_in: PUBLISHER_TOKEN_SECONDS, scope: 'gated-repos', issued_token_type: ACCESS_TOKEN_TYPE }
}
