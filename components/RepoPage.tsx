// The page of one repository (model, dataset or space).
import type { Metadata } from 'next'
import { cache } from 'react'
import { notFound, redirect } from 'next/navigation'
import Link from 'next/link'
import { sessionCaller } from '@/lib/auth/caller'
import { cardTexts, repoPageView } from '@/lib/hub/repos'
import { orNotFound } from '@/lib/http/page-errors'
import { encodedFilePath, repoPath, type RepoType } from '@/lib/hub/names'
import { ActionForm } from '@/components/ActionForm'
import { AccessDecision } from '@/components/AccessDecision'
import type { FormState } from '@/lib/http/form'
import { DEFAULT_BRANCH, readModelCard, type CardMetadata } from '@/lib/hub/files'
import { Markdown } from '@/components/Markdown'
import { RepoFiles } from '@/components/RepoFiles'
import { RepoFileView } from '@/components/RepoFileView'
import { RepoHistory } from '@/components/RepoHistory'
import { CARD_PATH, RepoFileEdit } from '@/components/repo/RepoFileEdit'
import { PencilIcon } from '@/components/repo/icons'

/** The repository as this request's caller sees it: read once for the page and its metadata. */
const repoViewOfRequest = cache(async (type: RepoType, namespace: string, name: string) => repoPageView(await sessionCaller(), type, namespace, name))

/** `file`: one file's page (the Hub's /blob/{rev}/{path}) inside the files tab; `edit`: its editor
 * (/edit/{rev}/{path}); `committed`: the commit the editor just made, for the file page's notice. */
export type RepoPageQuery = { tab?: string; rev?: string; path?: string; file?: string; edit?: string; committed?: string }

const TAB_TITLES: Record<string, string> = { files: 'Files', history: 'History', settings: 'Settings' }

/**
 * The browser tab names the page and the repository when the caller may see it ("History ·
 * alice/x", "README.md · alice/x at main"; the card is the repository's own page, "alice/x"); a
 * 404's tab says so, as its page does.
 */
export async function repoPageTitle(type: RepoType, namespace: string, name: string, query: RepoPageQuery = {}): Promise<Metadata> {
  const view = await repoViewOfRequest(type, namespace, name)
  if (!view) return { title: 'Not found' }
  const repo = `${view.repo.namespace}/${view.repo.name}`
  const at = `${repo} at ${query.rev || DEFAULT_BRANCH}`
  if (query.edit !== undefined) return { title: `Edit ${query.edit} · ${at}` }
  if (query.file !== undefined) return { title: `${query.file} · ${at}` }
  const page = query.tab === 'settings' && !view.mayManage ? undefined : TAB_TITLES[query.tab ?? '']
  return { title: page ? `${page} · ${repo}` : repo }
}

/** `short`: the label shown below sm (the link keeps the full one as its name), so a phone's row holds every tab. */
const TABS: readonly { id: string; label: string; short?: string }[] = [
  { id: 'card', label: 'Model card' },
  { id: 'files', label: 'Files and versions', short: 'Files' },
  { id: 'history', label: 'History' },
  { id: 'settings', label: 'Settings' },
]

const CARD_FIELDS = ['license', 'pipeline_tag', 'library_name', 'base_model', 'language', 'datasets', 'tags'] as const

function CardMetadataList({ metadata }: { metadata: CardMetadata }) {
  const shown = CARD_FIELDS.map((k) => [k, [...new Set(cardTexts(metadata[k]))]] as const).filter(([, values]) => values.length > 0)
  if (shown.length === 0) return null
  return (
    <dl className="mb-4 flex flex-wrap gap-x-6 gap-y-2 rounded-md bg-slate-50 p-3 text-sm" data-testid="card-metadata">
      {shown.map(([k, values]) => (
        <div key={k} className="flex flex-wrap items-center gap-1">
          <dt className="text-slate-500">{k.replace('_', ' ')}:</dt>
          {values.map((v) => <dd key={v} className="badge border-slate-300 bg-white text-slate-800">{v}</dd>)}
        </div>
      ))}
    </dl>
  )
}


type FormAction = (state: FormState, form: FormData) => Promise<FormState>

/** The server actions the page's forms post to (they live in app/, which components never import). */
/** The page's URL with the repository's own spelling of its name, its tab, revision and file kept. */
function canonicalUrl(type: RepoType, namespace: string, name: string, query: RepoPageQuery): string {
  const base = repoPath(type, namespace, name)
  if (query.edit !== undefined) return `${base}/edit/${encodeURIComponent(query.rev || DEFAULT_BRANCH)}/${encodedFilePath(query.edit)}`
  if (query.file !== undefined) return `${base}/blob/${encodeURIComponent(query.rev || DEFAULT_BRANCH)}/${encodedFilePath(query.file)}`
  const search = new URLSearchParams(Object.entries({ tab: query.tab, rev: query.rev, path: query.path }).filter((e): e is [string, string] => Boolean(e[1])))
  return search.size > 0 ? `${base}?${search}` : base
}

export type RepoPageActions = { requestAccess: FormAction; saveSettings: FormAction; decideAccess: FormAction; deleteRepo: FormAction }

export async function RepoPage({ type, namespace, name, query = {}, actions }: { type: RepoType; namespace: string; name: string; query?: RepoPageQuery; actions: RepoPageActions }) {
  const caller = await sessionCaller()
  const view = await repoViewOfRequest(type, namespace, name)
  if (!view) notFound()
  const { repo, mayRead, mayManage, mayWrite, myRequest, pending } = view
  // Names are found whatever their case (findRepo): the page lives at the repository's own spelling.
  if (repo.namespace !== namespace || repo.name !== name) redirect(canonicalUrl(type, repo.namespace, repo.name, query))
  const ref = { type, namespace, name }
  const base = repoPath(type, namespace, name)
  const revision = query.rev || DEFAULT_BRANCH
  const tabs = TABS.filter((t) => t.id !== 'settings' || mayManage).map((t) => (t.id === 'card' && type !== 'model' ? { ...t, label: type === 'dataset' ? 'Dataset card' : 'App card' } : t))
  const tab = tabs.find((t) => t.id === query.tab)?.id ?? 'card'
  const cardLabel = tabs.find((t) => t.id === 'card')!.label
  const card = tab === 'card' ? await orNotFound(readModelCard(caller, ref, revision)) : null
  const cardEditHref = `${base}/edit/${encodeURIComponent(revision)}/${CARD_PATH}`
  // The editor is for writers: anyone else who follows its URL gets the file's page.
  if (query.edit !== undefined && !mayWrite) redirect(`${base}/blob/${encodeURIComponent(revision)}/${encodedFilePath(query.edit)}`)
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
      {caller && myRequest?.status === 'pending' && (
        <div role="status" className="space-y-1">
          <p className="badge border-amber-300 bg-amber-50 text-amber-800">Access requested · pending review</p>
          <p className="text-slate-600">You asked on {myRequest.createdAt.toISOString().slice(0, 10)}. The owner will review it; the files appear here once access is granted.</p>
        </div>
      )}
      {caller && myRequest?.status === 'rejected' && <p className="badge border-red-300 bg-red-50 text-red-800">Your request was declined</p>}
      {caller && !myRequest && (
        <ActionForm action={actions.requestAccess} submit="Request access" className="space-y-2">{hidden}</ActionForm>
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
        {myRequest?.status === 'accepted' && (
          <p className="mt-2 badge border-green-300 bg-green-50 text-green-800">Access granted: you can download the files</p>
        )}
      </div>

      {/* One row that scrolls sideways on a narrow screen (a tab alone on a second row reads as
          something else). The line under the tabs is an inset shadow, drawn under the current tab's
          border, and focus outlines are inset: the scrolling box clips what overflows it. */}
      <nav aria-label="Repository" className="flex gap-1 overflow-x-auto whitespace-nowrap shadow-[inset_0_-1px_0_var(--color-slate-200)]">
        {tabs.map((t) => (
          <Link
            key={t.id}
            href={t.id === 'card' ? base : `${base}?tab=${t.id}`}
            aria-current={t.id === tab ? 'page' : undefined}
            aria-label={t.short ? t.label : undefined}
            className={`shrink-0 border-b-2 px-2.5 py-2 text-sm focus-visible:-outline-offset-2 sm:px-3 ${t.id === tab ? 'border-indigo-600 font-semibold text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
          >
            {t.short ? (
              <>
                <span className="sm:hidden">{t.short}</span>
                <span className="hidden sm:inline">{t.label}</span>
              </>
            ) : (
              t.label
            )}
          </Link>
        ))}
      </nav>

      {tab === 'card' && !mayRead && <section className="card border-amber-200" aria-label="Access">{gatedNotice}</section>}

      {tab === 'card' && (
        <section className="card" aria-label={cardLabel}>
          {/* Writers edit the card (README.md) in the browser, or create it from a starter. */}
          {mayWrite && card && (
            <div className="mb-3 flex justify-end">
              <Link className="btn-secondary py-1" href={cardEditHref}><PencilIcon />Edit {cardLabel.toLowerCase()}</Link>
            </div>
          )}
          {card && <CardMetadataList metadata={card.metadata} />}
          {card && card.body.trim() !== '' ? (
            <Markdown source={card.body} files={{ blob: `${base}/blob/${encodeURIComponent(revision)}`, resolve: `${base}/resolve/${encodeURIComponent(revision)}`, folder: '' }} />
          ) : (
            <div className="space-y-3 text-sm text-slate-600">
              <p>{card ? `The ${cardLabel.toLowerCase()} has no description yet.` : `This repository has no ${cardLabel.toLowerCase()} yet.`}{mayWrite ? ' It is the README.md file: what the repository is for, how to use it, and its license.' : ''}</p>
              {mayWrite && !card && <Link className="btn-primary" href={cardEditHref}>Create {cardLabel.toLowerCase()}</Link>}
            </div>
          )}
        </section>
      )}

      {(tab === 'files' || tab === 'history') && (
        <section className="card" aria-labelledby="content-h">
          <h2 id="content-h" className="sr-only">{tab === 'files' ? 'Files and versions' : 'History'}</h2>
          {mayRead ? (
            tab === 'files' ? (
              query.edit !== undefined ? (
                await orNotFound(RepoFileEdit({ caller, repo: ref, revision, path: query.edit, cardLabel }))
              ) : query.file ? (
                await orNotFound(RepoFileView({ caller, repo: ref, revision, path: query.file, mayWrite, committed: query.committed }))
              ) : (
                await orNotFound(RepoFiles({ caller, repo: ref, revision, folder: query.path ?? '', mayWrite }))
              )
            ) : (
              await orNotFound(RepoHistory({ caller, repo: ref, revision, path: query.path || undefined }))
            )
          ) : (
            gatedNotice
          )}
        </section>
      )}

      {mayManage && tab === 'settings' && (
        <section className="card space-y-6" aria-labelledby="settings-h">
          <h2 id="settings-h" className="font-semibold">Settings</h2>
          <ActionForm action={actions.saveSettings} submit="Save settings" className="space-y-3">
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
                      <AccessDecision action={actions.decideAccess} repo={repo} userId={r.userId} />
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <div className="border-t border-red-100 pt-4">
            <h3 className="mb-2 text-sm font-semibold text-red-700">Delete this repository</h3>
            <ActionForm action={actions.deleteRepo} submit="Delete repository" submitClassName="btn-danger" className="space-y-2">
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
