// Vitest global setup: a fresh, migrated database for the integration tests. SQLite by default
// (a file under .tmp/); PostgreSQL when DATABASE_URL names one (its public schema is emptied).
import fs from 'node:fs'
import path from 'node:path'
import { deploy, providerOf } from '../../scripts/db'

function removeSqlite(url: string) {
  const file = path.resolve(url.slice('file:'.length))
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true })
}

export default async function setup() {
  const url = process.env.DATABASE_URL!
  if (providerOf(url) === 'sqlite') {
    removeSqlite(url)
  } else {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;')
    await client.end()
  }
  await deploy(url)
  return () => {
    if (providerOf(url) === 'sqlite' && url.includes('/vitest-')) removeSqlite(url)
  }
}
