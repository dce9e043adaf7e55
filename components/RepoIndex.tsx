import { listRepos } from '@/lib/hub/repos'
import { sessionCaller } from '@/lib/auth/caller'
import { RepoList } from '@/components/RepoList'
import type { RepoType } from '@/lib/hub/names'

export async function RepoIndex({ type, title, search }: { type: RepoType; title: string; search?: string }) {
  const repos = await listRepos(await sessionCaller(), { type, search: search?.slice(0, 100), limit: 200 })
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <form role="search" className="flex gap-2">
          <label htmlFor="search" className="sr-only">Filter by name</label>
          <input id="search" name="search" defaultValue={search} placeholder="Filter by name" className="input w-64" />
          <button className="btn-secondary" type="submit">Filter</button>
        </form>
      </div>
      <RepoList repos={repos} empty="No repositories match." />
    </div>
  )
}
