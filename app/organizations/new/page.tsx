import { redirect } from 'next/navigation'
import { sessionCaller } from '@/lib/auth/caller'
import { ActionForm } from '@/components/ActionForm'
import { createOrgAction } from '@/app/actions/hub'

export const metadata = { title: 'New organization' }

export default async function NewOrgPage() {
  if (!(await sessionCaller())) redirect('/login?next=/organizations/new')
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="mb-6 text-2xl font-semibold">Create an organization</h1>
      <div className="card">
        <ActionForm action={createOrgAction} submit="Create organization">
          <div>
            <label className="label" htmlFor="name">Organization name</label>
            <input className="input" id="name" name="name" required maxLength={42} placeholder="my-lab" />
            <p className="mt-1 text-xs text-slate-500">Its page will be at /name. You become its first admin.</p>
          </div>
          <div>
            <label className="label" htmlFor="fullname">Display name</label>
            <input className="input" id="fullname" name="fullname" maxLength={100} />
          </div>
        </ActionForm>
      </div>
    </div>
  )
}
