'use server'
// "Try it" with the signed-in account: the user's session credential, which carries only the
// moderation scope and is not one of their access tokens.
import { sessionCaller } from '@/lib/auth/caller'
import { sessionCredential } from '@/lib/auth/session-credentials'

export async function docsTokenAction(): Promise<{ token?: string; error?: string }> {
  const caller = await sessionCaller()
  if (!caller) return { error: 'Sign in first.' }
  return { token: (await sessionCredential(caller.userId)).token }
}
