// The profile of a user or an organization: repositories, collections, and (orgs) members.
import type { Metadata } from 'next'
import { cache } from 'react'
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { sessionCaller } from '@/lib/auth/caller'
import { SuccessNotice } from '@/components/Notice'
import { namespaceProfile } from '@/lib/hub/namespaces'
import { deletedNotice, listRepos } from '@/lib/hub/repos'
import { listCollections, mayCreateCollection } from '@/lib/hub/collections'
import { roleInOrg } from '@/lib/hub/orgs'
import { avatarUrl } from '@/lib/hub/identity'
import { RepoList } from '@/components/RepoList'
import { createRepoDecision } from '@/lib/policy'

type Params = { params: Promise<{ namespace: string }>; searchParams?: Promise<Record<string, string | string[] | undefined>> }

// Read once per request for both the title and the page.
const profileOf = cache(namespaceProfile)

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const name = decodeURIComponent((await params).namespace)
  // The 404 page's tab says so, not the name that was typed.
  return { title: (await profileOf(name)) ? name : 'Not found' }
}

export default async function ProfilePage({ params, searchParams }: Params) {
  const name = decodeURIComponent((await params).namespace)
  const profile = await profileOf(name)
  if (!profile) notFound()
  const { owner, user, org } = profile
  const caller = await sessionCaller()
  const notice = await deletedNotice(owner, (await searchParams)?.deleted, caller?.userId ?? null)
  const [repos, collections] = await Promise.all([listRepos(caller, { namespace: owner.name, limit: 200 }), listCollections(caller, owner.name)])
  const myRole = org ? await roleInOrg(caller?.userId, org.id) : null
  // The owner, and an organization's members who may write, create repositories here (as /new offers).
  const mayCreateRepo = createRepoDecision(caller, owner.kind === 'user' ? { kind: 'user', userId: owner.id } : { kind: 'org', orgId: owner.id, role: myRole }) === 'allow'
  const fullname = user?.fullname ?? org?.fullname ?? owner.name
  return (
    <div className="grid gap-8 md:grid-cols-[16rem_1fr]">
      <aside className="space-y-4">
        {/* A plain img: avatars may be on any host the user chose. */}
        <img src={avatarUrl(owner.name, user?.avatarUrl ?? org?.avatarUrl ?? null)} alt="" width={96} height={96} className="h-24 w-24 rounded-xl border border-slate-200 bg-white" />
        <div>
          <h1 className="text-xl font-semibold">{fullname}</h1>
          <p className="text-slate-500">{owner.name}</p>
          {org && <p className="mt-2"><span className="badge border-brand-100 bg-brand-50 capitalize text-brand-700">{org.plan} plan</span></p>}
          {user?.website && <p className="mt-2 text-sm"><a className="link" href={user.website} rel="nofollow noopener">{user.website}</a></p>}
        </div>
        {myRole === 'admin' && <Link href={`/organizations/${owner.name}/settings`} className="btn-secondary">Organization settings</Link>}
        {org && (
          <section aria-labelledby="members-h">
            <h2 id="members-h" className="mb-2 text-sm font-semibold">Members</h2>
            <ul className="space-y-1 text-sm">
              {org.members.map((m) => (
                <li key={m.id} className="flex justify-between gap-2">
                  <Link className="link" href={`/${m.user.username}`}>{m.user.username}</Link>
                  <span className="text-slate-500">{m.role}</span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </aside>
      <div className="space-y-8">
        {notice && <SuccessNotice>{notice}</SuccessNotice>}
        <section aria-labelledby="repos-h">
          <div className="mb-3 flex items-baseline justify-between gap-3">
            <h2 id="repos-h" className="text-lg font-semibold">Repositories <span className="text-slate-600">{repos.length}</span></h2>
            {mayCreateRepo && <Link className="link text-sm" href={`/new?namespace=${encodeURIComponent(owner.name)}`}>New repository</Link>}
          </div>
          <RepoList repos={repos} empty="No repositories yet." />
        </section>
        <section aria-labelledby="collections-h">
          <div className="mb-3 flex items-baseline justify-between">
            <h2 id="collections-h" className="text-lg font-semibold">Collections <span className="text-slate-600">{collections.length}</span></h2>
            {mayCreateCollection(caller, owner, myRole) && <Link className="link text-sm" href={`/collections/new?namespace=${owner.name}`}>New collection</Link>}
          </div>
          {collections.length === 0 ? (
            <p className="text-sm text-slate-500">No collections yet.</p>
          ) : (
            <ul className="grid gap-3 sm:grid-cols-2">
              {collections.map((c) => (
                <li key={c.id}>
                  <Link href={`/collections/${c.slug}`} className="card block p-4 hover:border-brand-500">
                    <span className="font-medium">{c.title}</span>
                    {c.private && <span className="badge ml-2 border-slate-300 text-slate-700">private</span>}
                    {c.description && <span className="mt-1 block text-xs text-slate-500">{c.description}</span>}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  )
}
