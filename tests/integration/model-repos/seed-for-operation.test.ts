// `npm run db:seed -- --operator NAME --email ADDRESS`: a hub for real use gets its operator and
// the hub's own model repo, and none of the demo data (accounts with passwords printed in the README,
// OAuth apps with known secrets, one of them allowed to exchange members' e-mails for tokens).
// Run as an operator runs it, on a database of its own.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { createClient } from '@libsql/client'
import { afterAll, describe, expect, it } from 'vitest'
import { verifyPassword } from '@/lib/auth/password'

const run = promisify(execFile)
const file = path.resolve(`.tmp/seed-operation-${process.pid}.db`)
const env = { ...process.env, DATABASE_URL: `file:${file}`, HUB_OPERATOR_PASSWORD: 'a-long-operator-passphrase' }
const script = (...args: string[]) => run(process.execPath, ['--import', 'tsx', ...args], { env })

afterAll(() => {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true })
})

describe('seeding a hub for real use', () => {
  it('creates the operator and the hub models repo, no demo accounts or apps, and only once', async () => {
    await script('scripts/db.ts', 'deploy')
    const { stdout } = await script('scripts/seed.ts', '--operator', 'ops', '--email', 'ops@example.org')
    expect(stdout).toContain('operator account created: ops (password from HUB_OPERATOR_PASSWORD)')
    expect(stdout).not.toContain('a-long-operator-passphrase')

    const database = createClient({ url: `file:${file}` })
    try {
      const users = (await database.execute('SELECT "username", "isOperator", "passwordHash" FROM "User"')).rows
      expect(users.map((u) => [u.username, Number(u.isOperator)])).toEqual([['ops', 1]])
      expect(await verifyPassword('a-long-operator-passphrase', String(users[0]!.passwordHash))).toBe(true)
      // Only the built-in public app of the hf CLI (its migration), no demo app and no known secret.
      const apps = (await database.execute('SELECT "clientId", "secretHash" FROM "OAuthApp"')).rows
      expect(apps.filter((a) => a.secretHash !== null)).toEqual([])
      expect(apps.map((a) => a.clientId)).not.toEqual(expect.arrayContaining(['demo-notes-app']))
      expect(apps.map((a) => a.clientId)).not.toEqual(expect.arrayContaining(['demo-browser-app']))
      const repos = (await database.execute('SELECT "namespace" || \'/\' || "name" AS id FROM "Repo"')).rows.map((r) => r.id)
      expect(repos).toEqual(['hub-models/offline-moderation'])
      const admins = (await database.execute('SELECT u."username" FROM "Membership" m JOIN "User" u ON u."id" = m."userId" JOIN "Org" o ON o."id" = m."orgId" WHERE o."name" = \'hub-models\' AND m."role" = \'admin\'')).rows
      expect(admins.map((a) => a.username)).toEqual(['ops'])
    } finally {
      database.close()
    }

    // Once: a second run, with either form, adds nothing (and brings the hub's models up to date).
    expect((await script('scripts/seed.ts', '--operator', 'other', '--email', 'other@example.org')).stdout).toContain('database already has users; nothing added')
    expect((await script('scripts/seed.ts')).stdout).toContain('database already has users; demo data not added')
  }, 120_000)
})
