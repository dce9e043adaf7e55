import type { Metadata } from 'next'
import Link from 'next/link'
import './globals.css'
import { auth } from '@/lib/auth/nextauth'
import { isHubOperator } from '@/lib/hub/users'
import { invitationCount } from '@/lib/hub/invitations'
import { operatorDecision } from '@/lib/policy'
import { signOutAction } from '@/app/actions/session'
import { AccountLinks, NavLink } from '@/components/NavLink'

export const metadata: Metadata = {
  title: { default: 'ModHub', template: '%s · ModHub' },
  description: 'An open model hub for responsible AI: sign-in with OAuth, a moderation API, and models that run on the server or in the browser.',
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const session = await auth()
  const name = session?.user?.name
  const userId = session?.user?.id
  const [isOperator, invitations] = await Promise.all([isHubOperator(userId), invitationCount(userId)])
  const showOperator = operatorDecision(userId ? { userId, principal: null } : null, isOperator) === 'allow'
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <header className="border-b border-slate-200 bg-white">
          {/* On narrow screens the section links, then the account's, take a row each and wrap: nothing is hidden
              off-screen, and the rows read (and Tab goes) in the order they are written here. */}
          <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
            <Link href="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
              <span aria-hidden className="grid h-7 w-7 place-items-center rounded-md bg-brand-600 text-sm text-on-accent">M</span>
              ModHub
            </Link>
            <ul className="flex w-full flex-wrap items-center gap-x-4 gap-y-1 whitespace-nowrap text-sm text-slate-600 md:w-auto">
              <li><NavLink className="hover:text-slate-900" currentClassName="font-medium text-slate-900" href="/models">Models</NavLink></li>
              <li><NavLink className="hover:text-slate-900" currentClassName="font-medium text-slate-900" href="/datasets">Datasets</NavLink></li>
              <li><NavLink className="hover:text-slate-900" currentClassName="font-medium text-slate-900" href="/spaces">Spaces</NavLink></li>
              <li><NavLink className="hover:text-slate-900" currentClassName="font-medium text-slate-900" href="/rai/v1/raimoderationmodels/docs" section="/rai">Moderation API</NavLink></li>
              <li><NavLink className="hover:text-slate-900" currentClassName="font-medium text-slate-900" href="/playground">Playground</NavLink></li>
              <li><NavLink className="hover:text-slate-900" currentClassName="font-medium text-slate-900" href="/transformer2d">Transformer2D</NavLink></li>
            </ul>
            <div className="flex w-full flex-wrap items-center gap-x-3 gap-y-1 whitespace-nowrap text-sm md:ml-auto md:w-auto md:justify-end">
              {name ? (
                <>
                  <Link href="/new" className="btn-secondary px-2.5 py-1">New repo</Link>
                  {showOperator && <Link href="/operator" className="text-slate-600 hover:text-slate-900">Operator</Link>}
                  {invitations > 0 && (
                    <Link href="/settings/organizations" className="badge border-amber-300 bg-amber-50 text-amber-900 hover:bg-amber-100">
                      {invitations === 1 ? '1 invitation' : `${invitations} invitations`}
                    </Link>
                  )}
                  <Link href={`/${name}`} className="font-medium hover:underline">{name}</Link>
                  <Link href="/settings/profile" className="text-slate-600 hover:text-slate-900">Settings</Link>
                  <form action={signOutAction}>
                    <button type="submit" className="text-slate-600 hover:text-slate-900">Sign out</button>
                  </form>
                </>
              ) : (
                <AccountLinks />
              )}
            </div>
          </nav>
        </header>
        <main id="main" className="mx-auto max-w-6xl px-4 py-8">
          {children}
        </main>
        <footer className="mx-auto max-w-6xl px-4 pb-10 pt-4 text-xs text-slate-500">ModHub · open model hub for responsible AI</footer>
      </body>
    </html>
  )
}
