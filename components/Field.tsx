'use client'
// A labelled text input (or text area), the form row every page repeats: the label names the input
// by id, an optional hint sits under it, and inside an ActionForm the last answer's problem with
// this field (FieldErrors) is shown under it too, the input marked invalid and described by it.
// The field tells its form it is there (FieldRegistry), so the form's summary only points at it.
import { useContext, useEffect, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react'
import { FieldErrors, FieldRegistry } from '@/components/ActionForm'

type Common = { name: string; label: ReactNode; hint?: ReactNode }
type FieldProps = InputHTMLAttributes<HTMLInputElement> & Common
type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & Common

/** The field's problem in its form's last answer, the ids of the lines under it, and its registration. */
function useFieldState(name: string, id: string, hint: ReactNode) {
  const error = useContext(FieldErrors)[name]
  const register = useContext(FieldRegistry)
  useEffect(() => register?.(name), [register, name])
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  return {
    error,
    hintId,
    errorId,
    control: {
      'aria-invalid': error ? true : undefined,
      'aria-describedby': [errorId, hintId].filter(Boolean).join(' ') || undefined,
    },
    invalidClass: error ? 'border-red-400 focus:border-red-500' : '',
  }
}

function Lines({ error, errorId, hint, hintId }: { error?: string; errorId?: string; hint?: ReactNode; hintId?: string }) {
  return (
    <>
      {error && <p id={errorId} className="mt-1 text-xs text-red-700">{error}</p>}
      {hint && <p id={hintId} className="mt-1 text-xs text-slate-500">{hint}</p>}
    </>
  )
}

export function Field({ name, label, hint, id = name, className = 'input', ...input }: FieldProps) {
  const { error, errorId, hintId, control, invalidClass } = useFieldState(name, id, hint)
  return (
    <div>
      <label className="label" htmlFor={id}>{label}</label>
      <input className={`${className} ${invalidClass}`} id={id} name={name} {...control} {...input} />
      <Lines error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </div>
  )
}

export function TextAreaField({ name, label, hint, id = name, className = 'input', ...textarea }: TextAreaFieldProps) {
  const { error, errorId, hintId, control, invalidClass } = useFieldState(name, id, hint)
  return (
    <div>
      <label className="label" htmlFor={id}>{label}</label>
      <textarea className={`${className} ${invalidClass}`} id={id} name={name} {...control} {...textarea} />
      <Lines error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </div>
  )
}
