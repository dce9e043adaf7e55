import Link from 'next/link'
import { repoPath, type RepoType } from '@/lib/hub/names'
import { defaultBranchCards, type CardMetadata } from '@/lib/hub/files'
import { cardText } from '@/lib/hub/repos'

type RepoSummary = { id: string; type: string; namespace: string; name: string; private: boolean; gated: boolean; updatedAt: Date }

const ICON: Record<string, string> = { model: '◆', dataset: '▤', space: '◎' }

/** "text-classification" -> "Text classification": a task as the model card names it, for reading. */
export function taskName(task: string): string {
  const words = task.replace(/[-_]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * Repos as cards, each with what its model card says (a model's task, a space's SDK, the license);
 * `cards` when the caller has them already. `action`, when given, renders a control beside each
 * repo (e.g. removing it from a collection).
 */
export async function RepoList({ repos, empty, action, cards }: { repos: RepoSummary[]; empty: string; action?: (repo: RepoSummary) => React.ReactNode; cards?: ReadonlyMap<string, Readonly<CardMetadata>> }) {
  if (repos.length === 0) return <p className="text-sm text-slate-500">{empty}</p>
  const metadata = cards ?? (await defaultBranchCards(repos.map((r) => r.id)))
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {repos.map((r) => {
        const summary = (
          <>
            <span aria-hidden className="mt-0.5 text-brand-600">{ICON[r.type]}</span>
            <span className="min-w-0">
              <span className="block truncate font-medium">{r.namespace}/{r.name}</span>
              <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <span className="capitalize">{r.type}</span>
                {kindOf(r, metadata.get(r.id) ?? {})}
                {cardText(metadata.get(r.id)?.license) && <span className="badge border-slate-300 text-slate-700">{cardText(metadata.get(r.id)?.license)}</span>}
                {r.private && <span className="badge border-slate-300 text-slate-700">private</span>}
                {r.gated && <span className="badge border-amber-300 bg-amber-50 text-amber-800">gated</span>}
                <span>updated {r.updatedAt.toISOString().slice(0, 10)}</span>
              </span>
            </span>
          </>
        )
        const href = repoPath(r.type as RepoType, r.namespace, r.name)
        return (
          <li key={r.id} className="min-w-0">
            {action ? (
              <div className="card flex items-start gap-3 p-4">
                <Link href={href} className="flex min-w-0 flex-1 items-start gap-3 hover:text-brand-700">{summary}</Link>
                {action(r)}
              </div>
            ) : (
              <Link href={href} className="card flex items-start gap-3 p-4 hover:border-brand-500">{summary}</Link>
            )}
          </li>
        )
      })}
    </ul>
  )
}

/** A model's task or a space's SDK, from its card. */
function kindOf(repo: RepoSummary, card: Readonly<CardMetadata>) {
  const kind = repo.type === 'model' ? cardText(card.pipeline_tag) : repo.type === 'space' ? cardText(card.sdk) : null
  return kind ? <span className="font-medium text-slate-700">{repo.type === 'model' ? taskName(kind) : kind}</span> : null
}
