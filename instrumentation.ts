// Runs once when a server process starts: refuses to serve with settings it cannot use, a database
// without this version's migrations, or a signing key its AUTH_SECRET cannot read; with
// MODERATION_MODEL_LOADING=eager it loads installed moderation models now rather than on their first
// request (the health route reports 503 until done).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { settingProblems } = await import('@/lib/config/settings')
  const problems = settingProblems()
  if (problems.length) {
    console.error(`ModHub cannot start: ${problems.join('; ')} (see the configuration table in README.md)`)
    process.exit(1)
  }
  // A database behind this version (a migration not run after an upgrade) would fail on every page.
  const { missingMigrations } = await import('@/lib/db/migrations')
  const missing = await Promise.race([missingMigrations().catch(() => null), new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000).unref())])
  if (missing?.length) {
    console.error(`ModHub cannot start: the database lacks ${missing.length} of this version's migrations (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}); run \`npm run db:migrate\` with the same DATABASE_URL`)
    process.exit(1)
  }
  // An instance whose AUTH_SECRET differs from the one the signing key was stored with would answer
  // every token request with a 500: it does not start. A database not reachable yet is no reason
  // to refuse (requests answer 503 until it is).
  const { checkSigningKeyReadable, SigningKeyUnreadable } = await import('@/lib/oauth/keys')
  try {
    // At most a few seconds: a database that does not answer must not hold the start.
    await Promise.race([checkSigningKeyReadable(), new Promise((resolve) => setTimeout(resolve, 5000).unref())])
  } catch (error) {
    if (error instanceof SigningKeyUnreadable) {
      console.error(`ModHub cannot start: ${error.message}`)
      process.exit(1)
    }
    console.error('could not check the signing key at start', error)
  }
  const { startModelRuntime } = await import('@/lib/moderation/runtime')
  startModelRuntime().catch((error) => console.error('moderation models failed to load at start', error))
}
