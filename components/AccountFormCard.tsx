// The sign-in and sign-up pages' shape: a heading, one card with the form (which carries where to
// go next), and a line under it pointing to the other page.
import type { ReactNode } from 'react'
import type { FormState } from '@/lib/http/form'
import { ActionForm } from '@/components/ActionForm'

type Props = {
  title: string
  action: (state: FormState, form: FormData) => Promise<FormState>
  submit: string
  /** Where to go after success: a same-site path, passed through the form. */
  next: string
  footer: ReactNode
  children: ReactNode
}

export function AccountFormCard({ title, action, submit, next, footer, children }: Props) {
  return (
    <div className="mx-auto max-w-sm">
      <h1 className="mb-6 text-2xl font-semibold">{title}</h1>
      <div className="card">
        <ActionForm action={action} submit={submit} submitClassName="btn-primary w-full">
          <input type="hidden" name="next" value={next} />
          {children}
        </ActionForm>
      </div>
      <p className="mt-4 text-center text-sm text-slate-600">{footer}</p>
    </div>
  )
}
