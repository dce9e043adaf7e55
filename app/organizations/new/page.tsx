import { redirect } from 'next/navigation'
import { sessionCaller } from '@/lib/auth/caller'
import { ActionForm } from '@/components/ActionForm'
import { createOrgAction } from '@/app/actions/hub'
import { Field } from '@/components/Field'

export const metadata = { title: 'New organization' }

export default async function NewOrgPage() {
  if (!(await sessionCaller())) redirect('/login?next=/organizations/new')
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="mb-6 text-2xl font-semibold">Create an organization</h1>
      <div className="card">
        <ActionForm action={createOrgAction} submit="Create organization">
          <Field name="name" label="Organization name" required maxLength={42} placeholder="my-lab" hint="Its page will be at /name. You become its first admin." />
          <Field name="fullname" label="Display name" maxLength={100} />
        </ActionForm>
      </div>
    </div>
  )
}
