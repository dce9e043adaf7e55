import { defineConfig } from 'prisma/config'

// The Prisma CLI is used only for `generate` (see scripts/db.ts); migrations run through the
// wasm schema engine in scripts/db.ts because the native engine cannot be downloaded here.
export default defineConfig({
  schema: process.env.PRISMA_SCHEMA ?? 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'file:./data/modhub.db' },
})
