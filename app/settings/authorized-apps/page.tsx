import { signedInCaller } from '@/lib/auth/caller'
import { listConsents } from '@/lib/oauth/consent'
import { describeScope } from '@/lib/oauth/scopes'
import { ConfirmAction } from '@/components/ConfirmAction'
import { revokeAppAction } from '@/app/settings/authorized-apps/actions'
import { SettingsPage } from '@/components/SettingsPage'
import { NoticeArea } from '@/components/Notice'

export const metadata = { title: 'Authorized apps' }

export default async function AuthorizedAppsPage() {
  const caller = await signedInCaller('/settings/authorized-apps')
  const consents = await listConsents(caller.userId)
  return (
    <SettingsPage title="Authorized apps" width="max-w-3xl">
      <p className="text-sm text-slate-600">Apps you let sign you in and act for you. Revoking one signs you out of it: its tokens stop working, and it has to ask again.</p>
      {/* A revoked app's card goes: the message says so here and takes the focus. */}
      <NoticeArea className="">
        {consents.length === 0 ? (
          <p className="text-sm text-slate-500">You have not authorized any app.</p>
        ) : (
          <ul className="space-y-3">
            {consents.map((c) => (
              <li key={c.clientId} className="card space-y-3" data-testid="authorized-app">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <p className="font-medium">{c.app?.name ?? c.clientId}</p>
                    <p className="text-xs text-slate-500">
                      {c.app?.homepage ? `${c.app.homepage} · ` : ''}approved {c.updatedAt.toISOString().slice(0, 10)}
                      {c.orgs.length > 0 && ` · organizations: ${c.orgs.map((o) => o.name).join(', ')}`}
                    </p>
                  </div>
                  <ConfirmAction action={revokeAppAction} fields={{ clientId: c.clientId }} start="Revoke" startName={`Revoke ${c.app?.name ?? c.clientId}`} question={<>Revoke <strong className="break-words">{c.app?.name ?? c.clientId}</strong>? Every token it got from you stops working at once; it must ask again to sign you in.</>} confirm="Yes, revoke" pendingLabel="Revoking…" success={`Access revoked for ${c.app?.name ?? c.clientId}: its tokens no longer work.`} />
                </div>
                <ul className="grid gap-1 text-sm text-slate-700 sm:grid-cols-2">
                  {c.scopes.map((s) => (
                    <li key={s} title={s}>· {describeScope(s)}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </NoticeArea>
    </SettingsPage>
  )
}
