'use server'
// The operator page's forms: grant or revoke an organization app's token-exchange privilege, and
// record whether an organization has a payment method on file, reset someone's password, and
// disable or enable an account, and choose who else operates the hub.
import { headers } from 'next/headers'
import { revalidatePath } from 'next/cache'
import { sessionCaller } from '@/lib/auth/caller'
import { clientIp } from '@/lib/ratelimit'
import { grantTokenExchange, revokeTokenExchange, setOrgPaymentMethod } from '@/lib/hub/org-apps'
import { disableAccount, enableAccount, resetPasswordAsOperator, setHubOperator } from '@/lib/hub/users'
import { answerForm, text, type FormState } from '@/lib/http/form'

export async function grantTokenExchangeAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const app = await grantTokenExchange(await sessionCaller(), text(form, 'appId'), clientIp(await headers()))
    revalidatePath('/operator')
    return { ok: `"${app.name}" may now exchange tokens for its organization's members.` }
  })
}

export async function revokeTokenExchangeAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const { app, revokedTokens } = await revokeTokenExchange(await sessionCaller(), text(form, 'appId'), clientIp(await headers()))
    revalidatePath('/operator')
    return { ok: `Token exchange revoked from "${app.name}"; ${revokedTokens} live token${revokedTokens === 1 ? '' : 's'} ended.` }
  })
}

export async function setPaymentMethodAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const canPay = text(form, 'canPay') === 'yes'
    const org = await setOrgPaymentMethod(await sessionCaller(), text(form, 'orgId'), canPay, clientIp(await headers()))
    revalidatePath('/operator')
    return { ok: `${org.name}: ${canPay ? 'payment method on file' : 'no payment method on file'}.` }
  })
}

export async function resetPasswordAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const { username, password } = await resetPasswordAsOperator(await sessionCaller(), text(form, 'login'), clientIp(await headers()))
    return { ok: `Password of ${username} reset; their browser sessions are ended. Hand the new password over safely.`, secret: password }
  })
}

export async function disableAccountAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const { username } = await disableAccount(await sessionCaller(), text(form, 'login'), clientIp(await headers()))
    revalidatePath('/operator')
    return { ok: `${username} is disabled: signed out everywhere, their tokens refused, their apps' refresh tokens revoked.` }
  })
}

export async function enableAccountAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const { username } = await enableAccount(await sessionCaller(), text(form, 'login'), clientIp(await headers()))
    revalidatePath('/operator')
    return { ok: `${username} is enabled again and may sign in.` }
  })
}

export async function setOperatorAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const isOperator = text(form, 'operator') === 'yes'
    const { username } = await setHubOperator(await sessionCaller(), text(form, 'login'), isOperator, clientIp(await headers()))
    revalidatePath('/operator')
    return { ok: isOperator ? `${username} is now an operator of the hub.` : `${username} is no longer an operator.` }
  })
}
