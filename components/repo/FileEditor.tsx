'use client'
// Editing one text file in the browser: its text in a textarea, a commit message, and "Commit
// changes", which commits it through the same protocol as any client (@huggingface/hub's commit,
// authenticated by the session cookie, same origin) as RepoUpload does. The commit names the head
// the text was read at (parentCommit): if the branch moved since, the hub refuses it (412) rather
// than overwrite someone else's change, and the page says so.
import { useRef, useState } from 'react'
import Link from 'next/link'
import { useRouter } from 'next/navigation'
import { commit } from '@huggingface/hub'
import type { RepoRef } from '@/lib/hub/files/revisions'
import { Field } from '@/components/Field'

type FileEditorProps = {
  repo: RepoRef
  branch: string
  path: string
  /** The file's text, or a starter template for a file that does not exist yet. */
  initialText: string
  /** Whether the file is new (the commit creates it). */
  creating: boolean
  /** The head of the branch the text was read at; null on a branch with no commits yet. */
  parentCommit: string | null
  /** The file's page on the branch, where a commit lands (with ?committed=). */
  fileHref: string
  /** Where Cancel goes. */
  cancelHref: string
  /** A line under the text box: what the file is (e.g. the model card's front matter). */
  hint?: string
}

/** What a failed commit says: the hub's own message, with what to do for the usual refusals. */
function commitError(e: unknown, branch: string): string {
  const status = typeof e === 'object' && e !== null && 'statusCode' in e && typeof e.statusCode === 'number' ? e.statusCode : null
  const message = e instanceof Error ? e.message.replace(/\. URL: .*$/, '') : 'The commit failed'
  if (status === 412 || status === 409) return `${branch} has changed since you opened this file (HTTP ${status}): a commit made since would be undone by this one. Copy your text, reload the page and apply your change again.`
  if (status === 401 || status === 403) return `You may not commit to this repository (HTTP ${status}): ${message}`
  return status ? `The commit failed (HTTP ${status}): ${message}` : `The commit failed: ${message}`
}

export function FileEditor({ repo, branch, path, initialText, creating, parentCommit, fileHref, cancelHref, hint }: FileEditorProps) {
  const router = useRouter()
  const [text, setText] = useState(initialText)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const errorRef = useRef<HTMLParagraphElement>(null)
  const defaultTitle = `${creating ? 'Create' : 'Update'} ${path}`
  // A text box gives its text with \n line ends whatever it was given: a file written with \r\n is committed with
  // them again, so that one edited line does not show as every line changed.
  const crlf = initialText.includes('\r\n')
  const asLf = (value: string) => value.replace(/\r\n/g, '\n')

  function fail(message: string) {
    setError(message)
    setBusy(false)
    // The message is announced (role=alert) and brought into view.
    requestAnimationFrame(() => errorRef.current?.scrollIntoView({ block: 'nearest' }))
  }

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const title = String(data.get('title') || '').trim() || defaultTitle
    if (!creating && asLf(text) === asLf(initialText)) return fail('No changes to commit: the text is as it was.')
    setError(null)
    setBusy(true)
    try {
      const out = await commit({
        repo: { type: repo.type, name: `${repo.namespace}/${repo.name}` },
        hubUrl: window.location.origin,
        branch,
        title,
        description: String(data.get('description') || ''),
        operations: [{ operation: 'addOrUpdate', path, content: new Blob([crlf ? asLf(text).replace(/\n/g, '\r\n') : text], { type: 'text/plain' }) }],
        ...(parentCommit ? { parentCommit } : {}),
        useXet: false,
      })
      const oid = out?.commit.oid
      router.push(oid ? `${fileHref}?committed=${encodeURIComponent(oid)}` : fileHref)
    } catch (e) {
      fail(commitError(e, branch))
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-labelledby="editor-h">
      <h3 id="editor-h" className="font-semibold [overflow-wrap:anywhere]">
        {creating ? 'Create' : 'Edit'} <code className="font-mono text-sm">{path}</code> on <code className="font-mono text-sm">{branch}</code>
      </h3>
      <div>
        <label htmlFor="editor-text" className="label">File contents</label>
        <textarea
          id="editor-text"
          name="text"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={Math.min(30, Math.max(12, text.split('\n').length + 2))}
          spellCheck={false}
          aria-describedby={hint ? 'editor-text-hint' : undefined}
          className="input font-mono text-xs leading-5 sm:text-sm"
        />
        {hint && <p id="editor-text-hint" className="mt-1 text-xs text-slate-500">{hint}</p>}
      </div>
      <Field name="title" id="editor-title" label="Commit message" placeholder={defaultTitle} maxLength={200} />
      <div>
        <label htmlFor="editor-description" className="label">Description (optional)</label>
        <textarea id="editor-description" name="description" className="input" rows={2} />
      </div>
      {error && <p ref={errorRef} role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">{error}</p>}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn-primary" disabled={busy}>{busy ? 'Committing…' : 'Commit changes'}</button>
        <Link href={cancelHref} className="btn-secondary">Cancel</Link>
        <span className="text-xs text-slate-500">Commits to {branch}.</span>
      </div>
    </form>
  )
}
