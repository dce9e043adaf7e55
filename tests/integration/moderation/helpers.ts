import type { Principal } from '@/lib/policy/principal'
import { createModerationHandler, type ModerationHandlerOptions } from '@/lib/moderation/api/handler'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import type { ModerationEngine } from '@/lib/moderation/engines/types'
import type { ModerationEngines } from '@/lib/moderation/checks'
import { mayUseModeration } from '@/lib/policy'

export function principal(overrides: Partial<Principal> = {}): Principal {
  return {
    userId: 'user-1',
    username: 'karan',
    tokenId: 'token-1',
    tokenKind: 'oauth',
    displayName: 'Test app',
    role: null,
    scopes: ['write:users'],
    orgIds: [],
    appId: null,
    repoId: null,
    createdAt: new Date(0),
    expiresAt: null,
    ...overrides,
  }
}

/** The token store of these tests: header value → principal. */
export const TOKENS: Record<string, Principal> = {
  'Bearer writer': principal(),
  'Bearer other-writer': principal({ tokenId: 'token-2' }),
  // Another account's token (the rate limits count per account, every token of a user together).
  'Bearer other-user': principal({ tokenId: 'token-6', userId: 'user-2', username: 'other' }),
  'Bearer reader': principal({ tokenId: 'token-3', scopes: ['read:users'] }),
  'Bearer personal-write': principal({ tokenId: 'token-4', tokenKind: 'personal', role: 'write', scopes: [] }),
  'Bearer personal-read': principal({ tokenId: 'token-5', tokenKind: 'personal', role: 'read', scopes: [] }),
}

function fixedEngine<Input, Output>(name: string, answer: (input: Input) => Output): ModerationEngine<Input, Output> {
  return { name, available: () => true, run: async (input) => answer(input) }
}

/**
 * The offline engines plus deterministic stand-ins for the neural checks, so that every endpoint's
 * shape can be checked without model files.
 */
export function stubEngines(): ModerationEngines {
  return {
    ...offlineEngines(),
    toxicity: fixedEngine('stub:toxicity', () => ({
      toxicity: 0.91,
      severe_toxicity: 0.02,
      obscene: 0.3,
      threat: 0.04,
      insult: 0.7,
      identity_attack: 0.05,
      sexual_explicit: 0.01,
    })),
    promptInjection: fixedEngine('stub:injection', (text: string) =>
      /ignore/i.test(text) ? { label: 'INJECTION' as const, score: 0.9991 } : { label: 'LEGIT' as const, score: 0.9987 },
    ),
    // Scores a label by its length so that the order differs from the request's.
    restrictedTopic: fixedEngine('stub:topic', ({ labels, classifier }) =>
      labels.map((label) => (classifier === 'nliMini' ? 0.5 : label.length / 100 + 0.000049)),
    ),
    embedding: fixedEngine('stub:embedding', (texts: string[]) => texts.map((t) => [t.length, 1, 0])),
    // The same vectors, without a reading of the pair: the check answers their cosine, as it does for the neural engine.
    similarity: fixedEngine('stub:similarity', (texts: string[]) => ({ vectors: texts.map((t) => [t.length, 1, 0]) })),
    gibberish: fixedEngine('stub:gibberish', () => ({ label: 'noise' as const, probability: 0.876 })),
    banCode: fixedEngine('stub:bancode', (text: string) => ({ label: text.includes('(') ? ('CODE' as const) : ('NL' as const), score: 0.97 })),
  }
}

export function makeHandler(overrides: Partial<ModerationHandlerOptions> = {}) {
  return createModerationHandler({
    authRequired: true,
    limits: { maxBodyBytes: 4096, maxTextLength: 500, maxListItems: 5 },
    rateLimit: { requestsPerMinute: 0, charactersPerMinute: 0 },
    engines: stubEngines(),
    resolvePrincipal: async (header) => (header ? (TOKENS[header] ?? null) : null),
    mayUseModeration,
    clientKey: () => '203.0.113.7',
    ...overrides,
  })
}

export const BASE = 'http://hub.test/rai/v1/raimoderationmodels'

export function moderationRequest(check: string, body: unknown, headers: Record<string, string> = { Authorization: 'Bearer writer' }) {
  return new Request(`${BASE}/${check}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

export async function post(
  handler: ReturnType<typeof makeHandler>,
  check: string,
  body: unknown,
  headers?: Record<string, string>,
): Promise<{ status: number; json: any; headers: Headers }> {
  const response = await handler(moderationRequest(check, body, headers), check)
  return { status: response.status, json: await response.json(), headers: response.headers }
}

/** The served moderation route module (app/rai/v1/raimoderationmodels/[check]/route.ts), imported by a test once its runtime is set. */
export type ModerationRoute = typeof import('@/app/rai/v1/raimoderationmodels/[check]/route')

/** POSTs to the served route (its own engines, no stubs) without credentials; `engine` is the answer's X-Moderation-Engine. */
export async function postToRoute(route: ModerationRoute, check: string, body: unknown): Promise<{ status: number; json: any; engine: string | null }> {
  const response = await route.POST(moderationRequest(check, body, { Authorization: 'None' }), { params: Promise.resolve({ check }) })
  return { status: response.status, json: await response.json(), engine: response.headers.get('X-Moderation-Engine') }
}
