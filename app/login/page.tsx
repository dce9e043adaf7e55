import Link from 'next/link'
import { redirect } from 'next/navigation'
import { auth } from '@/lib/auth/nextauth'
import { safeNextPath } from '@/lib/http/next-path'
import { AccountFormCard } from '@/components/AccountFormCard'
import { signInAction } from '@/app/actions/session'
import { Field } from '@/components/Field'

export const metadata = { title: 'Sign in' }

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  // A repeated ?next= arrives as a list: only one plain path is followed.
  const { next: asked } = await searchParams
  const next = typeof asked === 'string' ? asked : '/'
  if ((await auth())?.user) redirect(safeNextPath(next))
  return (
    <AccountFormCard
      title="Sign in to ModHub"
      action={signInAction}
      submit="Sign in"
      next={next}
      footer={<>New here? <Link className="link" href={`/join?next=${encodeURIComponent(next)}`}>Create an account</Link></>}
    >
      <Field name="login" label="Username or e-mail" autoComplete="username" required autoFocus />
      <Field name="password" label="Password" type="password" autoComplete="current-password" required />
    </AccountFormCard>
  )
}
