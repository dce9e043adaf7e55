'use server'
// The trusted-publishers settings forms: add one (for the user or one of their repos), remove one.
import { headers } from 'next/headers'
import { revalidatePath } from 'next/cache'
import { sessionCaller } from '@/lib/auth/caller'
import { clientIp } from '@/lib/ratelimit'
import { REPO_TYPES, type RepoType } from '@/lib/hub/names'
import { addPublisher, claimsFromLines, issuerFromPreset, removePublisher, type PublisherTarget } from '@/lib/hub/publishers'
import { badRequest } from '@/lib/http/errors'
import { answerForm, text, type FormState } from '@/lib/http/form'

/** "user", or "repo:{type}:{namespace}/{name}" as the form's target select writes it. */
function targetOf(value: string): PublisherTarget {
  if (value === 'user') return { kind: 'user' }
  const match = /^repo:([a-z]+):([^/]+)\/(.+)$/.exec(value)
  if (!match || !REPO_TYPES.includes(match[1] as RepoType)) throw badRequest('Pick what the publisher may publish to')
  return { kind: 'repo', type: match[1] as RepoType, namespace: match[2]!, name: match[3]! }
}

export async function addPublisherAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const issuer = issuerFromPreset(text(form, 'preset'), text(form, 'issuer'))
    await addPublisher(await sessionCaller(), targetOf(text(form, 'target')), { issuer, claims: claimsFromLines(text(form, 'claims')) }, clientIp(await headers()))
    revalidatePath('/settings/publishers')
    return { ok: 'Trusted publisher added.' }
  })
}

export async function removePublisherAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    await removePublisher(await sessionCaller(), text(form, 'publisherId'), clientIp(await headers()))
    revalidatePath('/settings/publishers')
    return { ok: 'Trusted publisher removed; its tokens no longer work.' }
  })
}
