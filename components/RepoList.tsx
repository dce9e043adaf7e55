import Link from 'next/link'
import { repoPath, type RepoType } from '@/lib/hub/names'

type RepoSummary = { id: string; type: string; namespace: string; name: string; private: boolean; gated: boolean; updatedAt: Date }

const ICON: Record<string, string> = { model: '◆', dataset: '▤', space: '◎' }

export function RepoList({ repos, empty }: { repos: RepoSummary[]; empty: string }) {
  if (repos.length === 0) return <p className="text-sm text-slate-500">{empty}</p>
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {repos.map((r) => (
        <li key={r.id} className="min-w-0">
          <Link href={repoPath(r.type as RepoType, r.namespace, r.name)} className="card flex items-start gap-3 p-4 hover:border-brand-500">
            <span aria-hidden className="mt-0.5 text-brand-600">{ICON[r.type]}</span>
            <span className="min-w-0">
              <span className="block truncate font-medium">{r.namespace}/{r.name}</span>
              <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <span className="capitalize">{r.type}</span>
                {r.private && <span className="badge border-slate-300 text-slate-700">private</span>}
                {r.gated && <span className="badge border-amber-300 bg-amber-50 text-amber-800">gated</span>}
                <span>updated {r.updatedAt.toISOString().slice(0, 10)}</span>
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}
