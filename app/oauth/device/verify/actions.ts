'use server'
// The user's answer on the device verification page (a server action: Next checks its Origin).
import { redirect } from 'next/navigation'
import { sessionSignIn } from '@/lib/auth/caller'
import { decideDeviceRequest } from '@/lib/oauth/device-authorization'
import { text, type FormState } from '@/lib/http/form'

export async function decideDeviceAction(_: FormState, form: FormData): Promise<FormState> {
  const signedIn = await sessionSignIn()
  if (!signedIn) return { error: 'Sign in first.' }
  const { caller } = signedIn
  const approve = text(form, 'decision') === 'approve'
  const orgIds = form.getAll('orgIds').filter((v): v is string => typeof v === 'string')
  const decided = await decideDeviceRequest({ id: text(form, 'requestId'), userCode: text(form, 'userCode') }, caller.userId, approve, orgIds, signedIn.authTime)
  if (!decided) return { error: 'This request expired or was already answered. Start again on your device.' }
  redirect(`/oauth/device/verify?${new URLSearchParams({ answered: text(form, 'requestId') })}`)
}
