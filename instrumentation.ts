// Runs once when a server process starts: with MODERATION_MODEL_LOADING=eager, installed moderation
// models load now rather than on their first request (the health route reports 503 until done).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { startModelRuntime } = await import('@/lib/moderation/runtime')
  startModelRuntime().catch((error) => console.error('moderation models failed to load at start', error))
}
