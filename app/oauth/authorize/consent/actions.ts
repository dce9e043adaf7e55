'use server'
// Approve or deny on the consent page. Server actions: Next refuses cross-origin posts (CSRF).
// The request is checked again here, exactly as the authorization endpoint checked it.
import { redirect } from 'next/navigation'
import { sessionSignIn } from '@/lib/auth/caller'
import { approve, deniedLocation, isHintedUser, readAuthorizationRequest } from '@/lib/oauth/authorize'
import { text, type FormState } from '@/lib/http/form'

const check = (form: FormData) => readAuthorizationRequest(new URLSearchParams(text(form, 'request')))

export async function approveAction(_: FormState, form: FormData): Promise<FormState> {
  const signedIn = await sessionSignIn()
  if (!signedIn) return { error: 'Your session ended. Sign in again.' }
  const checked = await check(form)
  if (checked.kind === 'show-error') return { error: checked.error.text }
  if (checked.kind === 'redirect') redirect(checked.location)
  // Signed in as someone else since the page was shown: no code for another user than the app named.
  if (!isHintedUser(checked.request, signedIn.caller.userId)) return { error: 'The app asked for another account than the one signed in. Reload the page to sign in as that account.' }
  const picked = form.getAll('orgIds').filter((v): v is string => typeof v === 'string')
  redirect(await approve(checked.request, signedIn.caller.userId, picked, { remember: true, authTime: signedIn.authTime }))
}

export async function denyAction(_: FormState, form: FormData): Promise<FormState> {
  const checked = await check(form)
  if (checked.kind === 'show-error') return { error: checked.error.text }
  redirect(checked.kind === 'redirect' ? checked.location : deniedLocation(checked.request))
}
