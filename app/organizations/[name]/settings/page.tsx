import type { Metadata } from 'next'
import Link from 'next/link'
import { orNotFound } from '@/lib/http/page-errors'
import { signedInCaller } from '@/lib/auth/caller'
import { orgMembersView, PLANS } from '@/lib/hub/orgs'
import { ORG_ROLES } from '@/lib/policy'
import { ActionForm } from '@/components/ActionForm'
import { cancelInvitationAction, changeMemberAction, inviteMemberAction, setPlanAction } from '@/app/actions/hub'
import { invitationsOfOrg } from '@/lib/hub/invitations'
import { Field } from '@/components/Field'

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }): Promise<Metadata> {
  return { title: `${decodeURIComponent((await params).name)} settings` }
}

export default async function OrgSettingsPage({ params }: { params: Promise<{ name: string }> }) {
  const name = decodeURIComponent((await params).name)
  const caller = await signedInCaller(`/organizations/${name}/settings`)
  const org = await orNotFound(orgMembersView(caller, name))
  const invitations = await invitationsOfOrg(org.id)
  return (
    <div className="space-y-8">
      <div>
        <p className="text-sm text-slate-500">Organization settings</p>
        <h1 className="text-2xl font-semibold"><Link className="hover:underline" href={`/${org.name}`}>{org.name}</Link></h1>
        <p className="text-sm"><Link className="link" href={`/organizations/${org.name}/apps`}>OAuth apps</Link></p>
        <p className="text-sm"><Link className="link" href={`/organizations/${org.name}/audit`}>Audit log</Link></p>
      </div>

      <section className="card space-y-4" aria-labelledby="members-h">
        <h2 id="members-h" className="font-semibold">Members</h2>
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase text-slate-500"><tr><th className="py-2">User</th><th>Role</th></tr></thead>
          <tbody className="divide-y divide-slate-100">
            {org.members.map((m) => (
              <tr key={m.id}>
                <td className="py-2"><Link className="link" href={`/${m.user.username}`}>{m.user.username}</Link></td>
                <td className="py-2">
                  <ActionForm action={changeMemberAction} submit="Apply" className="space-y-2" row="flex items-center gap-2" submitClassName="btn-secondary">
                    <input type="hidden" name="org" value={org.name} />
                    <input type="hidden" name="userId" value={m.userId} />
                    <label className="sr-only" htmlFor={`role-${m.id}`}>Role of {m.user.username}</label>
                    <select className="input w-40" id={`role-${m.id}`} name="role" defaultValue={m.role}>
                      {ORG_ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                      <option value="remove">remove from organization</option>
                    </select>
                  </ActionForm>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="border-t border-slate-100 pt-4">
          <h3 className="mb-2 text-sm font-semibold">Invite a member</h3>
          {/* The row holds the fields and the button; the answer goes under it (ActionForm row). */}
          <ActionForm action={inviteMemberAction} submit="Invite" className="space-y-3" row="flex flex-wrap items-start gap-3" submitClassName="btn-primary mt-6">
            <input type="hidden" name="org" value={org.name} />
            <Field name="login" label="Username" className="input w-64" required />
            <div>
              <label className="label" htmlFor="role">Role</label>
              <select className="input w-40" id="role" name="role" defaultValue="read">
                {ORG_ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
              </select>
            </div>
          </ActionForm>
          <p className="mt-2 text-xs text-slate-500">They become a member once they accept the invitation, in their Settings → Organizations. Inviting someone who is a member already changes their role, as Apply in the list above does.</p>
          <p className="mt-1 text-xs text-slate-500">read: see private repos · contributor: also create repos and write to their own · write: write to every repo · admin: manage members, plan and apps.</p>
        </div>
        <div className="border-t border-slate-100 pt-4">
          <h3 className="mb-2 text-sm font-semibold">Invitations waiting for an answer</h3>
          {invitations.length === 0 ? (
            <p className="text-sm text-slate-500">None.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm" aria-label="Invitations waiting for an answer">
              {invitations.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
                  <span>
                    <Link className="link" href={`/${i.user.username}`}>{i.user.username}</Link>{' '}
                    <span className="text-slate-500">as {i.role} · invited {i.createdAt.toISOString().slice(0, 10)}</span>
                  </span>
                  <ActionForm action={cancelInvitationAction} submit="Cancel invitation" submitClassName="btn-secondary">
                    <input type="hidden" name="org" value={org.name} />
                    <input type="hidden" name="invitationId" value={i.id} />
                  </ActionForm>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      <section className="card" aria-labelledby="billing-h">
        <h2 id="billing-h" className="mb-3 font-semibold">Plan and billing</h2>
        <ActionForm action={setPlanAction} submit="Save">
          <input type="hidden" name="org" value={org.name} />
          <div>
            <label className="label" htmlFor="plan">Plan</label>
            <select className="input w-48" id="plan" name="plan" defaultValue={org.plan}>
              {PLANS.map((p) => <option key={p} value={p}>{p}</option>)}
            </select>
          </div>
        </ActionForm>
        <p data-testid="payment-method" className="mt-4 text-sm text-slate-600">
          Payment method: <strong>{org.canPay ? 'on file' : 'none on file'}</strong>. Recorded by the hub operator; contact them to change it.
        </p>
      </section>
    </div>
  )
}
