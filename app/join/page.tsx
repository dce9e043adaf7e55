import Link from 'next/link'
import { ActionForm } from '@/components/ActionForm'
import { signUpAction } from '@/app/actions/session'
import { Field } from '@/components/Field'

export const metadata = { title: 'Sign up' }

export default async function JoinPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next = '/' } = await searchParams
  return (
    <div className="mx-auto max-w-sm">
      <h1 className="mb-6 text-2xl font-semibold">Create your ModHub account</h1>
      <div className="card">
        <ActionForm action={signUpAction} submit="Create account" submitClassName="btn-primary w-full">
          <input type="hidden" name="next" value={next} />
          <Field name="username" label="Username" autoComplete="username" required maxLength={42} autoFocus hint="Letters, digits and dashes. Your profile will be at /username." />
          <Field name="fullname" label="Full name" autoComplete="name" maxLength={100} />
          <Field name="email" label="E-mail" type="email" autoComplete="email" required />
          <Field name="password" label="Password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." />
        </ActionForm>
      </div>
      <p className="mt-4 text-center text-sm text-slate-600">
        Already have an account? <Link className="link" href="/login">Sign in</Link>
      </p>
    </div>
  )
}
