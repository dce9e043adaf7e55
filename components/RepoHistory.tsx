// The commit history of a branch, each commit with the paths it changed; with `path`, only the
// commits that changed that file (or a file in that folder), as /commits/{rev}/{path} asks. A
// commit opens (a disclosure with a visible ▸/▾ marker) to its message and changed files, each
// added or updated file linking to its page at that commit; the short id links to the commit's own URL.
import Link from 'next/link'
import { listCommits, MAX_COMMITS_PAGE, type RepoRef } from '@/lib/hub/files'
import type { Caller } from '@/lib/policy'
import { encodedFilePath, repoPath } from '@/lib/hub/names'
import { BreakableName } from '@/components/repo/BreakableName'

const COMMIT_ID = /^[0-9a-f]{7,64}$/

const CHANGE_LABEL = { add: 'added', update: 'updated', delete: 'deleted' } as Record<string, string>

const SHOWN = 50

export async function RepoHistory({ caller, repo, revision, path }: { caller: Caller; repo: RepoRef; revision: string; path?: string }) {
  // A path's history is read from the newest MAX_COMMITS_PAGE commits (what one request may read).
  const read = await listCommits(caller, repo, { revision, limit: path ? MAX_COMMITS_PAGE : SHOWN, page: 0, url: new URL('http://hub.invalid/') })
  const touches = (changed: string) => changed === path || changed.startsWith(`${path}/`)
  const matching = path ? read.commits.filter((c) => c.changes.some((ch) => touches(ch.path))) : read.commits
  const commits = matching.slice(0, SHOWN)
  const base = repoPath(repo.type, repo.namespace, repo.name)
  const count = path ? matching.length : read.total
  const scope = path ? (
    <>
      {' '}that changed <span className="font-mono">{path}</span>
      {read.total > read.commits.length ? ` (among the newest ${read.commits.length} of ${read.total})` : ''} ·{' '}
      <Link className="text-indigo-700 hover:underline" href={`${base}?${new URLSearchParams({ tab: 'history', rev: revision })}`}>all commits</Link>
    </>
  ) : null
  if (commits.length === 0) return <p className="text-sm text-slate-600">{path ? <>No commit on {revision}{scope}.</> : 'No commits yet.'}</p>
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-500">{count} commit{count === 1 ? '' : 's'} on {revision}{scope}{count > commits.length ? ` (newest ${commits.length} shown)` : ''}</p>
      <ol className="divide-y divide-slate-100" data-testid="history">
        {commits.map((c, i) => {
          const short = c.id.slice(0, 8)
          // A history opened at a commit id (the commit's own URL) starts with that commit: it is open.
          const opened = i === 0 && COMMIT_ID.test(revision) && c.id.startsWith(revision)
          return (
            <li key={c.id} className="flex items-baseline gap-3 py-3">
                            <details className="group min-w-0 flex-1" open={opened}>
                <summary className="flex cursor-pointer list-none items-baseline gap-2 rounded-sm [&::-webkit-details-marker]:hidden">
                  <span aria-hidden="true" className="inline-block w-3 shrink-0 text-slate-600 group-open:hidden">▸</span>
                  <span aria-hidden="true" className="hidden w-3 shrink-0 text-slate-600 group-open:inline-block">▾</span>
                  <span className="flex min-w-0 flex-wrap items-baseline gap-x-3 gap-y-1">
                    <span className="font-medium [overflow-wrap:anywhere]">{c.title}</span>
                    <span className="text-sm text-slate-500">{c.authors[0]?.user} · <time dateTime={c.date}>{new Date(c.date).toISOString().slice(0, 16).replace('T', ' ')} UTC</time></span>
                  </span>
                </summary>
                <div className="ml-5">
                  {c.message && <p className="mt-2 whitespace-pre-wrap text-sm text-slate-600 [overflow-wrap:anywhere]">{c.message}</p>}
                  <ul className="mt-2 space-y-0.5 text-sm" aria-label={`Files changed in ${short}`}>
                    {c.changes.length === 0 && <li className="text-slate-500">No file changes</li>}
                    {c.changes.map((ch) => (
                      <li key={ch.path} className="font-mono text-xs [overflow-wrap:anywhere]">
                        <span className={ch.change === 'delete' ? 'text-red-700' : ch.change === 'add' ? 'text-emerald-700' : 'text-amber-700'}>{CHANGE_LABEL[ch.change] ?? ch.change}</span>{' '}
                        {ch.change === 'delete' ? (
                          <span className="text-slate-600"><BreakableName name={ch.path} /></span>
                        ) : (
                          <Link className="text-indigo-700 hover:underline" href={`${base}/blob/${c.id}/${encodedFilePath(ch.path)}`}><BreakableName name={ch.path} /></Link>
                        )}
                      </li>
                    ))}
                  </ul>
                  <p className="mt-2 text-xs">
                    <Link className="text-indigo-700 hover:underline" href={`${base}?tab=files&rev=${c.id}`}>Browse files at {short}</Link>
                  </p>
                </div>
              </details>
              <Link href={`${base}/commit/${c.id}`} className="shrink-0 font-mono text-xs text-indigo-700 hover:underline" aria-label={`Commit ${short}`} title={c.id}>{short}</Link>
            </li>
          )
        })}
      </ol>
    </div>
  )
}
