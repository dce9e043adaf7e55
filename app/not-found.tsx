import Link from 'next/link'
import { auth } from '@/lib/auth/nextauth'
import { SignInLink } from '@/components/NavLink'

export default async function NotFound() {
  // A private repository or organization page is a 404 to those who may not see it: signed out,
  // the visitor may well be someone who may, once signed in.
  const signedIn = Boolean((await auth())?.user)
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-2xl font-semibold">404: not found</h1>
      <p className="mt-2 text-slate-600">This page does not exist, or you do not have access to it.</p>
      <div className="mt-6 flex justify-center gap-3">
        <Link className="btn-primary" href="/">Go home</Link>
        {!signedIn && <SignInLink className="btn-secondary">Sign in to see private pages</SignInLink>}
      </div>
    </div>
  )
}
