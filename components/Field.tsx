// A labelled text input, the form row every page repeats: the label names the input by id, and an
// optional hint sits under it.
import type { InputHTMLAttributes, ReactNode } from 'react'

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { name: string; label: ReactNode; hint?: ReactNode }

export function Field({ name, label, hint, id = name, className = 'input', ...input }: FieldProps) {
  return (
    <div>
      <label className="label" htmlFor={id}>{label}</label>
      <input className={className} id={id} name={name} {...input} />
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
    </div>
  )
}
