'use server'
// Revoking an authorized app (server action: Next refuses cross-origin posts).
import { revalidatePath } from 'next/cache'
import { sessionCaller } from '@/lib/auth/caller'
import { notFound, unauthorized } from '@/lib/http/errors'
import { revokeConsent } from '@/lib/oauth/consent'
import { answerForm, text, type FormState } from '@/lib/http/form'

export async function revokeAppAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const caller = await sessionCaller()
    if (!caller) throw unauthorized('Sign in first')
    if (!(await revokeConsent(caller.userId, text(form, 'clientId')))) throw notFound('This app is not authorized')
    revalidatePath('/settings/authorized-apps')
    return { ok: 'Access revoked: the app’s tokens no longer work.' }
  })
}
