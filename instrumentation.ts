// Runs once when a server process starts: refuses to serve with settings it cannot use, and with
// MODERATION_MODEL_LOADING=eager loads installed moderation models now rather than on their first
// request (the health route reports 503 until done).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { settingProblems } = await import('@/lib/config/settings')
  const problems = settingProblems()
  if (problems.length) {
    console.error(`ModHub cannot start: ${problems.join('; ')} (see the configuration table in README.md)`)
    process.exit(1)
  }
  const { startModelRuntime } = await import('@/lib/moderation/runtime')
  startModelRuntime().catch((error) => console.error('moderation models failed to load at start', error))
}
