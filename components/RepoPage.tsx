// The page of one repository (model, dataset or space).
import { notFound } from 'next/navigation'
import Link from 'next/link'
import { db } from '@/lib/db'
import { sessionCaller } from '@/lib/auth/caller'
import { repoContext } from '@/lib/hub/repos'
import { repoDecision } from '@/lib/policy'
import type { RepoType } from '@/lib/hub/names'
import { ActionForm } from '@/components/ActionForm'
import { decideAccessAction, deleteRepoAction, repoSettingsAction, requestAccessAction } from '@/app/actions/hub'
import { DEFAULT_BRANCH, readModelCard, type CardMetadata } from '@/lib/hub/files'
import { repoPath } from '@/lib/hub/names'
import { HubError } from '@/lib/http/errors'
import { Markdown } from '@/components/Markdown'
import { RepoFiles } from '@/components/RepoFiles'
import { RepoHistory } from '@/components/RepoHistory'

export type RepoPageQuery = { tab?: string; rev?: string; path?: string }

const TABS = [
  { id: 'card', label: 'Model card' },
  { id: 'files', label: 'Files and versions' },
  { id: 'history', label: 'History' },
  { id: 'settings', label: 'Settings' },
] as const

const CARD_FIELDS = ['license', 'pipeline_tag', 'library_name', 'base_model', 'language', 'datasets', 'tags'] as const

function CardMetadataList({ metadata }: { metadata: CardMetadata }) {
  const shown = CARD_FIELDS.filter((k) => metadata[k] !== undefined)
  if (shown.length === 0) return null
  return (
    <dl className="mb-4 flex flex-wrap gap-x-6 gap-y-2 rounded-md bg-slate-50 p-3 text-sm" data-testid="card-metadata">
      {shown.map((k) => (
        <div key={k} className="flex flex-wrap items-center gap-1">
          <dt className="text-slate-500">{k.replace('_', ' ')}:</dt>
          {([] as string[]).concat(metadata[k]!).map((v) => <dd key={v} className="badge border-slate-300 bg-white text-slate-800">{v}</dd>)}
        </div>
      ))}
    </dl>
  )
}

/** A bad revision or folder in the address is a 404 page, not an error page. */
async function orNotFound<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise
  } catch (error) {
    if (error instanceof HubError && (error.status === 404 || error.status === 400)) notFound()
    throw error
  }
}

export async function RepoPage({ type, namespace, name, query = {} }: { type: RepoType; namespace: string; name: string; query?: RepoPageQuery }) {
  const caller = await sessionCaller()
  const repo = await db.repo.findUnique({ where: { type_namespace_name: { type, namespace, name } } })
  if (!repo) notFound()
  const ctx = await repoContext(caller, repo)
  if (repoDecision(caller, 'view', repo, ctx) !== 'allow') notFound()
  const mayRead = repoDecision(caller, 'read', repo, ctx) === 'allow'
  const mayManage = repoDecision(caller, 'manage', repo, ctx) === 'allow'
  const mayWrite = repoDecision(caller, 'write', repo, ctx) === 'allow'
  const ref = { type, namespace, name }
  const base = repoPath(type, namespace, name)
  const revision = query.rev || DEFAULT_BRANCH
  const tabs = TABS.filter((t) => t.id !== 'settings' || mayManage).map((t) => (t.id === 'card' && type !== 'model' ? { ...t, label: type === 'dataset' ? 'Dataset card' : 'App card' } : t))
  const tab = tabs.find((t) => t.id === query.tab)?.id ?? 'card'
  const card = tab === 'card' ? await orNotFound(readModelCard(caller, ref, revision)) : null
  const myRequest = caller && repo.gated ? await db.gatedAccess.findUnique({ where: { repoId_userId: { repoId: repo.id, userId: caller.userId } } }) : null
  const pending = mayManage && repo.gated ? await db.gatedAccess.findMany({ where: { repoId: repo.id, status: 'pending' }, include: { user: true } }) : []
  const hidden = (
    <>
      <input type="hidden" name="type" value={type} />
      <input type="hidden" name="namespace" value={namespace} />
      <input type="hidden" name="name" value={name} />
    </>
  )
  // Shown instead of files, and above the model card, to those who may not read a gated repo's files.
  const gatedNotice = (
    <div className="space-y-3 text-sm">
      <p className="text-slate-700">This repository is gated: its files are available once the owner grants you access.</p>
      {!caller && <Link className="btn-primary" href={`/login?next=${encodeURIComponent(base)}`}>Sign in to request access</Link>}
      {caller && myRequest?.status === 'pending' && <p className="badge border-amber-300 bg-amber-50 text-amber-800">Your request is pending review</p>}
      {caller && myRequest?.status === 'rejected' && <p className="badge border-red-300 bg-red-50 text-red-800">Your request was declined</p>}
      {caller && !myRequest && (
        <ActionForm action={requestAccessAction} submit="Request access" className="space-y-2">{hidden}</ActionForm>
      )}
    </div>
  )
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm capitalize text-slate-500">{type}</p>
        <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold">
          <Link href={`/${namespace}`} className="text-slate-500 hover:underline">{namespace}</Link>
          <span className="text-slate-400">/</span>
          <span>{name}</span>
          {repo.private && <span className="badge border-slate-300 text-slate-700">private</span>}
          {repo.gated && <span className="badge border-amber-300 bg-amber-50 text-amber-800">gated</span>}
        </h1>
        {repo.description && <p className="mt-2 text-slate-600">{repo.description}</p>}
      </div>

      <nav aria-label="Repository" className="flex flex-wrap gap-1 border-b border-slate-200">
        {tabs.map((t) => (
          <Link
            key={t.id}
            href={t.id === 'card' ? base : `${base}?tab=${t.id}`}
            aria-current={t.id === tab ? 'page' : undefined}
            className={`-mb-px border-b-2 px-3 py-2 text-sm ${t.id === tab ? 'border-indigo-600 font-semibold text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {t.label}
          </Link>
        ))}
      </nav>

      {tab === 'card' && !mayRead && <section className="card border-amber-200" aria-label="Access">{gatedNotice}</section>}

      {tab === 'card' && (
        <section className="card" aria-label="Model card">
          {card ? (
            <>
              <CardMetadataList metadata={card.metadata} />
              <Markdown source={card.body} />
            </>
          ) : (
            <p className="text-sm text-slate-600">No model card yet: add a README.md{mayWrite ? <> under <Link className="text-indigo-700 underline" href={`${base}?tab=files`}>Files and versions</Link></> : null}.</p>
          )}
        </section>
      )}

      {(tab === 'files' || tab === 'history') && (
        <section className="card" aria-labelledby="content-h">
          <h2 id="content-h" className="sr-only">{tab === 'files' ? 'Files and versions' : 'History'}</h2>
          {mayRead ? (
            tab === 'files' ? (
              await orNotFound(RepoFiles({ caller, repo: ref, revision, folder: query.path ?? '', mayWrite }))
            ) : (
              await orNotFound(RepoHistory({ caller, repo: ref, revision }))
            )
          ) : (
            gatedNotice
          )}
        </section>
      )}

      {mayManage && tab === 'settings' && (
        <section className="card space-y-6" aria-labelledby="settings-h">
          <h2 id="settings-h" className="font-semibold">Settings</h2>
          <ActionForm action={repoSettingsAction} submit="Save settings" className="space-y-3">
            {hidden}
            <fieldset className="flex gap-4 text-sm">
              <legend className="label">Visibility</legend>
              <label className="flex items-center gap-2"><input type="radio" name="visibility" value="public" defaultChecked={!repo.private} /> Public</label>
              <label className="flex items-center gap-2"><input type="radio" name="visibility" value="private" defaultChecked={repo.private} /> Private</label>
            </fieldset>
            <label className="flex items-center gap-2 text-sm"><input type="checkbox" name="gated" defaultChecked={repo.gated} /> Gated: users must request access to the files</label>
          </ActionForm>
          {repo.gated && (
            <div>
              <h3 className="mb-2 text-sm font-semibold">Pending access requests</h3>
              {pending.length === 0 ? (
                <p className="text-sm text-slate-500">No pending requests.</p>
              ) : (
                <ul className="divide-y divide-slate-100">
                  {pending.map((r) => (
                    <li key={r.id} className="flex items-center justify-between gap-4 py-2 text-sm">
                      <span>{r.user.username}</span>
                      <span className="flex gap-2">
                        {(['accept', 'reject'] as const).map((decision) => (
                          <ActionForm key={decision} action={decideAccessAction} submit={decision === 'accept' ? 'Accept' : 'Reject'} className="flex items-center gap-2" submitClassName={decision === 'accept' ? 'btn-primary' : 'btn-secondary'}>
                            {hidden}
                            <input type="hidden" name="repoId" value={repo.id} />
                            <input type="hidden" name="userId" value={r.userId} />
                            <input type="hidden" name="decision" value={decision} />
                          </ActionForm>
                        ))}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <div className="border-t border-red-100 pt-4">
            <h3 className="mb-2 text-sm font-semibold text-red-700">Delete this repository</h3>
            <ActionForm action={deleteRepoAction} submit="Delete repository" submitClassName="btn-danger" className="space-y-2">
              {hidden}
              <label className="label" htmlFor="confirm">Type <code>{namespace}/{name}</code> to confirm</label>
              <input className="input max-w-sm" id="confirm" name="confirm" autoComplete="off" />
            </ActionForm>
          </div>
        </section>
      )}
    </div>
  )
}
