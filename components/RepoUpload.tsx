'use client'
// Upload and delete from the browser, through the same protocol as any client: @huggingface/hub's
// uploadFilesWithProgress and commit, authenticated by the session cookie (same origin).
// The Commit button stays focusable while the upload runs (aria-disabled; a second submit is
// ignored), and the commit's message takes the focus once it is done. Deleting a file asks first
// (components/ConfirmAction), as every other destructive action does; the file list's NoticeArea
// (components/RepoFiles) says what was deleted and takes the focus, the file's row being gone.
import { SuccessNotice } from '@/components/Notice'
import { ConfirmAction } from '@/components/ConfirmAction'
import type { FormState } from '@/lib/http/form'
import { useState } from 'react'
import { useRouter } from 'next/navigation'
import { commit, uploadFilesWithProgress } from '@huggingface/hub'
import type { RepoRef } from '@/lib/hub/files/revisions'
import { Field } from '@/components/Field'
import { TrashIcon } from '@/components/repo/icons'

function repoDesignation(repo: RepoRef) {
  return { type: repo.type, name: `${repo.namespace}/${repo.name}` } as const
}

export function RepoUpload({ repo, branch, folder }: { repo: RepoRef; branch: string; folder: string }) {
  const router = useRouter()
  const [progress, setProgress] = useState<number | null>(null)
  const [phase, setPhase] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (progress !== null) return
    const form = event.currentTarget
    const data = new FormData(form)
    const files = (data.getAll('files') as File[]).filter((f) => f.name)
    if (files.length === 0) return setError('Choose at least one file')
    const title = String(data.get('title') || '').trim() || `Upload ${files.length === 1 ? files[0]!.name : `${files.length} files`}`
    setError(null)
    setDone(null)
    setProgress(0)
    const sizes = new Map(files.map((f) => [(folder ? `${folder}/` : '') + f.name, f.size]))
    const total = [...sizes.values()].reduce((a, b) => a + b, 0) || 1
    const sent = new Map<string, number>()
    try {
      const run = uploadFilesWithProgress({
        repo: repoDesignation(repo),
        hubUrl: window.location.origin,
        branch,
        commitTitle: title,
        commitDescription: String(data.get('description') || ''),
        files: files.map((f) => ({ path: (folder ? `${folder}/` : '') + f.name, content: f })),
        useXet: false,
      })
      for (let step = await run.next(); ; step = await run.next()) {
        if (step.done) break
        const event = step.value
        if (event.event === 'phase') setPhase(event.phase)
        else if (event.state === 'uploading') {
          sent.set(event.path, event.progress * (sizes.get(event.path) ?? 0))
          setProgress([...sent.values()].reduce((a, b) => a + b, 0) / total)
        }
      }
      // The progress line has said all it can: the commit's message replaces it.
      setProgress(null)
      setPhase('')
      setDone(`Committed “${title}”`)
      form.reset()
      router.refresh()
    } catch (e) {
      setError(failure(e, 'Upload failed'))
      setProgress(null)
    }
  }

  return (
    <form onSubmit={submit} className="space-y-3 rounded-md border border-slate-200 p-4" aria-labelledby="upload-h">
      <h3 id="upload-h" className="font-semibold">Upload files{folder ? ` to ${folder}/` : ''}</h3>
      <div>
        <label htmlFor="upload-files" className="label">Files</label>
        <input
          id="upload-files"
          name="files"
          type="file"
          multiple
          className="block w-full text-sm text-slate-700 file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-50"
        />
      </div>
      <Field name="title" id="upload-title" label="Commit message" placeholder="Upload files" maxLength={200} />
      <div>
        <label htmlFor="upload-description" className="label">Description (optional)</label>
        <textarea id="upload-description" name="description" className="input" rows={2} />
      </div>
      {progress !== null && (
        <div className="space-y-1">
          <progress className="h-2 w-full" value={progress} max={1} aria-label="Upload progress" />
          <p className="text-xs text-slate-500" aria-live="polite">{Math.round(progress * 100)}% {phase && `(${phase})`}</p>
        </div>
      )}
      {error && <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">{error}</p>}
      {done && <SuccessNotice focus>{done}</SuccessNotice>}
      <button type="submit" className="btn-primary aria-disabled:cursor-wait aria-disabled:opacity-60" aria-disabled={progress !== null || undefined}>Commit changes</button>
    </form>
  )
}

/** Why a hub call failed, without the URL the client library appends. */
function failure(e: unknown, fallback: string) {
  return e instanceof Error ? e.message.replace(/\. URL: .*$/, '') : fallback
}

export function DeleteFileButton({ repo, branch, path }: { repo: RepoRef; branch: string; path: string }) {
  const router = useRouter()
  // Deleted through the hub's API (a commit), as any client would; the list is then drawn again.
  const remove = async (): Promise<FormState> => {
    try {
      await commit({ repo: repoDesignation(repo), hubUrl: window.location.origin, branch, title: `Delete ${path}`, operations: [{ operation: 'delete', path }] })
    } catch (e) {
      return { error: failure(e, 'Delete failed') }
    }
    router.refresh()
    return { ok: `Deleted ${path} in a new commit on ${branch}.` }
  }
  return (
    <ConfirmAction
      action={remove}
      fields={{}}
      start="Delete"
      startName={`Delete ${path}`}
      startClassName="btn-danger px-2 py-1.5 sm:px-3.5 sm:py-1"
      startContent={
        <>
          {/* Below sm an icon (the label names the button), beside it the word. */}
          <TrashIcon className="h-4 w-4 sm:hidden" />
          <span className="hidden sm:inline">Delete</span>
        </>
      }
      question={<>Delete <strong className="break-all">{path}</strong> in a new commit on {branch}? It stays in the history of earlier commits.</>}
      confirm="Yes, delete"
      pendingLabel="Deleting…"
      className="w-44 sm:w-64"
    />
  )
}
