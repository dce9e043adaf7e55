import Link from 'next/link'
import { redirect } from 'next/navigation'
import { auth } from '@/lib/auth/nextauth'
import { safeNextPath } from '@/lib/http/next-path'
import { ActionForm } from '@/components/ActionForm'
import { signInAction } from '@/app/actions/session'
import { Field } from '@/components/Field'

export const metadata = { title: 'Sign in' }

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next = '/' } = await searchParams
  if ((await auth())?.user) redirect(safeNextPath(next))
  return (
    <div className="mx-auto max-w-sm">
      <h1 className="mb-6 text-2xl font-semibold">Sign in to ModHub</h1>
      <div className="card">
        <ActionForm action={signInAction} submit="Sign in" submitClassName="btn-primary w-full">
          <input type="hidden" name="next" value={next} />
          <Field name="login" label="Username or e-mail" autoComplete="username" required autoFocus />
          <Field name="password" label="Password" type="password" autoComplete="current-password" required />
        </ActionForm>
      </div>
      <p className="mt-4 text-center text-sm text-slate-600">
        New here? <Link className="link" href={`/join?next=${encodeURIComponent(next)}`}>Create an account</Link>
      </p>
    </div>
  )
}
