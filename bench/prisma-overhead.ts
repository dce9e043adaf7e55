/**
 * What Prisma adds per query on the hot path's statement (an access token by its hash, joined to
 * its user): Prisma's findUnique with include (two statements), the same as one $queryRaw, and the
 * bare driver (@libsql/client or pg) running that SQL. Sequential, in process, after a warm-up.
 *
 *   npx tsx bench/prisma-overhead.ts                         # SQLite file
 *   DATABASE_URL=postgresql://... npx tsx bench/prisma-overhead.ts
 */
import path from 'node:path'
import { benchDatabase } from './load'

const root = path.resolve(import.meta.dirname, '..')
const N = Number(process.env.BENCH_QUERIES ?? 3000)
const { url } = await benchDatabase('./.tmp/bench-prisma.db')
const { db } = await import('@/lib/db')
const { sha256Hex } = await import('@/lib/auth/secrets')
const { issueToken } = await import('@/lib/auth/tokens')
const { createUser } = await import('@/lib/hub/users')
const user = await createUser({ username: 'prismabench', email: 'prismabench@bench.test', password: 'bench-password' })
const hashes: string[] = []
for (let i = 0; i < 200; i++) hashes.push(sha256Hex((await issueToken({ kind: 'personal', userId: user.id, role: 'read' })).token))

const SQL = `SELECT t."id", t."kind", t."userId", t."scopes", t."expiresAt", t."revokedAt", u."username" FROM "AccessToken" t JOIN "User" u ON u."id" = t."userId" WHERE t."tokenHash" = `
let bare: (hash: string) => Promise<unknown>
let close = async () => {}
if (url.startsWith('file:')) {
  const { createClient } = await import('@libsql/client')
  const client = createClient({ url: `file:${path.resolve(root, url.slice(5))}` })
  bare = (hash) => client.execute({ sql: SQL + '?', args: [hash] })
} else {
  const { Pool } = await import('pg')
  const pool = new Pool({ connectionString: url })
  bare = (hash) => pool.query(SQL + '$1', [hash])
  close = () => pool.end()
}

const ways: [string, (hash: string) => Promise<unknown>][] = [
  ['Prisma findUnique + include user (2 statements)', (hash) => db.accessToken.findUnique({ where: { tokenHash: hash }, include: { user: true } })],
  ['Prisma $queryRaw, one joined statement', (hash) => db.$queryRawUnsafe(SQL + (url.startsWith('file:') ? '?' : '$1'), hash)],
  [`bare driver (${url.startsWith('file:') ? '@libsql/client' : 'pg'}), same statement`, bare],
]
console.log(`\n${url.startsWith('file:') ? 'SQLite' : 'PostgreSQL'}, ${N} sequential lookups each, load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}\n`)
console.log('| way | µs per lookup | CPU µs per lookup |\n|---|---|---|')
for (let round = 0; round < 2; round++) {
  for (const [name, lookup] of ways) {
    for (let i = 0; i < 300; i++) await lookup(hashes[i % hashes.length]!)
    const cpu = process.cpuUsage()
    const start = performance.now()
    for (let i = 0; i < N; i++) await lookup(hashes[i % hashes.length]!)
    const wall = ((performance.now() - start) * 1000) / N
    const used = process.cpuUsage(cpu)
    if (round === 1) console.log(`| ${name} | ${wall.toFixed(0)} | ${((used.user + used.system) / N).toFixed(0)} |`)
  }
}
await close()
process.exit(0)
