'use client'
// A form bound to a server action that shows the action's error or success message in place.
// It submits through onSubmit rather than the form's action prop: React resets a form after an
// action-prop submission, which would wipe what the user typed whenever the server refuses it.
// Fields are cleared only after a success.
import { createContext, startTransition, useActionState, useEffect, useRef } from 'react'
import type { FormState } from '@/lib/http/form'
import { CopyButton } from '@/components/CopyButton'

type Props = {
  action: (state: FormState, form: FormData) => Promise<FormState>
  children: React.ReactNode
  submit: string
  className?: string
  submitClassName?: string
  /** Shown with the success message, e.g. a token that is displayed once. */
  secretLabel?: string
}

/** The problems of the form's last answer, per field name: components/Field shows its own under it. */
export const FieldErrors = createContext<Record<string, string>>({})

export function ActionForm({ action, children, submit, className, submitClassName, secretLabel }: Props) {
  const [state, formAction, pending] = useActionState(action, null)
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (state?.ok) form.current?.reset()
  }, [state])
  return (
    <form
      ref={form}
      className={className ?? 'space-y-4'}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        const data = new FormData(event.currentTarget)
        startTransition(() => formAction(data))
      }}
    >
      <FieldErrors.Provider value={state?.fields ?? {}}>{children}</FieldErrors.Provider>
      {state?.error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.error}
        </p>
      )}
      {state?.ok && (
        <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
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
      <button type="submit" disabled={pending} className={submitClassName ?? 'btn-primary'}>
        {pending ? 'Working…' : submit}
      </button>
    </form>
  )
}
