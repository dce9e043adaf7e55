'use server'
// "Try it" with the signed-in account: a short-lived fine-grained token that carries only the
// moderation scope, so the docs page never holds a credential that can do more.
import { sessionCaller } from '@/lib/auth/caller'
import { createPersonalToken } from '@/lib/auth/personal-tokens'

const DOCS_TOKEN_SECONDS = 3600

export async function docsTokenAction(): Promise<{ token?: string; error?: string }> {
  const caller = await sessionCaller()
  if (!caller) return { error: 'Sign in first.' }
  const { token } = await createPersonalToken(caller.userId, { name: 'Moderation API docs (1 hour)', role: 'fineGrained', scopes: ['write:users'] }, { expiresInSeconds: DOCS_TOKEN_SECONDS })
  return { token }
}
