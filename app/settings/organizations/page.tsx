import Link from 'next/link'
import { signedInCaller } from '@/lib/auth/caller'
import { orgsOfUser } from '@/lib/hub/orgs'
import { namespaceName } from '@/lib/hub/names'
import { SettingsPage } from '@/components/SettingsPage'
import { ActionForm } from '@/components/ActionForm'
import { answerInvitationAction, leaveOrgAction } from '@/app/actions/hub'
import { invitationsOfUser } from '@/lib/hub/invitations'

export const metadata = { title: 'Organizations' }

export default async function OrganizationsSettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const caller = await signedInCaller('/settings/organizations')
  const orgs = await orgsOfUser(caller.userId)
  const invitations = await invitationsOfUser(caller.userId)
  const query = await searchParams
  // After an answer or leaving (answerInvitationAction, leaveOrgAction): said only while it is true.
  const named = (key: string) => {
    const value = query[key]
    return typeof value === 'string' && namespaceName.safeParse(value).success ? value : null
  }
  const isMember = (name: string | null) => orgs.some((o) => o.name === name)
  const isInvited = (name: string | null) => invitations.some((i) => i.org.name === name)
  const notice =
    (isMember(named('joined')) && `You are now a member of ${named('joined')}.`) ||
    (named('declined') && !isMember(named('declined')) && !isInvited(named('declined')) && `You declined the invitation from ${named('declined')}.`) ||
    (named('left') && !isMember(named('left')) && `You have left ${named('left')}.`) ||
    null
  return (
    <SettingsPage title="Organizations" width="max-w-2xl" action={<Link className="btn-primary" href="/organizations/new">New organization</Link>}>
      {notice && (
        <p role="status" className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {notice}
        </p>
      )}
      {invitations.length > 0 && (
        <section aria-labelledby="invitations-h" className="mb-6">
          <h2 id="invitations-h" className="mb-2 text-sm font-semibold">Invitations</h2>
          <ul className="divide-y divide-slate-200 rounded-lg border border-amber-200 bg-amber-50/40">
            {invitations.map((i) => (
              <li key={i.id} className="flex flex-wrap items-start justify-between gap-3 px-4 py-3 text-sm">
                <span className="pt-1.5">
                  <Link className="link font-medium" href={`/${i.org.name}`}>{i.org.name}</Link>{' '}
                  <span className="text-slate-600">invites you as {i.role}{i.invitedBy ? ` (from ${i.invitedBy})` : ''}</span>
                </span>
                <div className="flex flex-wrap items-start gap-2">
                  <ActionForm action={answerInvitationAction} submit={`Join ${i.org.name}`} className="" submitClassName="btn-primary">
                    <input type="hidden" name="org" value={i.org.name} />
                    <input type="hidden" name="answer" value="accept" />
                  </ActionForm>
                  <ActionForm action={answerInvitationAction} submit="Decline" className="" submitClassName="btn-secondary">
                    <input type="hidden" name="org" value={i.org.name} />
                    <input type="hidden" name="answer" value="decline" />
                  </ActionForm>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
      {orgs.length === 0 ? (
        <p className="text-sm text-slate-500">You are not a member of any organization.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {orgs.map((o) => (
            <li key={o.id} className="flex flex-wrap items-start justify-between gap-3 px-4 py-3 text-sm">
              <span className="pt-1.5"><Link className="link font-medium" href={`/${o.name}`}>{o.name}</Link> <span className="text-slate-500">· {o.role}</span></span>
              <div className="flex flex-wrap items-start gap-2">
                {o.role === 'admin' && <Link className="btn-secondary" href={`/organizations/${o.name}/settings`}>Settings</Link>}
                <details className="group">
                  <summary className="btn-secondary cursor-pointer list-none">Leave…</summary>
                  <ActionForm action={leaveOrgAction} submit={`Leave ${o.name}`} className="mt-2 w-64 space-y-2" submitClassName="btn-danger">
                    <input type="hidden" name="org" value={o.name} />
                    <label className="flex items-start gap-2 text-slate-700">
                      <input type="checkbox" name="confirm" value="yes" className="mt-0.5" />
                      <span>Yes, leave {o.name}. Only an admin of it can add me back.</span>
                    </label>
                  </ActionForm>
                </details>
              </div>
            </li>
          ))}
        </ul>
      )}
    </SettingsPage>
  )
}
