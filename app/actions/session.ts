'use server'
// Sign-up, sign-in, sign-out and password changes. Server actions are CSRF-protected by Next (the Origin header must
// match the host), and next-auth's own endpoints by its CSRF token.
import { AuthError } from 'next-auth'
import { headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { signIn, signOut } from '@/lib/auth/nextauth'
import { sessionCaller } from '@/lib/auth/caller'
import { revokeSessionCredentials } from '@/lib/auth/session-credentials'
import { endEverySession } from '@/lib/auth/ended-sessions'
import { changePassword, signUp, usernameOf } from '@/lib/hub/users'
import { safeNextPath } from '@/lib/http/next-path'
import { answerForm, text, type FormState } from '@/lib/http/form'
import { unauthorized } from '@/lib/http/errors'
import { clientIp } from '@/lib/ratelimit'

/** What the sign-in form says for each refusal lib/auth/nextauth names (else: a wrong password). */
const SIGN_IN_REFUSALS: Record<string, string> = {
  rate_limited: 'Too many sign-in attempts. Try again in 15 minutes.',
  disabled: 'This account is disabled. Contact the hub\'s operator.',
}

export async function signInAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    await signIn('credentials', { login: text(form, 'login'), password: text(form, 'password'), redirect: false })
  } catch (error) {
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code
      return { error: SIGN_IN_REFUSALS[code ?? ''] ?? 'Wrong username, e-mail or password.' }
    }
    throw error
  }
  redirect(safeNextPath(text(form, 'next')))
}

/** lib/hub/users' refusals of a sign-up that concern one field: said under that field too. */
const TAKEN: [RegExp, string][] = [
  [/^The name ".*" is already taken\.?$/, 'username'],
  [/^An account with this e-mail address already exists\.?$/, 'email'],
]

export async function signUpAction(_: FormState, form: FormData): Promise<FormState> {
  const answer = await answerForm(async () => {
    await signUp({ username: text(form, 'username'), email: text(form, 'email'), password: text(form, 'password'), fullname: text(form, 'fullname') }, clientIp(await headers()))
    await signIn('credentials', { login: text(form, 'username'), password: text(form, 'password'), redirect: false })
    redirect(safeNextPath(text(form, 'next')))
  })
  const field = answer?.error && !answer.fields ? TAKEN.find(([refusal]) => refusal.test(answer.error!))?.[1] : undefined
  if (!field) return answer
  const sentence = /[.!?]$/.test(answer!.error!) ? answer!.error! : `${answer!.error!}.`
  return { error: sentence, fields: { [field]: sentence } }
}

export async function signOutAction() {
  // A page may still hold the session credential (docs "Try it", the playground): it ends here too.
  const caller = await sessionCaller()
  if (caller) await revokeSessionCredentials(caller.userId)
  await signOut({ redirectTo: '/' })
}

export async function changePasswordAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await sessionCaller()
    if (!caller) throw unauthorized('Sign in first')
    const newPassword = text(form, 'newPassword')
    await changePassword(caller.userId, { currentPassword: text(form, 'currentPassword'), newPassword, confirmPassword: text(form, 'confirmPassword') })
    // Every session signed in before the change is over, this one too, and so are the credentials
    // pages hold for them: this browser signs in again with the new password.
    await revokeSessionCredentials(caller.userId)
    await signIn('credentials', { login: await usernameOf(caller.userId), password: newPassword, redirect: false })
    // Redirected, not answered in place: the page drawn with this answer would read the old cookie
    // (next-auth reads the request's headers, not the cookie just set) and show the user signed out.
    redirect('/settings/password?changed=1')
  })
}

export async function signOutEverywhereAction(): Promise<FormState> {
  const caller = await sessionCaller()
  if (!caller) return { error: 'Sign in first.' }
  // Every session of the account signed in before now ends on every instance (this one at once).
  await endEverySession(caller.userId)
  await revokeSessionCredentials(caller.userId)
  await signOut({ redirectTo: '/login' })
  return null
}
