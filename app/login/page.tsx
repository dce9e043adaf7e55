import Link from 'next/link'
import { redirect } from 'next/navigation'
import { auth } from '@/lib/auth/nextauth'
import { safeNextPath } from '@/lib/http/next-path'
import { ActionForm } from '@/components/ActionForm'
import { signInAction } from '@/app/actions/session'

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
          <div>
            <label className="label" htmlFor="login">Username or e-mail</label>
            <input className="input" id="login" name="login" autoComplete="username" required autoFocus />
          </div>
          <div>
            <label className="label" htmlFor="password">Password</label>
            <input className="input" id="password" name="password" type="password" autoComplete="current-password" required />
          </div>
        </ActionForm>
      </div>
      <p className="mt-4 text-center text-sm text-slate-600">
        New here? <Link className="link" href={`/join?next=${encodeURIComponent(next)}`}>Create an account</Link>
      </p>
    </div>
  )
}
