'use client'
// Deleting a collection takes two steps: "Delete collection" asks, "Yes, delete" does it. The
// question replaces the button in place and takes the focus; Cancel or Escape puts it back.
import { useActionState, useEffect, useRef, useState } from 'react'
import type { FormState } from '@/lib/http/form'

type Props = { slug: string; title: string; action: (state: FormState, form: FormData) => Promise<FormState> }

export function DeleteCollection({ slug, title, action }: Props) {
  const [confirming, setConfirming] = useState(false)
  const [state, formAction, pending] = useActionState(action, null)
  const confirm = useRef<HTMLButtonElement>(null)
  const start = useRef<HTMLButtonElement>(null)
  const asked = useRef(false)
  useEffect(() => {
    if (confirming) confirm.current?.focus()
    else if (asked.current) start.current?.focus()
    asked.current ||= confirming
  }, [confirming])

  if (!confirming) {
    return (
      <button ref={start} type="button" className="btn-danger" onClick={() => setConfirming(true)}>
        Delete collection
      </button>
    )
  }
  return (
    <form action={formAction} className="space-y-3 rounded-md border border-red-200 bg-red-50 p-3" aria-labelledby="delete-collection-q" onKeyDown={(e) => e.key === 'Escape' && setConfirming(false)}>
      <input type="hidden" name="slug" value={slug} />
      <p id="delete-collection-q" className="text-sm text-red-900">
        Delete <strong className="break-words">{title}</strong>? The list is gone for good; the repositories in it stay where they are.
      </p>
      <div className="flex flex-wrap gap-2">
        <button ref={confirm} type="submit" className="btn-danger" disabled={pending}>{pending ? 'Deleting…' : 'Yes, delete'}</button>
        <button type="button" className="btn-secondary" onClick={() => setConfirming(false)} disabled={pending}>Cancel</button>
      </div>
      {state?.error && <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">{state.error}</p>}
    </form>
  )
}
