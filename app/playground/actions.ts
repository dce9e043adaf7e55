'use server'
// Server mode of the playground calls the moderation API as the signed-in user, with their
// session credential (moderation scope only; not one of their access tokens), as the docs page does.
import { sessionCaller } from '@/lib/auth/caller'
import { sessionCredential } from '@/lib/auth/session-credentials'
import type { CheckPath, NeuralModelFiles } from '@/lib/moderation/browser/catalog'
import { pickedModelFiles } from '@/lib/moderation/browser/server-catalog'

export async function playgroundTokenAction(): Promise<{ token?: string; error?: string }> {
  const caller = await sessionCaller()
  if (!caller) return { error: 'Sign in to run checks on the server.' }
  return { token: (await sessionCredential(caller.userId)).token }
}

/**
 * The repo picker: the browser files of model repo `value` (`namespace/name[@revision]`) for check
 * `path`, read with the viewer's access (signed out: public repos only), or the reason it cannot be used.
 */
export async function pickModelAction(path: CheckPath, value: string): Promise<{ files: NeuralModelFiles } | { error: string }> {
  // (A server action's arguments are whatever the client sent: String() of an object may throw.)
  if (typeof path !== 'string') return { error: 'Unknown check.' }
  return pickedModelFiles(await sessionCaller(), path, typeof value === 'string' ? value.slice(0, 300) : '')
}
