import Link from 'next/link'
import { redirect } from 'next/navigation'
import { auth } from '@/lib/auth/nextauth'
import { safeNextPath } from '@/lib/http/next-path'
import { AccountFormCard } from '@/components/AccountFormCard'
import { signInAction } from '@/app/actions/session'
import { Field } from '@/components/Field'
import { accountAwaitingSignIn, appAwaitingSignIn } from '@/lib/oauth/authorize'

export const metadata = { title: 'Sign in' }

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[]; reauth?: string | string[] }> }) {
  // A repeated ?next= arrives as a list: only one plain path is followed.
  const { next: asked, reauth } = await searchParams
  const next = typeof asked === 'string' ? asked : '/'
  const session = await auth()
  // reauth=1: an app asked the user to sign in again (OAuth prompt=login, max_age), perhaps as another account.
  const again = reauth === '1' && Boolean(session?.user)
  if (session?.user && !again) redirect(safeNextPath(next))
  // On the way to an app's authorization request: say which app the account is for, and which
  // account, when the app named one (id_token_hint: the request is answered for no other).
  const [app, hinted] = await Promise.all([appAwaitingSignIn(next), accountAwaitingSignIn(next)])
  const signedInAs = session?.user?.name ?? null
  const asWho = hinted ? <> as <strong>{hinted}</strong></> : null
  return (
    <AccountFormCard
      title={again ? 'Sign in again to continue' : 'Sign in to ModHub'}
      action={signInAction}
      submit="Sign in"
      next={next}
      footer={
        <>
          New here? <Link className="link" href={`/join?next=${encodeURIComponent(next)}`}>Create an account</Link>
          {/* The hub sends no e-mail: a lost password is reset by an operator (README, A hub for real use). */}
          <span className="mt-1 block">Forgot your password? The hub&apos;s operator can give you a new one.</span>
        </>
      }
    >
      {app && !again && <p className="text-sm text-slate-600" data-testid="signing-in-for">to continue to <strong>{app}</strong>{asWho}</p>}
      {again && hinted && hinted !== signedInAs && (
        <p className="text-sm text-slate-600" data-testid="signing-in-for">
          {app ? <><strong>{app}</strong> asks</> : 'The app you are signing in to asks'} you to sign in{asWho}; you are signed in as <strong>{signedInAs}</strong>.
        </p>
      )}
      {again && !(hinted && hinted !== signedInAs) && <p className="text-sm text-slate-600">{app ? <><strong>{app}</strong> asks</> : 'The app you are signing in to asks'} you to confirm who you are. You may sign in as another account.</p>}
      <Field name="login" label="Username or e-mail" autoComplete="username" required autoFocus={!again && !hinted} defaultValue={hinted ?? (again ? (signedInAs ?? undefined) : undefined)} />
      <Field name="password" label="Password" type="password" autoComplete="current-password" required autoFocus={again || Boolean(hinted)} />
    </AccountFormCard>
  )
}
