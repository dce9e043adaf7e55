import type { Metadata } from 'next'
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { sessionCaller } from '@/lib/auth/caller'
import { authorizedCollection } from '@/lib/hub/collections'
import { collectionDecision } from '@/lib/policy'
import { roleInOrg } from '@/lib/hub/orgs'
import { HubError } from '@/lib/http/errors'
import { RepoList } from '@/components/RepoList'
import { ActionForm } from '@/components/ActionForm'
import { DeleteCollection } from '@/components/collections/DeleteCollection'
import { RemoveItem } from '@/components/collections/RemoveItem'
import { addToCollectionAction, deleteCollectionAction, removeFromCollectionAction } from '@/app/actions/hub'
import { Field } from '@/components/Field'
import { NoticeArea } from '@/components/Notice'

/** Titled with the collection's title only for callers who may read it; others get its namespace. */
export async function generateMetadata({ params }: { params: Promise<{ namespace: string; slug: string }> }): Promise<Metadata> {
  const { namespace, slug } = await params
  const owner = decodeURIComponent(namespace)
  const collection = await authorizedCollection(await sessionCaller(), `${owner}/${decodeURIComponent(slug)}`, 'read').catch((e) => {
    if (e instanceof HubError) return null
    throw e
  })
  return { title: collection ? `${collection.title} · ${owner}` : `Collection · ${owner}` }
}

export default async function CollectionPage({ params }: { params: Promise<{ namespace: string; slug: string }> }) {
  const { namespace, slug } = await params
  const full = `${decodeURIComponent(namespace)}/${decodeURIComponent(slug)}`
  const caller = await sessionCaller()
  const collection = await authorizedCollection(caller, full, 'read').catch((e) => {
    if (e instanceof HubError) notFound()
    throw e
  })
  const visible = collection.items.map((item) => item.repo)
  const itemOf = new Map(collection.items.map((item) => [item.repo.id, item.id]))
  const orgRole = collection.ownerOrgId ? await roleInOrg(caller?.userId, collection.ownerOrgId) : null
  const mayWrite = caller !== null && collectionDecision(caller, 'write', collection, orgRole) === 'allow'
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-slate-500">Collection by <Link className="link" href={`/${collection.namespace}`}>{collection.namespace}</Link></p>
        <h1 className="text-2xl font-semibold">{collection.title} {collection.private && <span className="badge border-slate-300 align-middle text-slate-700">private</span>}</h1>
        {collection.description && <p className="mt-2 text-slate-600">{collection.description}</p>}
      </div>
      {/* A removed item's card goes: the message says so above the list and takes the focus. */}
      <NoticeArea className="">
        <RepoList
          repos={visible}
          empty="This collection is empty."
          action={mayWrite ? (repo) => <RemoveItem slug={collection.slug} itemId={itemOf.get(repo.id)!} name={`${repo.namespace}/${repo.name}`} action={removeFromCollectionAction} /> : undefined}
        />
      </NoticeArea>
      {mayWrite && (
        <section className="card max-w-xl" aria-labelledby="add-h">
          <h2 id="add-h" className="mb-3 font-semibold">Add a repository</h2>
          <ActionForm action={addToCollectionAction} submit="Add">
            <input type="hidden" name="slug" value={collection.slug} />
            <div className="grid grid-cols-[8rem_1fr] gap-3">
              <div>
                <label className="label" htmlFor="type">Type</label>
                <select className="input" id="type" name="type" defaultValue="model">
                  <option value="model">Model</option><option value="dataset">Dataset</option><option value="space">Space</option>
                </select>
              </div>
              <Field name="repo" label="Repository (namespace/name)" placeholder="alice/my-model" required />
            </div>
          </ActionForm>
          <div className="mt-6 border-t border-red-100 pt-4">
            <DeleteCollection slug={collection.slug} title={collection.title} action={deleteCollectionAction} />
          </div>
        </section>
      )}
    </div>
  )
}
