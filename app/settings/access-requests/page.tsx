// Every pending request for access to a gated repository the user manages, in one place; and the
// user's own requests to other people's gated repositories, with their answers.
import Link from 'next/link'
import { signedInCaller } from '@/lib/auth/caller'
import { myAccessRequests, pendingAccessRequests } from '@/lib/hub/repos'
import { repoPath, type RepoType } from '@/lib/hub/names'
import { AccessDecision } from '@/components/AccessDecision'
import { decideAccessAction } from '@/app/actions/hub'

export const metadata = { title: 'Access requests' }

export default async function AccessRequestsPage() {
  const caller = await signedInCaller('/settings/access-requests')
  const [requests, mine] = await Promise.all([pendingAccessRequests(caller), myAccessRequests(caller)])
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold">Access requests</h1>
      <h2 className="text-lg font-semibold">To your repositories</h2>
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
      <section aria-labelledby="mine-h" className="space-y-3">
        <h2 id="mine-h" className="text-lg font-semibold">Your requests</h2>
        {mine.length === 0 ? (
          <p className="card text-sm text-slate-500">You have not asked for access to any gated repository.</p>
        ) : (
          <ul className="card divide-y divide-slate-100 py-1" aria-label="Your access requests">
            {mine.map(({ repo, status, requestedAt, answeredAt }) => (
              <li key={repo.id} data-testid="my-access-request" className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                <span className="min-w-0">
                  <Link className="link break-all" href={repoPath(repo.type as RepoType, repo.namespace, repo.name)}>{repo.namespace}/{repo.name}</Link>
                  <span className="block text-xs text-slate-500">
                    {repo.type} · requested {requestedAt.toISOString().slice(0, 10)}{answeredAt ? ` · answered ${answeredAt.toISOString().slice(0, 10)}` : ''}
                  </span>
                </span>
                {status === 'pending' && <span className="badge border-amber-300 bg-amber-50 text-amber-800">pending review</span>}
                {status === 'accepted' && <span className="badge border-green-300 bg-green-50 text-green-800">access granted</span>}
                {status === 'rejected' && <span className="badge border-red-300 bg-red-50 text-red-800">declined</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
