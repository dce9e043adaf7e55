import Link from 'next/link'
import { redirect } from 'next/navigation'
import { auth } from '@/lib/auth/nextauth'
import { safeNextPath } from '@/lib/http/next-path'
import { AccountFormCard } from '@/components/AccountFormCard'
import { signUpAction } from '@/app/actions/session'
import { Field } from '@/components/Field'

export const metadata = { title: 'Sign up' }

export default async function JoinPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  // A repeated ?next= arrives as a list: only one plain path is followed.
  const { next: asked } = await searchParams
  const next = typeof asked === 'string' ? asked : '/'
  // Signed in already: signing up would switch the session to a new account without a word, as the sign-in page does not.
  if ((await auth())?.user) redirect(safeNextPath(next))
  return (
    <AccountFormCard
      title="Create your ModHub account"
      action={signUpAction}
      submit="Create account"
      next={next}
      footer={<>Already have an account? <Link className="link" href={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`}>Sign in</Link></>}
    >
      <Field name="username" label="Username" autoComplete="username" required maxLength={42} autoFocus hint="Letters, digits and dashes. Your profile will be at /username." />
      <Field name="fullname" label="Full name" autoComplete="name" maxLength={100} />
      <Field name="email" label="E-mail" type="email" autoComplete="email" required />
      <Field name="password" label="Password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." />
    </AccountFormCard>
  )
}
