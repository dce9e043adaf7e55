import { defineConfig } from 'vitest/config'
import path from 'node:path'

// Integration tests run against a real database: a SQLite file of this run's own under .tmp/
// (removed afterwards), unless DATABASE_URL names one.
process.env.DATABASE_URL ||= `file:./.tmp/vitest-${process.pid}.db`

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/setup/database.ts'],
    // The offline engines' numerics are tested on the shipped folder (the air-gapped override);
    // tests/integration/model-repos loads them from hub repos instead.
    env: {
      DATABASE_URL: process.env.DATABASE_URL,
      AUTH_SECRET: process.env.AUTH_SECRET || 'vitest-only-secret',
      OFFLINE_MODELS_DIR: process.env.OFFLINE_MODELS_DIR ?? 'public/models/offline',
    },
    // On CI a failed test runs once more (as the end-to-end tests do): one that passes only then is
    // named in the closing summary ("passed on a retry", from the errors its report keeps).
    retry: process.env.CI ? 1 : 0,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests share one database; run files one after another.
    fileParallelism: false,
    // next-auth imports 'next/server' without an extension, which only a bundler resolves.
    server: { deps: { inline: ['next-auth'] } },
  },
})
