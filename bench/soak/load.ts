// The soak's clients. HTTP goes through the load balancer with the real client libraries
// (openid-client for logins, refresh rotation, device flow and token exchange; fetch for the Hub
// API and moderation). What a browser does on the consent and device pages (approve) is done
// in-process through lib/oauth, as bench/oauth/run.ts and the integration tests mint codes, and gated
// access requests and decisions (server actions only, no HTTP API) go through lib/hub in-process.
import * as oidc from 'openid-client'
import net from 'node:net'
import { db } from '@/lib/db'
import { approve, checkAuthorizationRequest } from '@/lib/oauth/authorize'
import { paramsFrom } from '@/lib/oauth/request'
import { decideDeviceRequest, findPendingRequest } from '@/lib/oauth/device-authorization'
import { decideGatedAccess, requestGatedAccess } from '@/lib/hub/repos'
import { issueToken } from '@/lib/auth/tokens'
import { createUser } from '@/lib/hub/users'
import { ambiguous, sha256Hex, statusOf, type Chain, type Ledger } from './ledger'

export const NOTES_APP = { clientId: 'demo-notes-app', secret: 'demo-notes-app-secret', redirectUri: 'http://127.0.0.1/callback' }
const EXCHANGE_APP = { clientId: 'acme-backend', secret: 'acme-backend-secret' }
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
/** acme-ai members (token exchange succeeds) and an outsider with a verified address (it must fail). */
const MEMBERS = ['alice@modhub.test', 'bob@modhub.test', 'carol@modhub.test', 'dave@modhub.test']
export const OUTSIDER_EMAIL = 'soak-outsider@soak.test'
const GATED_REPOS = [
  { type: 'model' as const, namespace: 'acme-ai', name: 'guardrail-base', admin: 'alice' },
  { type: 'dataset' as const, namespace: 'bob', name: 'gated-corpus', admin: 'bob' },
]
const TEXTS = ['ModHub is great', 'This release is disappointing', 'Thanks for the quick fix!', 'I am not sure about this one']

export type Fixtures = Awaited<ReturnType<typeof prepareFixtures>>

/** Users, tokens and ids the scenarios need, created in the seeded database before the instances start. */
export async function prepareFixtures() {
  const users = await db.user.findMany({ where: { username: { in: ['alice', 'bob', 'carol', 'dave'] } } })
  const byName = new Map(users.map((u) => [u.username, u]))
  const outsider = await createUser({ username: 'soak-outsider', email: OUTSIDER_EMAIL, password: 'soak-outsider-pass' }, { emailVerified: true })
  const requesters = []
  for (let i = 0; i < 40; i++) requesters.push(await createUser({ username: `soak-user-${i}`, email: `soak-user-${i}@soak.test`, password: 'soak-user-pass' }))
  // Personal write tokens for moderation: a pool of eight accounts that each stay under the per-account
  // limit (every token of a user counts together), and one account's token driven past it.
  const moderationTokens = []
  for (let i = 0; i < 8; i++) moderationTokens.push((await issueToken({ kind: 'personal', userId: requesters[i]!.id, displayName: `soak-${i}`, role: 'write' })).token)
  const limitedUserId = byName.get('dave')!.id
  const limited = await issueToken({ kind: 'personal', userId: limitedUserId, displayName: 'soak-limited', role: 'write' })
  const repos = await Promise.all(GATED_REPOS.map(async (r) => ({ ...r, id: (await db.repo.findFirstOrThrow({ where: { type: r.type, namespace: r.namespace, name: r.name } })).id })))
  return { byName, outsider, requesters, moderationTokens, limitedToken: limited.token, limitedUserId, repos }
}

export type LoadOptions = { lbUrl: string; instancePorts: () => number[]; concurrency: number; rps: number; limitedRps: number; until: number }

export class Load {
  private notes!: oidc.Configuration
  private backend!: oidc.Configuration
  private gatedNext = 0

  constructor(
    private readonly ledger: Ledger,
    private readonly fx: Fixtures,
    private readonly options: LoadOptions,
  ) {}

  async discover() {
    const server = new URL(this.options.lbUrl)
    const insecure = { execute: [oidc.allowInsecureRequests] }
    this.notes = await oidc.discovery(server, NOTES_APP.clientId, NOTES_APP.secret, oidc.ClientSecretBasic(NOTES_APP.secret), insecure)
    this.backend = await oidc.discovery(server, EXCHANGE_APP.clientId, EXCHANGE_APP.secret, oidc.ClientSecretBasic(EXCHANGE_APP.secret), insecure)
  }

  // ------------------------------------------------------------ authorization code + PKCE

  /**
   * What the consent page does when the user approves: a code bound to the PKCE challenge. It stands
   * in for the browser, so it tries again while the database is down (up to 10 s) instead of
   * failing the step under test.
   */
  async mintCode(userId: string) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.mintCodeOnce(userId)
      } catch (error) {
        if (attempt >= 10) throw error
        await sleep(1000)
      }
    }
  }

  private async mintCodeOnce(userId: string) {
    const verifier = oidc.randomPKCECodeVerifier()
    const state = oidc.randomState()
    const nonce = oidc.randomNonce()
    const checked = await checkAuthorizationRequest(
      paramsFrom(
        Object.entries({
          client_id: NOTES_APP.clientId, redirect_uri: NOTES_APP.redirectUri, response_type: 'code', scope: 'openid profile email read-repos',
          state, nonce, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
        }),
      ),
    )
    if (checked.kind !== 'ok') throw new Error(`authorization request refused: ${JSON.stringify(checked)}`)
    const callback = new URL(await approve(checked.request, userId, [], { remember: true }))
    return { callback, code: callback.searchParams.get('code')!, verifier, state, nonce }
  }

  private randomUser() {
    const names = ['alice', 'bob', 'carol', 'dave']
    return this.fx.byName.get(names[Math.floor(Math.random() * names.length)]!)!
  }

  async login() {
    const minted = await this.mintCode(this.randomUser().id)
    const chain: Chain = { kind: 'code', grantHash: sha256Hex(minted.code), accessTokens: [], refreshToken: null, state: 'abandoned' }
    this.ledger.chains.push(chain)
    // A code whose redemption got no answer is not retried (a retry would be a replay): the chain stays abandoned.
    const tokens = await oidc.authorizationCodeGrant(this.notes, minted.callback, { pkceCodeVerifier: minted.verifier, expectedState: minted.state, expectedNonce: minted.nonce })
    chain.accessTokens.push(tokens.access_token)
    chain.refreshToken = tokens.refresh_token ?? null
    chain.state = 'live'
    await this.whoami(chain.accessTokens.at(-1)!)
  }

  private liveChain(): Chain | null {
    const live = this.ledger.chains.filter((c) => c.state === 'live' && c.refreshToken)
    return live.length ? live[Math.floor(Math.random() * live.length)]! : null
  }

  async refresh() {
    const chain = this.liveChain()
    if (!chain) return this.login()
    await this.refreshChain(chain)
  }

  async refreshChain(chain: Chain) {
    const old = chain.refreshToken!
    chain.refreshToken = null // held by this request until it answers
    try {
      const tokens = await oidc.refreshTokenGrant(this.notes, old)
      chain.accessTokens.push(tokens.access_token)
      chain.refreshToken = tokens.refresh_token!
    } catch (error) {
      // No answer (or a 5xx): the old token may or may not have been used, so the app starts over.
      chain.state = 'abandoned'
      throw error
    }
  }

  /** A leaked refresh token: rotate, then present the old one again. The whole family must end. */
  async replayRefresh() {
    const chain = this.liveChain()
    if (!chain) return this.login()
    const old = chain.refreshToken!
    await this.refreshChain(chain)
    // The replay must reach a server that can act on it: a 503 (the database down) or no answer
    // decided nothing, so it is sent again, as a client following Retry-After would (for up to
    // 30 s); only a replay that was answered must have revoked the family. Marked replayed
    // meanwhile, so no other worker picks the chain up.
    chain.state = 'replayed'
    for (let attempt = 0; ; attempt++) {
      try {
        await oidc.refreshTokenGrant(this.notes, old)
      } catch (error) {
        const status = statusOf(error)
        if (status === 400) return
        if (ambiguous(status) && attempt < 30) {
          await sleep(1000)
          continue
        }
        chain.state = 'abandoned'
        throw error
      }
      throw new Error('a reused refresh token was accepted')
    }
  }

  /** Two instances asked to redeem one code at the same moment: at most one may succeed. */
  async raceCode() {
    const ports = this.options.instancePorts()
    const minted = await this.mintCode(this.randomUser().id)
    const grantHash = sha256Hex(minted.code)
    const body = new URLSearchParams({ grant_type: 'authorization_code', code: minted.code, redirect_uri: NOTES_APP.redirectUri, code_verifier: minted.verifier })
    const answers = await Promise.all([0, 1].map((i) => this.postToken(ports[i % ports.length]!, body)))
    const won = answers.filter((a) => a.status === 200)
    this.ledger.codeRaces.push({ grantHash, successes: won.length })
    // The loser presented a used code, so what the winner got must be revoked (RFC 6749 4.1.2).
    const chain: Chain = { kind: 'code', grantHash, accessTokens: won.map((a) => a.json.access_token as string), refreshToken: null, state: 'replayed' }
    if (won.length === 1 && answers.some((a) => a.status === 400)) this.ledger.chains.push(chain)
    if (answers.some((a) => ambiguous(a.status))) throw new Error(`race answered ${answers.map((a) => a.status).join(' ')}`)
  }

  /** Two instances asked to rotate one refresh token at once: at most one new token, and the family ends. */
  async raceRefresh() {
    const chain = this.liveChain()
    if (!chain) return this.login()
    const old = chain.refreshToken!
    chain.refreshToken = null
    const ports = this.options.instancePorts()
    const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: old })
    const answers = await Promise.all([0, 1].map((i) => this.postToken(ports[i % ports.length]!, body)))
    const won = answers.filter((a) => a.status === 200)
    this.ledger.refreshRaces.push({ successes: won.length })
    for (const a of won) chain.accessTokens.push(a.json.access_token as string)
    chain.state = won.length === 1 && answers.some((a) => a.status === 400) ? 'replayed' : 'abandoned'
    if (answers.some((a) => ambiguous(a.status))) throw new Error(`race answered ${answers.map((a) => a.status).join(' ')}`)
  }

  async postToken(port: number, body: URLSearchParams) {
    const authorization = 'Basic ' + Buffer.from(`${NOTES_APP.clientId}:${NOTES_APP.secret}`).toString('base64')
    try {
      const res = await fetch(`http://127.0.0.1:${port}/oauth/token`, { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body })
      return { status: res.status as number | 'net', json: (await res.json()) as Record<string, unknown> }
    } catch {
      return { status: 'net' as const, json: {} }
    }
  }

  // ------------------------------------------------------------ device flow

  async device() {
    const started = await oidc.initiateDeviceAuthorization(this.notes, { scope: 'openid profile read-repos' })
    const chain: Chain = { kind: 'device', grantHash: sha256Hex(started.device_code), accessTokens: [], refreshToken: null, state: 'abandoned' }
    this.ledger.chains.push(chain)
    // The user types the code on /oauth/device and approves (what that page's action calls).
    const user = this.randomUser()
    const pending = await findPendingRequest(started.user_code, user.id, '127.0.0.1')
    if (!(await decideDeviceRequest(pending, user.id, true, []))) throw new Error('device approval refused')
    const tokens = await oidc.pollDeviceAuthorizationGrant(this.notes, started)
    chain.accessTokens.push(tokens.access_token)
    chain.refreshToken = tokens.refresh_token ?? null
    chain.state = 'live'
  }

  // ------------------------------------------------------------ token exchange

  async exchange(expectedToFail = false) {
    const subject = expectedToFail ? OUTSIDER_EMAIL : MEMBERS[Math.floor(Math.random() * MEMBERS.length)]!
    const record = { subject, accessToken: null as string | null, status: 'net' as number | 'net', expectedToFail }
    this.ledger.exchanges.push(record)
    try {
      const tokens = await oidc.genericGrantRequest(this.backend, TOKEN_EXCHANGE, { subject_token: subject, subject_token_type: 'urn:hub:token-type:user-email', scope: 'read-repos' })
      record.status = 200
      record.accessToken = tokens.access_token
    } catch (error) {
      record.status = statusOf(error)
      if (expectedToFail && record.status === 400) return
      throw error
    }
    if (expectedToFail) throw new Error('an outsider was given an organization token')
    await this.readRepo(tokens_repo(), record.accessToken)
  }

  // ------------------------------------------------------------ reads with tokens

  async whoami(token?: string) {
    token ??= this.liveChain()?.accessTokens.at(-1)
    if (!token) return this.login()
    const res = await fetch(`${this.options.lbUrl}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } })
    if (res.status !== 200) throw Object.assign(new Error(`whoami ${res.status}`), { status: res.status })
    await res.arrayBuffer()
  }

  async readRepo(path = tokens_repo(), token?: string) {
    token ??= this.liveChain()?.accessTokens.at(-1)
    const res = await fetch(`${this.options.lbUrl}/api/${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {})
    if (res.status !== 200) throw Object.assign(new Error(`repo read ${res.status}`), { status: res.status })
    await res.arrayBuffer()
  }

  // ------------------------------------------------------------ moderation

  async moderate(token = this.fx.moderationTokens[Math.floor(Math.random() * this.fx.moderationTokens.length)]!) {
    const res = await fetch(`${this.options.lbUrl}/rai/v1/raimoderationmodels/sentimentmodel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: TEXTS[Math.floor(Math.random() * TEXTS.length)] }),
    })
    await res.arrayBuffer()
    return res.status
  }

  /** One account's token driven past MODERATION_RATE_LIMIT_PER_MINUTE at a steady rate. */
  async limitedLoop() {
    while (Date.now() < this.options.until) {
      const start = Date.now()
      let status: number | 'net' = 'net'
      await this.ledger.scope.run('moderation-limited', async () => {
        try {
          status = await this.moderate(this.fx.limitedToken)
        } catch {}
      })
      this.ledger.limited.push({ start, status })
      await sleep(Math.max(0, 1000 / this.options.limitedRps - (Date.now() - start)))
    }
  }

  // ------------------------------------------------------------ gated access (in-process)

  async gated() {
    const i = this.gatedNext++
    const repo = this.fx.repos[i % this.fx.repos.length]!
    const user = this.fx.requesters[Math.floor(i / this.fx.repos.length) % this.fx.requesters.length]!
    const record = { repoId: repo.id, userId: user.id, requested: false, decided: false }
    this.ledger.gated.push(record)
    await requestGatedAccess({ userId: user.id, principal: null }, repo.type, repo.namespace, repo.name)
    record.requested = true
    await decideGatedAccess({ userId: this.fx.byName.get(repo.admin)!.id, principal: null }, repo.id, user.id, 'accepted')
    record.decided = true
  }

  // ------------------------------------------------------------ the mix

  private readonly mix: [string, number, () => Promise<void>][] = [
    ['login', 3, () => this.login()],
    ['refresh', 4, () => this.refresh()],
    ['replay-refresh', 0.3, () => this.replayRefresh()],
    ['race-code', 0.5, () => this.raceCode()],
    ['race-refresh', 0.3, () => this.raceRefresh()],
    ['device', 0.4, () => this.device()],
    ['exchange', 2, () => this.exchange()],
    ['exchange-outsider', 0.4, () => this.exchange(true)],
    ['whoami', 3, () => this.whoami()],
    ['repo-read', 2, () => this.readRepo()],
    ['moderation', 2, async () => {
      const status = await this.moderate()
      if (status !== 200) throw Object.assign(new Error(`moderation ${status}`), { status })
    }],
    ['gated', 0.6, () => this.gated()],
  ]

  /** More traffic in the mix (the file scenarios of files.ts). */
  addScenario(name: string, weight: number, run: () => Promise<void>) {
    this.mix.push([name, weight, run])
  }

  private pick(): [string, () => Promise<void>] {
    const total = this.mix.reduce((s, [, w]) => s + w, 0)
    let r = Math.random() * total
    for (const [name, weight, run] of this.mix) {
      if ((r -= weight) <= 0) return [name, run]
    }
    return [this.mix[0]![0], this.mix[0]![2]]
  }

  /** `concurrency` workers start scenarios at `rps` in total (an open schedule, capped by the workers). */
  async run() {
    const interval = 1000 / this.options.rps
    let nextStart = Date.now()
    const worker = async () => {
      while (true) {
        const at = nextStart
        nextStart += interval
        if (at >= this.options.until) return
        await sleep(at - Date.now())
        const [name, run] = this.pick()
        await this.ledger.run(name, run)
      }
    }
    await Promise.all([this.limitedLoop(), ...Array.from({ length: this.options.concurrency }, worker)])
  }
}

function tokens_repo() {
  return Math.random() < 0.5 ? 'models/alice/toxicity-tiny' : 'models/acme-ai/guardrail-base'
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)))

// ------------------------------------------------------------ misbehaving clients (faults)

/**
 * Sends a code exchange's headers and half of its body straight to an instance, then hangs up.
 * The server must not have redeemed the code: the invariants check it is unused and then redeem it.
 */
export async function cutOffTokenRequest(port: number, load: Load, ledger: Ledger, userId: string) {
  const minted = await load.mintCode(userId)
  const body = new URLSearchParams({ grant_type: 'authorization_code', code: minted.code, redirect_uri: NOTES_APP.redirectUri, code_verifier: minted.verifier }).toString()
  const authorization = 'Basic ' + Buffer.from(`${NOTES_APP.clientId}:${NOTES_APP.secret}`).toString('base64')
  await rawRequest(port, `POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, body.length >> 1)}`, 300)
  ledger.cutOffCodes.push({ code: minted.code, verifier: minted.verifier, grantHash: sha256Hex(minted.code), unusedAfterCut: null, laterRedeemed: null })
  return minted
}

/** Sends a whole request and hangs up before the answer (a client that gave up waiting). */
export async function abandonedRequest(port: number, path: string, token: string) {
  await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`, 5)
}

function rawRequest(port: number, text: string, holdMs: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(text)
      setTimeout(() => {
        socket.destroy()
        resolve()
      }, holdMs)
    })
    socket.on('error', () => resolve())
  })
}

/**
 * Slow clients: `count` connections that send their headers a byte every `byteMs` for `holdMs`
 * (slowloris), plus one real token request whose body trickles in; the latter must still succeed.
 */
export async function slowClients(port: number, count: number, holdMs: number, load: Load, userId: string): Promise<{ trickledStatus: number | 'net' }> {
  const sockets: net.Socket[] = []
  const timers: NodeJS.Timeout[] = []
  for (let i = 0; i < count; i++) {
    const socket = net.connect(port, '127.0.0.1')
    socket.on('error', () => {})
    const header = `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'x'.repeat(4000)}`
    let at = 0
    timers.push(setInterval(() => at < header.length && socket.write(header[at++]!), 100))
    sockets.push(socket)
  }
  const minted = await load.mintCode(userId)
  const body = new URLSearchParams({ grant_type: 'authorization_code', code: minted.code, redirect_uri: NOTES_APP.redirectUri, code_verifier: minted.verifier }).toString()
  const authorization = 'Basic ' + Buffer.from(`${NOTES_APP.clientId}:${NOTES_APP.secret}`).toString('base64')
  const trickled = new Promise<number | 'net'>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', async () => {
      socket.write(`POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`)
      const step = Math.max(1, Math.ceil(body.length / (holdMs / 100)))
      for (let i = 0; i < body.length; i += step) {
        socket.write(body.slice(i, i + step))
        await sleep(100)
      }
    })
    let answer = ''
    socket.on('data', (d) => (answer += d))
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0) || 'net'))
    socket.on('error', () => resolve('net'))
  })
  await sleep(holdMs)
  for (const t of timers) clearInterval(t)
  for (const s of sockets) s.destroy()
  return { trickledStatus: await Promise.race([trickled, sleep(15_000).then(() => 'net' as const)]) }
}
