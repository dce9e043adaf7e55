import { cardText, listRepos } from '@/lib/hub/repos'
import { sessionCaller } from '@/lib/auth/caller'
import { defaultBranchCards } from '@/lib/hub/files'
import { RepoList, taskName } from '@/components/RepoList'
import Link from 'next/link'
import { REPO_TYPE_PLURAL, type RepoType } from '@/lib/hub/names'

/**
 * A browse page: the repos of a type the caller may see, filtered by name and, for models, by the
 * task their model cards name (as the Hub's task filter).
 */
export async function RepoIndex({ type, title, search, task }: { type: RepoType; title: string; search?: string; task?: string }) {
  const listed = await listRepos(await sessionCaller(), { type, search: search?.slice(0, 100), limit: 200 })
  const cards = await defaultBranchCards(listed.map((r) => r.id))
  const taskOf = (id: string) => cardText(cards.get(id)?.pipeline_tag)
  // The chosen task stays on offer even when the name filter leaves no repo of it.
  const tasks = type === 'model' ? [...new Set([...listed.map((r) => taskOf(r.id)).filter((t): t is string => t !== null), ...(task ? [task] : [])])].sort() : []
  const repos = task ? listed.filter((r) => taskOf(r.id) === task) : listed
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <form role="search" className="flex flex-wrap gap-2">
          <label htmlFor="search" className="sr-only">Filter by name</label>
          <input id="search" name="search" defaultValue={search} placeholder="Filter by name" className="input w-64 max-w-full" />
          {tasks.length > 0 && (
            <>
              <label htmlFor="task" className="sr-only">Task</label>
              <select id="task" name="task" defaultValue={task ?? ''} className="input w-auto">
                <option value="">All tasks</option>
                {tasks.map((t) => (
                  <option key={t} value={t}>{taskName(t)}</option>
                ))}
              </select>
            </>
          )}
          <button className="btn-secondary" type="submit">Filter</button>
          {(search || task) && <Link className="btn-secondary" href={`/${REPO_TYPE_PLURAL[type]}`}>Clear</Link>}
        </form>
      </div>
      <RepoList repos={repos} cards={cards} empty="No repositories match." />
    </div>
  )
}
