'use server'
// Org admins set how long this app's exchanged tokens live (lib/org-apps validates and audits).
import { headers } from 'next/headers'
import { revalidatePath } from 'next/cache'
import { sessionCaller } from '@/lib/auth/caller'
import { clientIp } from '@/lib/ratelimit'
import { setExchangeTokenLifetime } from '@/lib/hub/org-apps'
import { answerForm, text, type FormState } from '@/lib/http/form'

const UNIT_SECONDS: Record<string, number> = { minutes: 60, hours: 3600, days: 86400 }

export async function exchangeLifetimeAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const seconds = Number(text(form, 'amount')) * (UNIT_SECONDS[text(form, 'unit')] ?? NaN)
    await setExchangeTokenLifetime(await sessionCaller(), text(form, 'appId'), seconds, clientIp(await headers()))
    revalidatePath(`/organizations/${text(form, 'org')}/apps/${text(form, 'appId')}`)
    return { ok: 'Token lifetime saved.' }
  })
}
