'use client'
// An action that takes two steps: the first button asks, "Yes, …" does it. The question replaces
// the button in place and takes the focus; Cancel or Escape puts the button back, focused. For what
// cannot be undone (deleting a collection, revoking a token).
import { useActionState, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import type { FormState } from '@/lib/http/form'

type Props = {
  action: (state: FormState, form: FormData) => Promise<FormState>
  /** Hidden fields the action reads. */
  fields: Record<string, string>
  /** The first button's label, e.g. "Revoke". */
  start: string
  /** Its accessible name when the label alone is ambiguous (one per row of a list). */
  startName?: string
  /** The question, saying what goes for good. */
  question: ReactNode
  /** The confirming button's label, e.g. "Yes, revoke". */
  confirm: string
  pendingLabel: string
}

export function ConfirmAction({ action, fields, start, startName, question, confirm, pendingLabel }: Props) {
  const [confirming, setConfirming] = useState(false)
  const [state, formAction, pending] = useActionState(action, null)
  const yes = useRef<HTMLButtonElement>(null)
  const first = useRef<HTMLButtonElement>(null)
  const asked = useRef(false)
  const questionId = useId()
  useEffect(() => {
    if (confirming) yes.current?.focus()
    else if (asked.current) first.current?.focus()
    asked.current ||= confirming
  }, [confirming])

  if (!confirming) {
    return (
      <button ref={first} type="button" className="btn-danger" aria-label={startName} onClick={() => setConfirming(true)}>
        {start}
      </button>
    )
  }
  return (
    <form action={formAction} className="space-y-3 rounded-md border border-red-200 bg-red-50 p-3 text-left" aria-labelledby={questionId} onKeyDown={(e) => e.key === 'Escape' && setConfirming(false)}>
      {Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
      <p id={questionId} className="whitespace-normal text-sm text-red-900">{question}</p>
      <div className="flex flex-wrap gap-2">
        <button ref={yes} type="submit" className="btn-danger" disabled={pending}>{pending ? pendingLabel : confirm}</button>
        <button type="button" className="btn-secondary" onClick={() => setConfirming(false)} disabled={pending}>Cancel</button>
      </div>
      {state?.error && <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">{state.error}</p>}
    </form>
  )
}
