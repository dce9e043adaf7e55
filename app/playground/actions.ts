'use server'
// Server mode of the playground calls the moderation API as the signed-in user, with their
// session credential (moderation scope only; not one of their access tokens), as the docs page does.
import { sessionCaller } from '@/lib/auth/caller'
import { sessionCredential } from '@/lib/auth/session-credentials'

export async function playgroundTokenAction(): Promise<{ token?: string; error?: string }> {
  const caller = await sessionCaller()
  if (!caller) return { error: 'Sign in to run checks on the server.' }
  return { token: (await sessionCredential(caller.userId)).token }
}
