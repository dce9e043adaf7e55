import { redirect } from 'next/navigation'
import { sessionCaller } from '@/lib/auth/caller'
import { orgsOfUser } from '@/lib/hub/orgs'
import { usernameOf } from '@/lib/hub/users'
import { ActionForm } from '@/components/ActionForm'
import { createRepoAction } from '@/app/actions/hub'
import { Field } from '@/components/Field'

export const metadata = { title: 'New repository' }

/** The licenses the Hub's new-repository form lists first, by their card identifiers. */
const LICENSES: [string, string][] = [
  ['apache-2.0', 'Apache 2.0'],
  ['mit', 'MIT'],
  ['bsd-3-clause', 'BSD 3-Clause'],
  ['gpl-3.0', 'GPL 3.0'],
  ['cc-by-4.0', 'CC BY 4.0'],
  ['cc-by-sa-4.0', 'CC BY-SA 4.0'],
  ['cc-by-nc-4.0', 'CC BY-NC 4.0'],
  ['cc0-1.0', 'CC0 1.0'],
  ['openrail', 'OpenRAIL'],
  ['openrail++', 'OpenRAIL++'],
  ['other', 'Other'],
]

export default async function NewRepoPage({ searchParams }: { searchParams: Promise<{ type?: string | string[]; namespace?: string | string[] }> }) {
  const caller = await sessionCaller()
  if (!caller) redirect('/login?next=/new')
  const query = await searchParams
  // One value each (a repeated parameter arrives as a list).
  const type = typeof query.type === 'string' ? query.type : 'model'
  const namespace = typeof query.namespace === 'string' ? query.namespace : undefined
  const me = await usernameOf(caller.userId)
  const orgs = (await orgsOfUser(caller.userId)).filter((o) => o.role !== 'read')
  return (
    <div className="mx-auto max-w-xl">
      <h1 className="mb-6 text-2xl font-semibold">Create a new repository</h1>
      <div className="card">
        <ActionForm action={createRepoAction} submit="Create repository">
          <div>
            <label className="label" htmlFor="type">Type</label>
            <select className="input" id="type" name="type" defaultValue={type}>
              <option value="model">Model</option>
              <option value="dataset">Dataset</option>
              <option value="space">Space</option>
            </select>
          </div>
          <div className="grid grid-cols-[auto_1fr] items-start gap-3">
            <div>
              <label className="label" htmlFor="namespace">Owner</label>
              <select className="input" id="namespace" name="namespace" defaultValue={namespace ?? me}>
                <option value={me}>{me}</option>
                {orgs.map((o) => <option key={o.id} value={o.name}>{o.name}</option>)}
              </select>
            </div>
            <Field name="name" label="Name" required maxLength={96} placeholder="my-model" />
          </div>
          <Field name="description" label="Description" maxLength={500} />
          <div>
            <label className="label" htmlFor="license">License</label>
            <select className="input" id="license" name="license" defaultValue="" aria-describedby="license-hint">
              <option value="">None yet</option>
              {LICENSES.map(([id, name]) => <option key={id} value={id}>{name}</option>)}
            </select>
            <p id="license-hint" className="mt-1 text-xs text-slate-500">Written into the model card (README.md) as its <code>license</code>, as on the Hub.</p>
          </div>
          <fieldset className="space-y-2 text-sm">
            <legend className="label">Visibility</legend>
            <label className="flex items-center gap-2"><input type="radio" name="visibility" value="public" defaultChecked /> Public: anyone can see it</label>
            <label className="flex items-center gap-2"><input type="radio" name="visibility" value="private" /> Private: only you (or members of the organization)</label>
          </fieldset>
          <label className="flex items-center gap-2 text-sm"><input type="checkbox" name="gated" /> Gated: users must request access to the files</label>
        </ActionForm>
      </div>
    </div>
  )
}
