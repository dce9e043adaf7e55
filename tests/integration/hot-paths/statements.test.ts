// lib/db/statements: hand-written statements on Prisma's driver adapter (the token endpoint's
// exchange and refresh, bearer-token lookups). They must read and write exactly what Prisma does,
// share its connection and lock without deadlocking it, roll back whole, and fail the way callers
// (and lib/http/unavailable) expect, on SQLite and on PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest'
import { db, newId, rows, run, spend, sql, statementsIn, transaction, type Insert, type SpendUpdate } from '@/lib/db'
import { issueToken, newAccessToken } from '@/lib/auth/tokens'
import { sha256Hex } from '@/lib/auth/secrets'
import { createUser } from '@/lib/hub/users'

let userId: string
beforeAll(async () => {
  userId = (await createUser({ username: 'stmts', email: 'stmts@test.dev', password: 'statements-pass' })).id
})

type TokenRow = { id: string; kind: string; userId: string; scopes: string; repoId: string | null; createdAt: Date; expiresAt: Date | null; lastUsedAt: Date | null }

describe('rows and run', () => {
  it('write a row Prisma reads back field for field, and read what Prisma wrote with the same types', async () => {
    const expiresAt = new Date(Date.now() + 3600_000)
    const { token, id } = await issueToken({ kind: 'oauth', userId, displayName: 'Ünïcode "app"', role: 'scoped', scopes: ['openid', 'read-repos'], expiresAt })
    const prisma = await db.accessToken.findUniqueOrThrow({ where: { id } })
    expect(prisma).toMatchObject({ kind: 'oauth', userId, displayName: 'Ünïcode "app"', role: 'scoped', scopes: '["openid","read-repos"]', tokenHash: sha256Hex(token), expiresAt, revokedAt: null })
    expect(prisma.createdAt).toBeInstanceOf(Date)
    expect(Math.abs(prisma.createdAt.getTime() - Date.now())).toBeLessThan(60_000)

    const [raw] = await rows<TokenRow>(sql`SELECT "id", "kind", "userId", "scopes", "repoId", "createdAt", "expiresAt", "lastUsedAt" FROM "AccessToken" WHERE "id" = ${id}`)
    expect(raw).toEqual({ id, kind: 'oauth', userId, scopes: prisma.scopes, repoId: null, createdAt: prisma.createdAt, expiresAt: prisma.expiresAt, lastUsedAt: null })
  })

  it('write and read the same instants as Prisma whatever time zone the process runs in', async () => {
    const zone = process.env.TZ
    // Node applies a change of TZ at once; UTC+14 and UTC-5 are never the server's UTC.
    for (const tz of ['Pacific/Kiritimati', 'America/New_York']) {
      process.env.TZ = tz
      try {
        const expiresAt = new Date(Date.UTC(2031, 0, 2, 3, 4, 5, 678))
        const id = newId()
        await run(sql`INSERT INTO "AccessToken" ("id", "kind", "userId", "role", "tokenHash", "prefix", "createdAt", "expiresAt")
                      VALUES (${id}, 'personal', ${userId}, 'read', ${sha256Hex(id)}, 'hf_x', ${new Date()}, ${expiresAt})`)
        expect((await db.accessToken.findUniqueOrThrow({ where: { id } })).expiresAt).toEqual(expiresAt)
        const later = new Date(expiresAt.getTime() + 86_400_000)
        await db.accessToken.update({ where: { id }, data: { expiresAt: later } })
        const [raw] = await rows<{ expiresAt: Date }>(sql`SELECT "expiresAt" FROM "AccessToken" WHERE "id" = ${id} AND "expiresAt" > ${expiresAt}`)
        expect(raw?.expiresAt).toEqual(later)
      } finally {
        if (zone === undefined) delete process.env.TZ
        else process.env.TZ = zone
      }
    }
  })

  it('read booleans as booleans and counts as numbers', async () => {
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } })
    const [raw] = await rows<{ emailVerified: boolean; isPro: boolean; n: number }>(
      sql`SELECT "emailVerified", "isPro", (SELECT COUNT(*) FROM "AccessToken" WHERE "userId" = ${userId}) AS "n" FROM "User" WHERE "id" = ${userId}`,
    )
    expect(raw).toEqual({ emailVerified: user.emailVerified, isPro: user.isPro, n: await db.accessToken.count({ where: { userId } }) })
  })

  it('bind values, never splice them', async () => {
    const hostile = `x' OR '1'='1`
    expect(await rows(sql`SELECT "id" FROM "User" WHERE "username" = ${hostile}`)).toEqual([])
    expect(await run(sql`UPDATE "User" SET "fullname" = 'changed' WHERE "username" = ${hostile}`)).toBe(0)
  })

  it('answer a unique violation as the adapter names it, and the connection keeps working (Prisma still sees P2002)', async () => {
    const { id } = await issueToken({ kind: 'personal', userId, role: 'read' })
    const [row] = await rows<{ tokenHash: string }>(sql`SELECT "tokenHash" FROM "AccessToken" WHERE "id" = ${id}`)
    const duplicate = sql`INSERT INTO "AccessToken" ("id", "kind", "userId", "role", "tokenHash", "prefix", "createdAt") VALUES (${newId()}, 'personal', ${userId}, 'read', ${row!.tokenHash}, 'hf_x', ${new Date()})`
    await expect(run(duplicate)).rejects.toMatchObject({ name: 'DriverAdapterError', cause: { kind: 'UniqueConstraintViolation' } })
    await expect(db.accessToken.create({ data: { kind: 'personal', userId, role: 'read', tokenHash: row!.tokenHash, prefix: 'hf_x' } })).rejects.toMatchObject({ code: 'P2002' })
    expect(await rows(sql`SELECT "id" FROM "AccessToken" WHERE "id" = ${id}`)).toHaveLength(1)
  })
})

describe('transaction', () => {
  it('commits every statement, or none when the work throws', async () => {
    const kept = await transaction(async (tx) => (await issueToken({ kind: 'personal', userId, role: 'read', displayName: 'kept' }, tx)).id)
    expect(await db.accessToken.count({ where: { id: kept } })).toBe(1)

    let dropped = ''
    await expect(
      transaction(async (tx) => {
        dropped = (await issueToken({ kind: 'personal', userId, role: 'read', displayName: 'dropped' }, tx)).id
        expect(await tx.rows(sql`SELECT "id" FROM "AccessToken" WHERE "id" = ${dropped}`)).toHaveLength(1)
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(dropped).not.toBe('')
    expect(await db.accessToken.count({ where: { id: dropped } })).toBe(0)
  })

  it('runs beside Prisma transactions and queries on the same connection without losing or mixing writes', async () => {
    const before = await db.accessToken.count({ where: { userId } })
    const work = Array.from({ length: 24 }, (_, i) =>
      i % 3 === 0
        ? transaction(async (tx) => {
            await issueToken({ kind: 'personal', userId, role: 'read', displayName: `bare-${i}` }, tx)
            await issueToken({ kind: 'personal', userId, role: 'read', displayName: `bare-${i}b` }, tx)
          })
        : i % 3 === 1
          ? db.$transaction(async (tx) => {
              await issueToken({ kind: 'personal', userId, role: 'read', displayName: `prisma-${i}` }, statementsIn(tx))
              await tx.accessToken.count()
            })
          : db.accessToken.count(),
    )
    await Promise.all(work)
    expect(await db.accessToken.count({ where: { userId } })).toBe(before + 8 * 2 + 8)
  })
})

describe('spend', () => {
  const spendOnce = (update: SpendUpdate, inserts: Insert[]) => spend<{ id: string; displayName: string }>({ ...update, returning: ['id', 'displayName'], inserts, select: sql`SELECT "id", "displayName" FROM "spent"` })

  it('inserts every row once the update changed its row, and nothing when the row was already spent', async () => {
    const { id: spendable } = await issueToken({ kind: 'personal', userId, role: 'read', displayName: 'spendable' })
    const update = () => ({ table: 'AccessToken', set: sql`"revokedAt" = ${new Date()}`, where: sql`"id" = ${spendable} AND "revokedAt" IS NULL` })
    const first = [newAccessToken({ kind: 'oauth', userId, role: 'scoped', displayName: 'first-a' }), newAccessToken({ kind: 'oauth', userId, role: 'scoped', displayName: 'first-b' })]
    expect(await spendOnce(update(), first.map((t) => t.row))).toEqual([{ id: spendable, displayName: 'spendable' }])
    const second = newAccessToken({ kind: 'oauth', userId, role: 'scoped', displayName: 'second' })
    expect(await spendOnce(update(), [second.row])).toEqual([])
    expect(await db.accessToken.count({ where: { id: { in: [...first.map((t) => t.id), second.id] } } })).toBe(2)
    const stored = await db.accessToken.findUniqueOrThrow({ where: { id: first[0]!.id } })
    expect(stored).toMatchObject({ kind: 'oauth', userId, role: 'scoped', displayName: 'first-a', tokenHash: sha256Hex(first[0]!.token), expiresAt: null })
  })

  it('fills inserted columns from the spent row, with their types', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000)
    const { id: spendable } = await issueToken({ kind: 'personal', userId, role: 'read', displayName: 'the parent', scopes: ['read-repos', 'openid'], expiresAt })
    const child = newAccessToken({ kind: 'oauth', userId: 'nobody', role: 'scoped', displayName: 'child' })
    const row: Insert = { into: 'AccessToken', values: { ...child.row.values, userId: sql`"spent"."userId"`, scopes: sql`"spent"."scopes"`, grantId: sql`"spent"."id"`, expiresAt: sql`"spent"."expiresAt"` } }
    const answer = await spend<{ id: string; expiresAt: Date }>({
      table: 'AccessToken',
      set: sql`"revokedAt" = ${new Date()}`,
      where: sql`"id" = ${spendable} AND "revokedAt" IS NULL`,
      returning: ['id', 'userId', 'scopes', 'expiresAt'],
      inserts: [row],
      select: sql`SELECT "id", "expiresAt" FROM "spent"`,
    })
    expect(answer).toEqual([{ id: spendable, expiresAt }])
    expect(await db.accessToken.findUniqueOrThrow({ where: { id: child.id } })).toMatchObject({ userId, scopes: '["read-repos","openid"]', grantId: spendable, expiresAt, displayName: 'child' })
  })

  it('stores nothing of a batch whose insert fails', async () => {
    const { id: spendable } = await issueToken({ kind: 'personal', userId, role: 'read' })
    const good = newAccessToken({ kind: 'oauth', userId, role: 'scoped' })
    const clash = newAccessToken({ kind: 'oauth', userId, role: 'scoped' })
    clash.row.values.tokenHash = good.row.values.tokenHash!
    await expect(spendOnce({ table: 'AccessToken', set: sql`"revokedAt" = ${new Date()}`, where: sql`"id" = ${spendable} AND "revokedAt" IS NULL` }, [good.row, clash.row])).rejects.toThrow()
    expect(await db.accessToken.findUniqueOrThrow({ where: { id: spendable } })).toMatchObject({ revokedAt: null })
    expect(await db.accessToken.count({ where: { id: { in: [good.id, clash.id] } } })).toBe(0)
  })
})

describe('spends and statements arriving together', () => {
  const spendRow = (id: string, inserts: Insert[]) =>
    spend<{ id: string }>({ table: 'AccessToken', set: sql`"revokedAt" = ${new Date()}`, where: sql`"id" = ${id} AND "revokedAt" IS NULL`, returning: ['id'], inserts, select: sql`SELECT "id" FROM "spent"` })

  it('spend a grant once however many arrive at the same moment, and a clash refuses only its own spend', async () => {
    const grants = await Promise.all(Array.from({ length: 4 }, () => issueToken({ kind: 'personal', userId, role: 'read' })))
    const { id: clashGrant } = await issueToken({ kind: 'personal', userId, role: 'read' })
    const tokens = Array.from({ length: 12 }, () => newAccessToken({ kind: 'oauth', userId, role: 'scoped' }))
    const clash = newAccessToken({ kind: 'oauth', userId, role: 'scoped' })
    // The clash is with a token stored before this moment: which of a grant's three spends wins is
    // the database's choice (on PostgreSQL they run on separate connections), so a clash with one
    // of this moment's tokens would clash only when that token's spend happened to win.
    clash.row.values.tokenHash = sha256Hex(grants[0]!.token)
    // Three spends of each grant in the same turn, and one spend whose insert clashes with a stored token.
    const outcomes = await Promise.allSettled([
      ...tokens.map((token, i) => spendRow(grants[i % 4]!.id, [token.row])),
      spendRow(clashGrant, [clash.row]),
    ])
    const won = outcomes.slice(0, 12).map((o) => (o.status === 'fulfilled' ? o.value.length : -1))
    expect(won.filter((n) => n === 1)).toHaveLength(4)
    expect(won.filter((n) => n === 0)).toHaveLength(8)
    for (const [g, grant] of grants.entries()) expect(won.filter((n, i) => i % 4 === g && n === 1)).toHaveLength(1)
    const stored = await db.accessToken.count({ where: { id: { in: tokens.map((t) => t.id) } } })
    expect(stored).toBe(4)
    expect(outcomes[12]).toMatchObject({ status: 'rejected', reason: { name: 'DriverAdapterError', cause: { kind: 'UniqueConstraintViolation' } } })
    expect(await db.accessToken.count({ where: { id: clash.id } })).toBe(0)
    // The clashing spend's update went back with it: its grant is still unspent.
    expect(await db.accessToken.findUniqueOrThrow({ where: { id: clashGrant } })).toMatchObject({ revokedAt: null })
  })

  it('answer each of many spends of the same moment with its own rows, in its own order', async () => {
    const grants = await Promise.all(Array.from({ length: 3 }, (_, i) => issueToken({ kind: 'personal', userId, role: 'read', displayName: `moment-${i}` })))
    const tokens = Array.from({ length: 9 }, () => newAccessToken({ kind: 'oauth', userId, role: 'scoped' }))
    // Each answer is two rows (the spent row joined to two of the user's tokens, ordered): they must not mix.
    const answers = await Promise.all(
      tokens.map((token, i) =>
        spend<{ id: string; displayName: string; other: string }>({
          table: 'AccessToken',
          set: sql`"revokedAt" = ${new Date()}`,
          where: sql`"id" = ${grants[i % 3]!.id} AND "revokedAt" IS NULL`,
          returning: ['id', 'displayName'],
          inserts: [token.row],
          select: sql`SELECT "spent"."id", "spent"."displayName", t."id" AS "other" FROM "spent" JOIN "AccessToken" t ON t."id" IN (${grants[0]!.id}, ${grants[1]!.id}) ORDER BY t."id" DESC`,
        }),
      ),
    )
    const descending = [grants[0]!.id, grants[1]!.id].sort().reverse()
    for (const [g, grant] of grants.entries()) {
      const mine = answers.filter((_, i) => i % 3 === g)
      const winners = mine.filter((rows) => rows.length > 0)
      expect(winners).toHaveLength(1)
      expect(winners[0]).toEqual(descending.map((other) => ({ id: grant.id, displayName: `moment-${g}`, other })))
      expect(mine.filter((rows) => rows.length === 0)).toHaveLength(2)
    }
    expect(await db.accessToken.count({ where: { id: { in: tokens.map((t) => t.id) } } })).toBe(3)
  })

  it('undo only the spend whose update matched more than one row, and keep the others of the same moment', async () => {
    const [a, b, c] = await Promise.all(['wide-a', 'wide-b', 'narrow'].map((displayName) => issueToken({ kind: 'personal', userId, role: 'read', displayName })))
    const kept = newAccessToken({ kind: 'oauth', userId, role: 'scoped' })
    const refused = newAccessToken({ kind: 'oauth', userId, role: 'scoped' })
    const wide = spend({ table: 'AccessToken', set: sql`"revokedAt" = ${new Date()}`, where: sql`"id" IN (${a!.id}, ${b!.id}) AND "revokedAt" IS NULL`, returning: ['id'], inserts: [refused.row], select: sql`SELECT "id" FROM "spent"` })
    const narrow = spendRow(c!.id, [kept.row])
    // SQLite: refused as it matched two rows; PostgreSQL: its one statement stored the token twice, and failed.
    await expect(wide).rejects.toThrow()
    expect(await narrow).toEqual([{ id: c!.id }])
    expect(await db.accessToken.count({ where: { id: { in: [a!.id, b!.id] }, revokedAt: null } })).toBe(2)
    expect(await db.accessToken.count({ where: { id: { in: [kept.id, refused.id] } } })).toBe(1)
  })

  it('never run inside an interactive transaction that is open: what they write outlives its rollback', async () => {
    const { id: grant } = await issueToken({ kind: 'personal', userId, role: 'read' })
    const token = newAccessToken({ kind: 'oauth', userId, role: 'scoped', displayName: 'outlives' })
    const order: string[] = []
    let spending: Promise<unknown> = Promise.resolve()
    let reading: Promise<unknown> = Promise.resolve()
    await expect(
      db.$transaction(async (tx) => {
        await tx.rateLimit.create({ data: { key: `rolled-back-${grant}`, count: 1, windowStart: new Date() } })
        spending = spendRow(grant, [token.row]).then((found) => order.push(`spend ${found.length}`))
        reading = rows<{ n: number }>(sql`SELECT COUNT(*) AS "n" FROM "RateLimit" WHERE "key" = ${`rolled-back-${grant}`}`).then(([r]) => order.push(`read ${r!.n}`))
        await new Promise((resolve) => setTimeout(resolve, 50))
        order.push('rollback')
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    await Promise.all([spending, reading])
    // On SQLite both waited for the transaction to end; on PostgreSQL they ran on other connections.
    expect(order).toContain('spend 1')
    expect(order).toContain('read 0')
    expect(await db.accessToken.count({ where: { id: token.id } })).toBe(1)
    expect(await db.rateLimit.count({ where: { key: `rolled-back-${grant}` } })).toBe(0)
  })
})

describe('newId', () => {
  it('makes distinct ids in the shape of Prisma cuid()s, rising with time', () => {
    const ids = Array.from({ length: 5000 }, newId)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^c[0-9a-z]{24}$/)
    expect(ids[0]!.slice(0, 9) <= ids.at(-1)!.slice(0, 9)).toBe(true)
  })
})
