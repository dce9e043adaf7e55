import { redirect } from 'next/navigation'
import { sessionCaller } from '@/lib/auth/caller'
import { orgsOfUser } from '@/lib/hub/orgs'
import { mayCreateCollection } from '@/lib/hub/collections'
import { usernameOf } from '@/lib/hub/users'
import { ActionForm } from '@/components/ActionForm'
import { createCollectionAction } from '@/app/actions/hub'
import { Field } from '@/components/Field'

export const metadata = { title: 'New collection' }

export default async function NewCollectionPage({ searchParams }: { searchParams: Promise<{ namespace?: string }> }) {
  const caller = await sessionCaller()
  if (!caller) redirect('/login?next=/collections/new')
  const { namespace } = await searchParams
  const me = await usernameOf(caller.userId)
  const orgs = (await orgsOfUser(caller.userId)).filter((o) => mayCreateCollection(caller, { kind: 'org', id: o.id }, o.role))
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="mb-6 text-2xl font-semibold">New collection</h1>
      <div className="card">
        <ActionForm action={createCollectionAction} submit="Create collection">
          <div>
            <label className="label" htmlFor="namespace">Owner</label>
            <select className="input" id="namespace" name="namespace" defaultValue={namespace ?? me ?? ''}>
              {me && <option value={me}>{me}</option>}
              {orgs.map((o) => <option key={o.id} value={o.name}>{o.name}</option>)}
            </select>
          </div>
          <Field name="title" label="Title" required maxLength={60} />
          <Field name="description" label="Description" maxLength={150} />
          <fieldset className="flex gap-4 text-sm">
            <legend className="label">Visibility</legend>
            <label className="flex items-center gap-2"><input type="radio" name="visibility" value="public" defaultChecked /> Public</label>
            <label className="flex items-center gap-2"><input type="radio" name="visibility" value="private" /> Private</label>
          </fieldset>
        </ActionForm>
      </div>
    </div>
  )
}
