// Managing one OAuth app: its settings, its client secret (rotate, or delete to make it public), deletion.
import Link from 'next/link'
import { editableFields } from '@/lib/oauth/clients/apps'
import { ActionForm } from '@/components/ActionForm'
import { AppFields } from '@/app/settings/applications/AppFields'
import { deleteAppAction, deleteSecretAction, rotateSecretAction, updateAppAction } from '@/app/settings/applications/actions'
import type { manageableApp } from '@/lib/oauth/clients/apps'

export function AppEditor({ app, backHref, org }: { app: Awaited<ReturnType<typeof manageableApp>>; backHref: string; org?: string }) {
  const hidden = (
    <>
      <input type="hidden" name="appId" value={app.id} />
      {org && <input type="hidden" name="org" value={org} />}
    </>
  )
  const isPublic = app.secretHash === null
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <Link className="link text-sm" href={backHref}>← All apps</Link>
        <h1 className="text-2xl font-semibold">{app.name}</h1>
        <p className="text-sm text-slate-600">Client ID <code data-testid="client-id" className="select-all">{app.clientId}</code> · {isPublic ? 'public app' : 'confidential app'}</p>
      </div>
      <section className="card" aria-labelledby="edit-h">
        <h2 id="edit-h" className="mb-3 font-semibold">Settings</h2>
        <ActionForm action={updateAppAction} submit="Save app">
          {hidden}
          <AppFields idPrefix="edit" values={editableFields(app)} />
        </ActionForm>
      </section>
      <section className="card space-y-3" aria-labelledby="secret-h">
        <h2 id="secret-h" className="font-semibold">Client secret</h2>
        <p className="text-sm text-slate-600">
          {isPublic
            ? 'This app has no secret: it is public and signs users in with PKCE. Creating a secret makes it confidential.'
            : 'Secrets are shown once, when created. A new secret replaces the old one at once. Deleting the secret makes the app public.'}
        </p>
        <div className="flex flex-wrap gap-3">
          <ActionForm action={rotateSecretAction} submit={isPublic ? 'Create secret' : 'Rotate secret'} submitClassName="btn-secondary" secretLabel="Client secret">
            {hidden}
          </ActionForm>
          {!isPublic && (
            <ActionForm action={deleteSecretAction} submit="Delete secret" submitClassName="btn-danger">
              {hidden}
            </ActionForm>
          )}
        </div>
      </section>
      <section className="card" aria-labelledby="delete-h">
        <h2 id="delete-h" className="mb-2 font-semibold text-red-800">Delete app</h2>
        <p className="mb-3 text-sm text-slate-600">Signs every user out of the app: its tokens and approvals are revoked.</p>
        <ActionForm action={deleteAppAction} submit="Delete app" submitClassName="btn-danger" className="flex flex-wrap items-end gap-3">
          {hidden}
          <div>
            <label className="label" htmlFor="confirm">Type <strong>{app.name}</strong> to confirm</label>
            <input className="input w-64" id="confirm" name="confirm" autoComplete="off" />
          </div>
        </ActionForm>
      </section>
    </div>
  )
}
