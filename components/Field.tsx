'use client'
// A labelled text input, the form row every page repeats: the label names the input by id, an
// optional hint sits under it, and inside an ActionForm the last answer's problem with this field
// (FieldErrors) is shown under it too, the input marked invalid and described by it.
import { useContext, type InputHTMLAttributes, type ReactNode } from 'react'
import { FieldErrors } from '@/components/ActionForm'

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { name: string; label: ReactNode; hint?: ReactNode }

export function Field({ name, label, hint, id = name, className = 'input', ...input }: FieldProps) {
  const error = useContext(FieldErrors)[name]
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  return (
    <div>
      <label className="label" htmlFor={id}>{label}</label>
      <input
        className={`${className} ${error ? 'border-red-400 focus:border-red-500 focus:ring-red-100' : ''}`}
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      {error && <p id={errorId} className="mt-1 text-xs text-red-700">{error}</p>}
      {hint && <p id={hintId} className="mt-1 text-xs text-slate-500">{hint}</p>}
    </div>
  )
}
