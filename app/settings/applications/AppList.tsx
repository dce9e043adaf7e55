// The apps of a user or an organization, with the form that creates a new one.
import Link from 'next/link'
import { SuccessNotice } from '@/components/Notice'
import { ActionForm } from '@/components/ActionForm'
import { AppFields } from '@/app/settings/applications/AppFields'
import { createAppAction } from '@/app/settings/applications/actions'
import type { listApps } from '@/lib/oauth/clients/apps'

export function AppList({ apps, basePath, org, notice }: { apps: Awaited<ReturnType<typeof listApps>>; basePath: string; org?: string; notice?: string | null }) {
  return (
    <>
      {notice && <SuccessNotice>{notice}</SuccessNotice>}
      <section aria-labelledby="apps-h">
        <h2 id="apps-h" className="mb-3 font-semibold">{org ? `Apps of ${org}` : 'Your apps'}</h2>
        {apps.length === 0 ? (
          <p className="text-sm text-slate-500">No OAuth apps yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {apps.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm" data-testid="app-row">
                <div className="min-w-0">
                  <p className="font-medium">
                    {a.name}{' '}
                    <span className="badge ml-1 border-slate-300 text-slate-600">{a.isPublic ? 'public' : 'confidential'}</span>
                  </p>
                  <p className="text-xs text-slate-500">
                    Client ID <code data-testid="client-id">{a.clientId}</code> · {a.redirectUriList.length} redirect URI{a.redirectUriList.length === 1 ? '' : 's'}
                  </p>
                </div>
                <Link className="btn-secondary" href={`${basePath}/${a.id}`}>Manage</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="new-app-h">
        <h2 id="new-app-h" className="mb-3 font-semibold">New OAuth app</h2>
        <ActionForm action={createAppAction} submit="Create app" secretLabel="Client secret">
          {org && <input type="hidden" name="org" value={org} />}
          <AppFields idPrefix="new" />
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="label">Type</legend>
            <label className="flex items-center gap-2"><input type="radio" name="type" value="confidential" defaultChecked /> Confidential (has a client secret: server-side apps)</label>
            <label className="flex items-center gap-2"><input type="radio" name="type" value="public" /> Public (no secret, PKCE: browser and native apps)</label>
          </fieldset>
        </ActionForm>
      </section>
    </>
  )
}
