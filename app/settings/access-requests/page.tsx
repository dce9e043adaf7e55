// Every pending request for access to a gated repository the user manages, in one place.
import Link from 'next/link'
import { signedInCaller } from '@/lib/auth/caller'
import { pendingAccessRequests } from '@/lib/hub/repos'
import { repoPath, type RepoType } from '@/lib/hub/names'
import { AccessDecision } from '@/components/AccessDecision'
import { decideAccessAction } from '@/app/actions/hub'

export const metadata = { title: 'Access requests' }

export default async function AccessRequestsPage() {
  const caller = await signedInCaller('/settings/access-requests')
  const requests = await pendingAccessRequests(caller)
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold">Access requests</h1>
      <p className="text-sm text-slate-600">People waiting for access to the files of gated repositories that you, or an organization you administer, own.</p>
      {requests.length === 0 ? (
        <p className="card text-sm text-slate-500">No pending requests.</p>
      ) : (
        <ul className="card divide-y divide-slate-100 py-1" aria-label="Pending access requests">
          {requests.map(({ repo, userId, username, requestedAt }) => {
            const type = repo.type as RepoType
            const path = repoPath(type, repo.namespace, repo.name)
            return (
              <li key={`${repo.id}:${userId}`} data-testid="access-request" className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                <span className="min-w-0">
                  <Link className="font-medium hover:underline" href={`/${username}`}>{username}</Link> asks for{' '}
                  <Link className="link break-all" href={path}>{repo.namespace}/{repo.name}</Link>
                  <span className="block text-xs text-slate-500">{type} · requested {requestedAt.toISOString().slice(0, 10)}</span>
                </span>
                <AccessDecision action={decideAccessAction} repo={repo} userId={userId} />
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
