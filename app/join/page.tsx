import Link from 'next/link'
import { ActionForm } from '@/components/ActionForm'
import { signUpAction } from '@/app/actions/session'

export const metadata = { title: 'Sign up' }

export default async function JoinPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next = '/' } = await searchParams
  return (
    <div className="mx-auto max-w-sm">
      <h1 className="mb-6 text-2xl font-semibold">Create your ModHub account</h1>
      <div className="card">
        <ActionForm action={signUpAction} submit="Create account" submitClassName="btn-primary w-full">
          <input type="hidden" name="next" value={next} />
          <div>
            <label className="label" htmlFor="username">Username</label>
            <input className="input" id="username" name="username" autoComplete="username" required maxLength={42} autoFocus />
            <p className="mt-1 text-xs text-slate-500">Letters, digits and dashes. Your profile will be at /username.</p>
          </div>
          <div>
            <label className="label" htmlFor="fullname">Full name</label>
            <input className="input" id="fullname" name="fullname" autoComplete="name" maxLength={100} />
          </div>
          <div>
            <label className="label" htmlFor="email">E-mail</label>
            <input className="input" id="email" name="email" type="email" autoComplete="email" required />
          </div>
          <div>
            <label className="label" htmlFor="password">Password</label>
            <input className="input" id="password" name="password" type="password" autoComplete="new-password" required minLength={8} />
            <p className="mt-1 text-xs text-slate-500">At least 8 characters.</p>
          </div>
        </ActionForm>
      </div>
      <p className="mt-4 text-center text-sm text-slate-600">
        Already have an account? <Link className="link" href="/login">Sign in</Link>
      </p>
    </div>
  )
}
