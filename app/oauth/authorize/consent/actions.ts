'use server'
// Approve or deny on the consent page. Server actions: Next refuses cross-origin posts (CSRF).
// The request is checked again here, exactly as the authorization endpoint checked it.
import { redirect } from 'next/navigation'
import { sessionCaller } from '@/lib/auth/caller'
import { approve, checkAuthorizationRequest, deniedLocation, memberOrgIds, type AuthorizeCheck } from '@/lib/oauth/authorize'
import { saveConsent } from '@/lib/oauth/consent'
import { OAuthError } from '@/lib/oauth/errors'
import { paramsFrom } from '@/lib/oauth/request'
import { text, type FormState } from '@/app/actions/state'

async function check(form: FormData): Promise<AuthorizeCheck> {
  try {
    return await checkAuthorizationRequest(paramsFrom(new URLSearchParams(text(form, 'request'))))
  } catch (error) {
    if (error instanceof OAuthError) return { kind: 'show-error', error }
    throw error
  }
}

export async function approveAction(_: FormState, form: FormData): Promise<FormState> {
  const caller = await sessionCaller()
  if (!caller) return { error: 'Your session ended. Sign in again.' }
  const checked = await check(form)
  if (checked.kind === 'show-error') return { error: checked.error.description }
  if (checked.kind === 'redirect') redirect(checked.location)
  const picked = form.getAll('orgIds').filter((v): v is string => typeof v === 'string')
  const orgIds = await memberOrgIds(caller.userId, picked)
  await saveConsent(caller.userId, checked.request.client.clientId, checked.request.scopes, orgIds)
  redirect(await approve(checked.request, caller.userId, orgIds))
}

export async function denyAction(_: FormState, form: FormData): Promise<FormState> {
  const checked = await check(form)
  if (checked.kind === 'show-error') return { error: checked.error.description }
  redirect(checked.kind === 'redirect' ? checked.location : deniedLocation(checked.request))
}
