'use server'
// The operator page's forms: grant or revoke an organization app's token-exchange privilege, and
// record whether an organization has a payment method on file.
import { headers } from 'next/headers'
import { revalidatePath } from 'next/cache'
import { sessionCaller } from '@/lib/auth/caller'
import { clientIp } from '@/lib/ratelimit'
import { grantTokenExchange, revokeTokenExchange, setOrgPaymentMethod } from '@/lib/hub/org-apps'
import { failure, text, type FormState } from '@/app/actions/state'

export async function grantTokenExchangeAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const app = await grantTokenExchange(await sessionCaller(), text(form, 'appId'), clientIp(await headers()))
    revalidatePath('/operator')
    return { ok: `"${app.name}" may now exchange tokens for its organization's members.` }
  } catch (e) {
    return failure(e)
  }
}

export async function revokeTokenExchangeAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const { app, revokedTokens } = await revokeTokenExchange(await sessionCaller(), text(form, 'appId'), clientIp(await headers()))
    revalidatePath('/operator')
    return { ok: `Token exchange revoked from "${app.name}"; ${revokedTokens} live token${revokedTokens === 1 ? '' : 's'} ended.` }
  } catch (e) {
    return failure(e)
  }
}

export async function setPaymentMethodAction(_: FormState, form: FormData): Promise<FormState> {
  try {
    const canPay = text(form, 'canPay') === 'yes'
    const org = await setOrgPaymentMethod(await sessionCaller(), text(form, 'orgId'), canPay, clientIp(await headers()))
    revalidatePath('/operator')
    return { ok: `${org.name}: ${canPay ? 'payment method on file' : 'no payment method on file'}.` }
  } catch (e) {
    return failure(e)
  }
}
