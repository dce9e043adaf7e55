import Link from 'next/link'
import { signedInCaller } from '@/lib/auth/caller'
import { orgsOfUser } from '@/lib/hub/orgs'
import { SettingsPage } from '@/components/SettingsPage'

export const metadata = { title: 'Organizations' }

export default async function OrganizationsSettingsPage() {
  const caller = await signedInCaller('/settings/organizations')
  const orgs = await orgsOfUser(caller.userId)
  return (
    <SettingsPage title="Organizations" width="max-w-2xl" action={<Link className="btn-primary" href="/organizations/new">New organization</Link>}>
      {orgs.length === 0 ? (
        <p className="text-sm text-slate-500">You are not a member of any organization.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {orgs.map((o) => (
            <li key={o.id} className="flex items-center justify-between px-4 py-3 text-sm">
              <span><Link className="link font-medium" href={`/${o.name}`}>{o.name}</Link> <span className="text-slate-500">· {o.role}</span></span>
              {o.role === 'admin' && <Link className="btn-secondary" href={`/organizations/${o.name}/settings`}>Settings</Link>}
            </li>
          ))}
        </ul>
      )}
    </SettingsPage>
  )
}
