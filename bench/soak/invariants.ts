// The end-of-run checks, read from the database (what the clients saw is only used to know which
// rows to look for). Each returns how many things it checked and every violation it found.
import { db } from '@/lib/db'
import { sliceSize } from '@/lib/ratelimit'
import { ambiguous, sha256Hex, type Ledger } from './ledger'

export type Invariant = { name: string; checked: number; violations: string[] }

function invariant(name: string): Invariant {
  return { name, checked: 0, violations: [] }
}

export type LimitSnapshot = Map<string, number>

/** Reads the rate-limit rows of one key into `into` (highest count seen per window): the rows are swept after two windows. */
export async function snapshotLimit(prefix: string, into: LimitSnapshot) {
  const rows = await db.rateLimit.findMany({ where: { key: { startsWith: `${prefix}@` } } })
  for (const row of rows) into.set(row.key, Math.max(into.get(row.key) ?? 0, row.count))
}

export async function checkInvariants(ledger: Ledger, context: { limitedUserId: string; limitPerMinute: number; limitSnapshot: LimitSnapshot; outsiderId: string; instances: number }): Promise<Invariant[]> {
  const results: Invariant[] = []
  const now = new Date()

  // ---------------------------------------------------------------- grants and refresh families
  const refresh = await db.refreshToken.findMany({ select: { familyId: true, usedAt: true, revokedAt: true, expiresAt: true, tokenHash: true } })
  const access = await db.accessToken.findMany({ where: { kind: { in: ['oauth', 'exchange'] } }, select: { id: true, kind: true, grantId: true, revokedAt: true, tokenHash: true } })
  const codes = await db.authorizationCode.findMany({ select: { id: true, codeHash: true, usedAt: true } })
  const devices = await db.deviceCode.findMany({ select: { id: true, deviceCodeHash: true, status: true } })
  const families = new Map<string, typeof refresh>()
  for (const r of refresh) families.set(r.familyId, [...(families.get(r.familyId) ?? []), r])
  const accessByGrant = new Map<string, typeof access>()
  for (const a of access) if (a.grantId) accessByGrant.set(a.grantId, [...(accessByGrant.get(a.grantId) ?? []), a])
  const familyOf = new Map<string, string>([...codes.map((c) => [c.codeHash, c.id] as const), ...devices.map((d) => [d.deviceCodeHash, d.id] as const)])

  const once = invariant('each authorization code and refresh token redeemed at most once (one chain per grant)')
  for (const [familyId, rows] of families) {
    once.checked++
    const used = rows.filter((r) => r.usedAt).length
    // Each rotation uses one token and creates one; a second redemption of the code (or of a refresh token) adds a second head.
    if (rows.length > used + 1) once.violations.push(`family ${familyId}: ${rows.length} refresh tokens, only ${used} used`)
  }
  for (const race of ledger.codeRaces) {
    once.checked++
    if (race.successes > 1) once.violations.push(`code ${race.grantHash.slice(0, 12)} redeemed by ${race.successes} concurrent requests`)
  }
  for (const race of ledger.refreshRaces) {
    once.checked++
    if (race.successes > 1) once.violations.push(`one refresh token rotated by ${race.successes} concurrent requests`)
  }
  results.push(once)

  const whole = invariant('each refresh family has exactly one live token or is revoked whole')
  for (const [familyId, rows] of families) {
    whole.checked++
    const revoked = rows.filter((r) => r.revokedAt).length
    const live = rows.filter((r) => !r.usedAt && !r.revokedAt && r.expiresAt > now).length
    if (revoked === rows.length) {
      const stillValid = (accessByGrant.get(familyId) ?? []).filter((a) => !a.revokedAt).length
      if (stillValid) whole.violations.push(`family ${familyId} revoked but ${stillValid} of its access tokens are not`)
    } else if (revoked > 0) whole.violations.push(`family ${familyId} partly revoked: ${revoked} of ${rows.length} refresh tokens`)
    else if (live !== 1) whole.violations.push(`family ${familyId} has ${live} live refresh tokens (${rows.length} in all)`)
  }
  // A grant that issued an access token but no refresh token was cut off half-way through issuing.
  for (const [grantId, tokens] of accessByGrant) {
    if (tokens[0]!.kind !== 'oauth' || families.has(grantId)) continue
    whole.checked++
    whole.violations.push(`grant ${grantId} has ${tokens.length} access token(s) and no refresh token`)
  }
  results.push(whole)

  const grantOf = invariant('no access token without the grant it came from')
  const usedCodes = new Set(codes.filter((c) => c.usedAt).map((c) => c.id))
  const redeemedDevices = new Set(devices.filter((d) => d.status === 'redeemed').map((d) => d.id))
  const audits = await db.auditLogEntry.findMany({ where: { action: 'token.exchange' }, select: { userId: true, data: true } })
  const auditedTokens = new Set(audits.map((a) => (JSON.parse(a.data) as { tokenId?: string }).tokenId))
  for (const a of access) {
    grantOf.checked++
    if (a.kind === 'oauth' && !(a.grantId && (usedCodes.has(a.grantId) || redeemedDevices.has(a.grantId)))) grantOf.violations.push(`oauth token ${a.id}: grant ${a.grantId} is no redeemed code or device code`)
    if (a.kind === 'exchange' && !auditedTokens.has(a.id)) grantOf.violations.push(`exchange token ${a.id} has no audit entry`)
  }
  results.push(grantOf)

  // ---------------------------------------------------------------- what the clients were told
  const accessByHash = new Map(access.map((a) => [a.tokenHash, a]))
  const refreshByHash = new Map(refresh.map((r) => [r.tokenHash, r]))
  const persisted = invariant('every token a client was given is in the database (no lost writes)')
  const seen = [...ledger.chains.flatMap((c) => c.accessTokens), ...ledger.exchanges.flatMap((e) => (e.accessToken ? [e.accessToken] : []))]
  for (const token of seen) {
    persisted.checked++
    if (!accessByHash.has(sha256Hex(token))) persisted.violations.push(`access token ${token.slice(0, 12)}… is not stored`)
  }
  for (const chain of ledger.chains) {
    if (!chain.refreshToken) continue
    persisted.checked++
    if (!refreshByHash.has(sha256Hex(chain.refreshToken))) persisted.violations.push(`refresh token of ${chain.kind} grant ${chain.grantHash.slice(0, 12)} is not stored`)
  }
  results.push(persisted)

  const alive = invariant('every authorization a client still holds is live; every replayed one is revoked whole')
  for (const chain of ledger.chains) {
    const familyId = familyOf.get(chain.grantHash)
    if (chain.state === 'live' && chain.refreshToken) {
      alive.checked++
      const row = refreshByHash.get(sha256Hex(chain.refreshToken))
      if (!row || row.usedAt || row.revokedAt) alive.violations.push(`${chain.kind} grant ${familyId}: the client's refresh token is ${row ? (row.revokedAt ? 'revoked' : 'used') : 'missing'}`)
      const last = accessByHash.get(sha256Hex(chain.accessTokens.at(-1)!))
      if (last?.revokedAt) alive.violations.push(`${chain.kind} grant ${familyId}: the client's access token was revoked`)
    } else if (chain.state === 'replayed') {
      alive.checked++
      const rows = familyId ? (families.get(familyId) ?? []) : []
      const open = rows.filter((r) => !r.revokedAt).length + (familyId ? (accessByGrant.get(familyId) ?? []) : []).filter((a) => !a.revokedAt).length
      if (open) alive.violations.push(`${chain.kind} grant ${familyId} was replayed but ${open} of its tokens are not revoked`)
    }
  }
  results.push(alive)

  // ---------------------------------------------------------------- audit log of token exchanges
  const audit = invariant('an audit entry for every token exchange a client saw succeed, none for one it saw fail')
  for (const e of ledger.exchanges) {
    if (!e.accessToken) continue
    audit.checked++
    const row = accessByHash.get(sha256Hex(e.accessToken))
    if (!row || !auditedTokens.has(row.id)) audit.violations.push(`exchange for ${e.subject}: no audit entry`)
  }
  const refused = ledger.exchanges.filter((e) => e.expectedToFail)
  audit.checked += refused.length
  const outsiderEntries = audits.filter((a) => a.userId === context.outsiderId).length
  if (outsiderEntries) audit.violations.push(`${outsiderEntries} audit entries for refused exchanges (outsider)`)
  // Entries beyond what clients saw succeed can only come from requests that got no answer.
  const succeeded = ledger.exchanges.filter((e) => e.accessToken).length
  const unanswered = ledger.exchanges.filter((e) => !e.accessToken && ambiguous(e.status)).length
  if (audits.length > succeeded + unanswered) audit.violations.push(`${audits.length} exchange audit entries, clients saw ${succeeded} succeed and ${unanswered} go unanswered`)
  results.push(audit)

  // ---------------------------------------------------------------- requests cut off half-way
  const cut = invariant('a token request cut off mid-body redeems nothing')
  for (const c of ledger.cutOffCodes) {
    cut.checked++
    const row = codes.find((code) => code.codeHash === c.grantHash)
    if (!row) cut.violations.push(`code ${c.grantHash.slice(0, 12)} missing`)
    else if (!c.unusedAfterCut) cut.violations.push(`code ${c.grantHash.slice(0, 12)} was redeemed by a request whose body never arrived`)
    else if (!c.laterRedeemed) cut.violations.push(`code ${c.grantHash.slice(0, 12)} could not be redeemed after the cut-off request`)
  }
  results.push(cut)

  // ---------------------------------------------------------------- rate-limit counters
  // The moderation limit is counted in slices (lib/ratelimit, README "Several instances"): an
  // instance adds a slice to the shared row before it admits that many requests, and once the row is
  // spent it answers 429 from memory without writing. So the row holds reservations, not requests:
  // every admitted request must be in it (an admission without its increment would be a lost
  // write), it may exceed the admitted requests by the slices an instance reserved and did not
  // spend (one per instance and window), and a 429 need not be in it. (This invariant first asked
  // for every 429 too, which held while each request was one increment; with slices it was wrong
  // about what the product promises, not a lost write.)
  const limit = invariant('rate-limit counters hold a reservation for every admitted request, and admit at most the limit per window')
  const limitedStatuses = ledger.limited.map((l) => l.status)
  const admitted = limitedStatuses.filter((s) => s === 200).length
  const counted = [...context.limitSnapshot.values()].reduce((a, b) => a + b, 0)
  const windows = context.limitSnapshot.size
  const slice = sliceSize(context.limitPerMinute)
  limit.checked = ledger.limited.length
  if (counted < admitted) limit.violations.push(`counters total ${counted} but ${admitted} requests were admitted (lost increments)`)
  const unspentAtMost = windows * context.instances * slice
  if (counted > ledger.limited.length + unspentAtMost) limit.violations.push(`counters total ${counted}: more than the ${ledger.limited.length} requests sent and ${unspentAtMost} reserved, unspent`)
  if (admitted > windows * context.limitPerMinute) limit.violations.push(`${admitted} requests admitted in ${windows} windows of ${context.limitPerMinute}`)
  for (const [key, count] of context.limitSnapshot) if (count > context.limitPerMinute + context.instances * slice) limit.violations.push(`${key} counted ${count}, more than the limit and one slice per instance`)
  if (limitedStatuses.includes(429) && ![...context.limitSnapshot.values()].some((count) => count >= context.limitPerMinute)) limit.violations.push('requests were refused although no window had spent its budget')
  results.push(limit)

  // ---------------------------------------------------------------- gated access
  const gated = invariant('every gated-access request and approval a client saw succeed is stored')
  const gatedRows = await db.gatedAccess.findMany({ select: { repoId: true, userId: true, status: true } })
  const gatedByKey = new Map(gatedRows.map((g) => [`${g.repoId}/${g.userId}`, g.status]))
  for (const g of ledger.gated) {
    if (!g.requested) continue
    gated.checked++
    const status = gatedByKey.get(`${g.repoId}/${g.userId}`)
    if (!status) gated.violations.push(`request ${g.repoId}/${g.userId} missing`)
    else if (g.decided && status !== 'accepted') gated.violations.push(`approval ${g.repoId}/${g.userId} is ${status}`)
  }
  results.push(gated)

  return results
}
