// Next loads lib/ once per bundle layer (a route handler and a server action hold different copies
// of a module), and `npm start`'s fast path calls the route modules of the build. State that must
// be one per process lives in lib/config/process-state, so a change made through one copy reaches
// every other at once. Two copies here are two evaluations of the same modules (vi.resetModules).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createUser } from '@/lib/hub/users'
import { databaseUrl } from '@/lib/db'

type Copy = {
  clients: typeof import('@/lib/oauth/clients')
  apps: typeof import('@/lib/oauth/clients/apps')
  keys: typeof import('@/lib/oauth/keys')
  tokens: typeof import('@/lib/auth/tokens')
  ratelimit: typeof import('@/lib/ratelimit')
  db: typeof import('@/lib/db')
}

async function loadCopy(): Promise<Copy> {
  vi.resetModules()
  return {
    clients: await import('@/lib/oauth/clients'),
    apps: await import('@/lib/oauth/clients/apps'),
    keys: await import('@/lib/oauth/keys'),
    tokens: await import('@/lib/auth/tokens'),
    ratelimit: await import('@/lib/ratelimit'),
    db: await import('@/lib/db'),
  }
}

let route: Copy
let action: Copy
let userId: string
beforeAll(async () => {
  userId = (await createUser({ username: 'procstate', email: 'procstate@test.dev', password: 'proc-state-pass' })).id
  route = await loadCopy()
  action = await loadCopy()
})
afterAll(() => route.tokens.flushTokenUses())

describe('process-wide state shared by every copy of lib/', () => {
  it('the copies are distinct modules', () => {
    expect(route.clients).not.toBe(action.clients)
    expect(route.clients.findClient).not.toBe(action.clients.findClient)
  })

  it('one database client and one sliced rate limiter', () => {
    expect(route.db.db).toBe(action.db.db)
    expect(route.ratelimit.sliced).toBe(action.ratelimit.sliced)
  })

  it('a secret rotated through one copy is refused at once by the other copy\'s cached client', async () => {
    const { app } = await action.apps.createApp({ kind: 'user', userId }, { name: 'Process state', redirectUris: ['http://127.0.0.1/cb'], scopes: [] }, true)
    const before = await route.clients.findClient(app.clientId)
    expect(before?.secretHash).toBe(app.secretHash)
    await action.apps.rotateSecret(app.id)
    const after = await route.clients.findClient(app.clientId)
    expect(after?.secretHash).not.toBe(app.secretHash)
  })

  it('a signing key rotated through one copy signs at once in the other', async () => {
    const first = await route.keys.signingKey()
    const kid = await action.keys.rotateSigningKey()
    expect(kid).not.toBe(first.kid)
    expect((await route.keys.signingKey()).kid).toBe(kid)
  })

  it('a token use noted by one copy is written by the other copy\'s flush', async () => {
    const { token, id } = await route.tokens.issueToken({ kind: 'personal', userId, displayName: 'procstate', role: 'read' })
    expect(await route.tokens.principalFromToken(token)).toMatchObject({ tokenId: id })
    await action.tokens.flushTokenUses()
    const row = await route.db.db.accessToken.findUniqueOrThrow({ where: { id } })
    expect(row.lastUsedAt).not.toBeNull()
  })

  // The adapter names the statements it prepares through the copy that connected it, while the
  // statements come from every copy: the served hub's token endpoint once sent all of them
  // unnamed, parsed and planned on every exchange.
  it.runIf(/^postgres/.test(databaseUrl()))('a statement written through either copy is prepared under a name on PostgreSQL', async () => {
    // Each statement lists itself (PostgreSQL keeps a named statement from its Parse on), by a text
    // that only it contains.
    const byRoute = await route.db.rows<{ name: string }>(route.db.sql`SELECT "name" FROM pg_prepared_statements WHERE "statement" LIKE '%written by the route copy%'`)
    const byAction = await action.db.rows<{ name: string }>(action.db.sql`SELECT "name" FROM pg_prepared_statements WHERE "statement" LIKE '%written by the action copy%'`)
    for (const listed of [byRoute, byAction]) {
      expect(listed).toHaveLength(1)
      expect(listed[0]!.name).toMatch(/^modhub_\d+$/)
    }
  })
})
