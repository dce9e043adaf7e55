// Vitest global setup: a fresh, migrated database for the integration tests. SQLite by default
// (a file under .tmp/); PostgreSQL when DATABASE_URL names one (its public schema is emptied).
import path from 'node:path'
import { deploy, providerOf, removeSqliteFiles } from '../../scripts/db'

const sqliteFile = (url: string) => path.resolve(url.slice('file:'.length))

export default async function setup() {
  const url = process.env.DATABASE_URL!
  if (providerOf(url) === 'sqlite') {
    removeSqliteFiles(sqliteFile(url))
  } else {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;')
    await client.end()
  }
  await deploy(url)
  return () => {
    if (providerOf(url) === 'sqlite' && url.includes('/vitest-')) removeSqliteFiles(sqliteFile(url))
  }
}
