'use client'
// A form bound to a server action that shows the action's error or success message in place.
// It submits through onSubmit rather than the form's action prop: React resets a form after an
// action-prop submission, which would wipe what the user typed whenever the server refuses it.
// Fields are cleared only after a success.
// While the action runs the submit button stays focusable (aria-disabled, a second submit ignored):
// a disabled button loses the focus, which falls to <body>. When the form itself is gone after its
// action (a redirect, a row drawn again without it), the focus moves to what says what happened
// (components/Notice focusRescue).
import { createContext, useActionState, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { FormState } from '@/lib/http/form'
import { CopyButton } from '@/components/CopyButton'
import { useActionSubmit } from '@/components/Notice'

type Props = {
  action: (state: FormState, form: FormData) => Promise<FormState>
  children: React.ReactNode
  submit: string
  className?: string
  submitClassName?: string
  /** Shown with the success message, e.g. a token that is displayed once. */
  secretLabel?: string
  /**
   * Lays the fields and the submit button out in one row with these classes (e.g. "flex flex-wrap
   * items-end gap-3"); the messages go under the row, so that the button does not jump when one appears.
   */
  row?: string
}

/** The problems of the form's last answer, per field name: components/Field shows its own under it. */
export const FieldErrors = createContext<Record<string, string>>({})

/**
 * How a Field tells its form that it is there (and so shows its own problem): the form's summary
 * then points at it instead of saying its problem a second time. Returns the unregistering function.
 */
export const FieldRegistry = createContext<((name: string) => () => void) | null>(null)

/**
 * The summary above the submit button. Problems shown under their fields are only counted ("Check
 * the 2 fields marked above."); the rest (not tied to a field, or for a field the form does not
 * show with Field) are said in full. An answer without field problems is said as it came.
 */
function summaryOf(state: NonNullable<FormState>, shownFields: ReadonlySet<string>): string | undefined {
  const fields = Object.entries(state.fields ?? {})
  const atFields = fields.filter(([name]) => shownFields.has(name))
  if (atFields.length === 0) return state.error
  const pointer = atFields.length === 1 ? 'Check the field marked above.' : `Check the ${atFields.length} fields marked above.`
  const elsewhere = fields.filter(([name]) => !shownFields.has(name)).map(([, message]) => message)
  return [pointer, ...elsewhere, state.unfielded].filter(Boolean).join(' ')
}

export function ActionForm({ action, children, submit, className, submitClassName, secretLabel, row }: Props) {
  const [state, formAction, pending] = useActionState(action, null)
  const form = useRef<HTMLFormElement>(null)
  const success = useRef<HTMLDivElement>(null)
  const onSubmit = useActionSubmit(formAction, pending, state)
  // Names of the Fields in this form, counted so that a name registered twice stays until both leave.
  const [fieldCounts, setFieldCounts] = useState<ReadonlyMap<string, number>>(new Map())
  const register = useCallback((name: string) => {
    const change = (by: number) =>
      setFieldCounts((counts) => {
        const next = new Map(counts)
        const count = (next.get(name) ?? 0) + by
        if (count > 0) next.set(name, count)
        else next.delete(name)
        return next
      })
    change(1)
    return () => change(-1)
  }, [])
  const shownFields = useMemo(() => new Set(fieldCounts.keys()), [fieldCounts])
  useEffect(() => {
    if (!state?.ok) return
    form.current?.reset()
    // The answer appears under the form, which may be below the window (a long form sent with
    // Enter from its first field). A secret is shown once: the box takes the focus, so that
    // keyboard and screen-reader users land on it (and Tab reaches its copy button next).
    const box = success.current
    if (!box) return
    box.scrollIntoView({ block: 'nearest' })
    if (state.secret) box.focus({ preventScroll: true })
  }, [state])
  const summary = state ? summaryOf(state, shownFields) : undefined
  const fields = (
    <FieldRegistry.Provider value={register}>
      <FieldErrors.Provider value={state?.fields ?? {}}>{children}</FieldErrors.Provider>
    </FieldRegistry.Provider>
  )
  const messages = (
    <>
      {summary && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {summary}
        </p>
      )}
      {state?.ok && (
        <div
          ref={success}
          role="status"
          tabIndex={state.secret ? -1 : undefined}
          data-testid={state.secret ? 'secret-box' : undefined}
          className="scroll-my-4 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
        >
          <p>{state.ok}</p>
          {state.secret && (
            <div className="mt-2 space-y-1">
              <p>
                <span className="font-medium">{secretLabel ?? 'Secret'}:</span>{' '}
                <code data-testid="secret" className="select-all break-all rounded bg-white px-1.5 py-0.5 font-mono text-xs">{state.secret}</code>
              </p>
              <p className="flex flex-wrap items-center gap-2">
                <CopyButton value={state.secret} label={`Copy ${(secretLabel ?? 'secret').toLowerCase()}`} />
              </p>
              <p className="text-xs text-emerald-800">Copy it now: it will not be shown again.</p>
            </div>
          )}
        </div>
      )}
    </>
  )
  const button = (
    <button type="submit" aria-disabled={pending || undefined} className={`${submitClassName ?? 'btn-primary'} aria-disabled:cursor-wait aria-disabled:opacity-60`}>
      {pending ? 'Working…' : submit}
    </button>
  )
  return (
    <form
      ref={form}
      className={className ?? 'space-y-4'}
      noValidate
      onSubmit={onSubmit}
    >
      {row ? (
        <div className={row}>
          {fields}
          {button}
        </div>
      ) : (
        fields
      )}
      {messages}
      {!row && button}
    </form>
  )
}
