// Imported first by the operator scripts (db, seed, keys:rotate, files:cleanup, users:reset-password): they read the same
// .env files as the server (scripts/serve.mjs, through @next/env as `next start` does) and run from
// the project folder, so relative paths (the SQLite file, data/auth-secret, the blob folder) are the
// server's: `npm run db:migrate` migrates the database the hub will open, from any folder.
import path from 'node:path'
import nextEnv from '@next/env'

const root = path.resolve(import.meta.dirname, '..')
process.chdir(root)
nextEnv.loadEnvConfig(root, false, { info: () => {}, error: console.error })
