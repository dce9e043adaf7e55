'use client'
// An action that takes two steps: the first button asks, "Yes, …" does it. The question replaces
// the button in place and takes the focus; Cancel or Escape puts the button back, focused. For what
// cannot be undone (deleting a collection, revoking a token).
// While the action runs its buttons stay focusable (aria-disabled; a second press is ignored): a
// disabled button would drop the focus to <body>. Its success is said by the enclosing NoticeArea
// (components/Notice), above the list, which takes the focus: the row (and this question in it) is
// usually gone once the page is drawn again. Without a NoticeArea it is said here, and if the row
// goes, the focus moves to what the page says instead (focusRescue).
import { useActionState, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import type { FormState } from '@/lib/http/form'
import { useActionSubmit, useAnnounce } from '@/components/Notice'

type Props = {
  /** A server action, or a function of the page (components/RepoUpload deletes through the hub's API). */
  action: (state: FormState, form: FormData) => Promise<FormState>
  /** Hidden fields the action reads. */
  fields: Record<string, string>
  /** The first button's label, e.g. "Revoke". */
  start: string
  /** Its accessible name when the label alone is ambiguous (one per row of a list). */
  startName?: string
  /** What the first button shows instead of `start` (e.g. an icon on narrow screens); `start` stays its name. */
  startContent?: ReactNode
  startClassName?: string
  /** The question, saying what goes for good. */
  question: ReactNode
  /** The confirming button's label, e.g. "Yes, revoke". */
  confirm: string
  pendingLabel: string
  /** The message said on success (default: the action's own `ok`), e.g. naming what went. */
  success?: string
  /** Classes of the question's box (e.g. a width where it opens in a narrow table cell). */
  className?: string
}

export function ConfirmAction({ action, fields, start, startName, startContent, startClassName = 'btn-danger', question, confirm, pendingLabel, success, className = '' }: Props) {
  const [confirming, setConfirming] = useState(false)
  const announce = useAnnounce()
  const [state, formAction, pending] = useActionState(async (previous: FormState, form: FormData) => {
    const answer = await action(previous, form)
    if (answer?.ok && announce) announce(success ?? answer.ok)
    return answer
  }, null)
  const submit = useActionSubmit(formAction, pending, state)
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
      <button ref={first} type="button" className={startClassName} aria-label={startName ?? (startContent ? start : undefined)} title={startContent ? startName ?? start : undefined} onClick={() => setConfirming(true)}>
        {startContent ?? start}
      </button>
    )
  }
  const busy = pending || undefined
  return (
    <form
      className={`space-y-3 rounded-md border border-red-200 bg-red-50 p-3 text-left ${className}`}
      aria-labelledby={questionId}
      aria-busy={busy}
      onKeyDown={(e) => e.key === 'Escape' && !pending && setConfirming(false)}
      onSubmit={submit}
    >
      {Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
      <p id={questionId} className="whitespace-normal text-sm text-red-900">{question}</p>
      <div className="flex flex-wrap gap-2">
        <button ref={yes} type="submit" className="btn-danger aria-disabled:cursor-wait aria-disabled:opacity-60" aria-disabled={busy}>{pending ? pendingLabel : confirm}</button>
        <button type="button" className="btn-secondary aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={busy} onClick={() => !pending && setConfirming(false)}>Cancel</button>
      </div>
      {state?.error && <p role="alert" className="whitespace-normal rounded-md border border-red-200 bg-white px-3 py-2 text-sm text-red-800">{state.error}</p>}
      {state?.ok && !announce && <p role="status" className="whitespace-normal text-sm text-emerald-900">{success ?? state.ok}</p>}
    </form>
  )
}
