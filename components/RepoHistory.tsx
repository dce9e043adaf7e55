// The commit history of a branch, each commit with the paths it changed.
import { listCommits, type RepoRef } from '@/lib/hub/files'
import type { Caller } from '@/lib/policy'

const CHANGE_LABEL = { add: 'added', update: 'updated', delete: 'deleted' } as Record<string, string>

export async function RepoHistory({ caller, repo, revision }: { caller: Caller; repo: RepoRef; revision: string }) {
  const { commits, total } = await listCommits(caller, repo, { revision, limit: 50, page: 0, url: new URL('http://hub.invalid/') })
  if (commits.length === 0) return <p className="text-sm text-slate-600">No commits yet.</p>
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-500">{total} commit{total === 1 ? '' : 's'} on {revision}{total > commits.length ? ` (newest ${commits.length} shown)` : ''}</p>
      <ol className="divide-y divide-slate-100" data-testid="history">
        {commits.map((c) => (
          <li key={c.id} className="py-3">
            <details>
              <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-3 gap-y-1">
                <span className="font-medium">{c.title}</span>
                <span className="text-sm text-slate-500">{c.authors[0]?.user} · <time dateTime={c.date}>{new Date(c.date).toISOString().slice(0, 16).replace('T', ' ')} UTC</time></span>
                <code className="text-xs text-slate-400">{c.id.slice(0, 8)}</code>
              </summary>
              {c.message && <p className="mt-2 whitespace-pre-wrap text-sm text-slate-600">{c.message}</p>}
              <ul className="mt-2 space-y-0.5 text-sm">
                {c.changes.length === 0 && <li className="text-slate-500">No file changes</li>}
                {c.changes.map((ch) => (
                  <li key={ch.path} className="font-mono text-xs"><span className={ch.change === 'delete' ? 'text-red-700' : ch.change === 'add' ? 'text-emerald-700' : 'text-amber-700'}>{CHANGE_LABEL[ch.change] ?? ch.change}</span> {ch.path}</li>
                ))}
              </ul>
            </details>
          </li>
        ))}
      </ol>
    </div>
  )
}
