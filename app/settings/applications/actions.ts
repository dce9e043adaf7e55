'use server'
// Forms of the OAuth app pages (users' apps in settings, organizations' apps for their admins).
// Server actions: Next refuses cross-origin posts (CSRF).
import { revalidatePath } from 'next/cache'
import { redirect } from 'next/navigation'
import { sessionCaller } from '@/lib/auth/caller'
import { authorizedOrg } from '@/lib/hub/orgs'
import { unauthorized } from '@/lib/http/errors'
import { createApp, deleteApp, deleteSecret, manageableApp, rotateSecret, updateApp, type AppOwner } from '@/lib/oauth/clients/apps'
import { answerForm, text, type FormState } from '@/lib/http/form'

function appFields(form: FormData) {
  return {
    name: text(form, 'name'),
    description: text(form, 'description'),
    homepage: text(form, 'homepage'),
    logoUrl: text(form, 'logoUrl'),
    redirectUris: text(form, 'redirectUris').split(/\s+/).filter(Boolean),
    scopes: form.getAll('scopes').filter((s): s is string => typeof s === 'string'),
  }
}

/** Where an app's pages live: under the user's settings or under its organization. */
function appsPath(org: string | null): string {
  return org ? `/organizations/${org}/apps` : '/settings/applications'
}

async function ownerFor(form: FormData): Promise<AppOwner> {
  const caller = await sessionCaller()
  if (!caller) throw unauthorized('Sign in first')
  const orgName = text(form, 'org')
  if (!orgName) return { kind: 'user', userId: caller.userId }
  return { kind: 'org', orgId: (await authorizedOrg(caller, orgName)).id }
}

async function managed(form: FormData) {
  return manageableApp(await sessionCaller(), text(form, 'appId'))
}

export async function createAppAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const { app, secret } = await createApp(await ownerFor(form), appFields(form), text(form, 'type') !== 'public')
    revalidatePath(appsPath(text(form, 'org') || null))
    return { ok: `App "${app.name}" created. Client ID: ${app.clientId}`, ...(secret ? { secret } : {}) }
  })
}

export async function updateAppAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const app = await managed(form)
    await updateApp(app.id, appFields(form))
    revalidatePath(`${appsPath(text(form, 'org') || null)}/${app.id}`)
    return { ok: 'App saved.' }
  })
}

export async function rotateSecretAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const app = await managed(form)
    const secret = await rotateSecret(app.id)
    revalidatePath(`${appsPath(text(form, 'org') || null)}/${app.id}`)
    return { ok: 'New client secret created; the old one no longer works.', secret }
  })
}

export async function deleteSecretAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const app = await managed(form)
    await deleteSecret(app.id)
    revalidatePath(`${appsPath(text(form, 'org') || null)}/${app.id}`)
    return { ok: 'Client secret deleted: the app is now public and must use PKCE.' }
  })
}

export async function deleteAppAction(_: FormState, form: FormData): Promise<FormState> {
  return answerForm(async () => {
    const app = await managed(form)
    if (text(form, 'confirm') !== app.name) return { error: `Type ${app.name} to confirm.` }
    await deleteApp(app.id)
    redirect(`${appsPath(text(form, 'org') || null)}?deleted=${encodeURIComponent(app.clientId)}`)
  })
}
