// The start check of instrumentation.ts: the test database (migrated by the suite's setup with
// `scripts/db.ts deploy`, SQLite or PostgreSQL) lacks none of the migrations this version ships,
// read from the folder of its own flavour.
import { describe, expect, it } from 'vitest'
import { missingMigrations } from '@/lib/db/migrations'

describe('missingMigrations', () => {
  it('finds none missing on a database that db:migrate brought up to date', async () => {
    expect(await missingMigrations()).toEqual([])
  })
})
