// What the clients saw: every HTTP request (time, scenario, status or network failure) and every
// outcome the invariants compare with the database afterwards. Requests are recorded by wrapping
// the global fetch, which openid-client and the other clients use, so nothing is counted by hand.
import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash } from 'node:crypto'

const REQUEST_TIMEOUT_MS = 30_000

export type RequestRecord = { start: number; end: number; scenario: string; path: string; status: number | 'net'; upstream: string | null }

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex')

/** An authorization (code or device grant) as its client holds it. */
export type Chain = {
  kind: 'code' | 'device'
  /** sha256 of the code or device code: finds the family in the database. */
  grantHash: string
  /** Every access token this client was given for it. */
  accessTokens: string[]
  refreshToken: string | null
  /**
   * live: the last answer was a success and the refresh token is the newest; abandoned: a request
   * failed without an answer (it may or may not have rotated); replayed: the client deliberately
   * reused an old refresh token, so the whole family must be revoked.
   */
  state: 'live' | 'abandoned' | 'replayed'
}

/** An outcome with no clear answer: no response, a 5xx from the balancer or an instance. */
export const ambiguous = (status: number | 'net') => status === 'net' || status >= 500

export class Ledger {
  readonly requests: RequestRecord[] = []
  readonly chains: Chain[] = []
  /** Codes two clients raced to redeem at two instances at once, with how many succeeded. */
  readonly codeRaces: { grantHash: string; successes: number }[] = []
  readonly refreshRaces: { successes: number }[] = []
  /** Token exchanges: the access token seen, or the status of the failure. */
  readonly exchanges: { subject: string; accessToken: string | null; status: number | 'net'; expectedToFail: boolean }[] = []
  /** Requests to the rate-limited moderation token: when sent and what came back. */
  readonly limited: { start: number; status: number | 'net' }[] = []
  /** Token requests whose body was cut off half-way: their codes must still be unredeemed, then redeemable. */
  readonly cutOffCodes: { code: string; verifier: string; grantHash: string; unusedAfterCut: boolean | null; laterRedeemed: boolean | null }[] = []
  readonly gated: { repoId: string; userId: string; requested: boolean; decided: boolean }[] = []
  readonly scenarios: { start: number; scenario: string; ok: boolean; error?: string }[] = []
  readonly scope = new AsyncLocalStorage<string>()
  /** Requests sent and not yet answered: what a run that overstays prints. */
  readonly inFlight = new Set<RequestRecord>()

  /** Replaces globalThis.fetch with one that records each request under the current scenario. */
  instrumentFetch() {
    const realFetch = globalThis.fetch
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      const record: RequestRecord = { start: Date.now(), end: 0, scenario: this.scope.getStore() ?? 'other', path: url.pathname, status: 'net', upstream: null }
      this.inFlight.add(record)
      try {
        // Every request is bounded: a hung instance must not hang the run.
        const res = await realFetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
        record.status = res.status
        record.upstream = res.headers.get('x-soak-upstream')
        return res
      } finally {
        record.end = Date.now()
        this.inFlight.delete(record)
        if (this.scope.getStore() !== 'control') this.requests.push(record)
      }
    }
  }

  /** The requests still waiting for an answer, oldest first, each with its age. */
  describeInFlight(now = Date.now()): string {
    const waiting = [...this.inFlight].sort((a, b) => a.start - b.start)
    if (!waiting.length) return 'no request in flight'
    return waiting.map((r) => `${r.scenario} ${r.path} for ${((now - r.start) / 1000).toFixed(1)} s`).join('; ')
  }

  /** Runs a scenario under its name; records whether it did what it meant to. */
  async run(scenario: string, body: () => Promise<void>) {
    const start = Date.now()
    try {
      await this.scope.run(scenario, body)
      this.scenarios.push({ start, scenario, ok: true })
    } catch (error) {
      this.scenarios.push({ start, scenario, ok: false, error: describe(error) })
    }
  }
}

export function describe(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as { status?: number; code?: string; error?: string; message?: string; cause?: { code?: string; status?: number } }
    if (e.status) return `${e.status} ${e.error ?? e.code ?? ''}`.trim()
    // openid-client's answer to a response that is no OAuth response at all (the balancer's 502 or 503)
    if (e.cause?.status) return String(e.cause.status)
    return (e.cause?.code ?? e.code ?? e.message ?? String(error)).slice(0, 120)
  }
  return String(error).slice(0, 120)
}

/** The HTTP status an error from openid-client or fetch carries, or 'net' when there was no answer. */
export function statusOf(error: unknown): number | 'net' {
  const e = error as { status?: number; cause?: { status?: number } }
  return e?.status ?? e?.cause?.status ?? 'net'
}
