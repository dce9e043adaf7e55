'use server'
// Server mode of the playground calls the moderation API as the signed-in user, with a
// short-lived token that carries only the moderation scope (as the API docs page does).
import { sessionCaller } from '@/lib/auth/caller'
import { createPersonalToken } from '@/lib/auth/personal-tokens'

const PLAYGROUND_TOKEN_SECONDS = 3600

export async function playgroundTokenAction(): Promise<{ token?: string; error?: string }> {
  const caller = await sessionCaller()
  if (!caller) return { error: 'Sign in to run checks on the server.' }
  const { token } = await createPersonalToken(
    caller.userId,
    { name: 'Moderation playground (1 hour)', role: 'fineGrained', scopes: ['write:users'] },
    { expiresInSeconds: PLAYGROUND_TOKEN_SECONDS },
  )
  return { token }
}
