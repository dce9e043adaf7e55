'use client'
// Links of the header and the settings menu that say which page (or section) is open:
// aria-current for screen readers, a visible mark for everyone. Client-side because a layout is not
// told the path it is rendered for.
import Link from 'next/link'
import { usePathname, useSearchParams } from 'next/navigation'
import { Suspense } from 'react'

type Props = {
  href: string
  children: React.ReactNode
  className: string
  /** Classes added while the link is the open page or an ancestor of it. */
  currentClassName: string
  /** Paths that count as this link's section besides `href` and what is under it. */
  section?: string
}

export function NavLink({ href, children, className, currentClassName, section }: Props) {
  const pathname = usePathname()
  const within = (base: string) => pathname === base || pathname.startsWith(`${base}/`)
  const current = within(href) || (section !== undefined && within(section))
  return (
    <Link href={href} className={`${className} ${current ? currentClassName : ''}`} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  )
}

/** `?next=` for the page the visitor is on, its query included (a search, a tab, a code to enter),
 * so that signing in brings them back to it. */
function backQuery(pathname: string, search: string): string {
  if (pathname === '/' || pathname === '/login' || pathname === '/join') return ''
  return `?next=${encodeURIComponent(search ? `${pathname}?${search}` : pathname)}`
}

type WithBack = { children: (back: string) => React.ReactNode }

function WithSearch({ pathname, children }: WithBack & { pathname: string }) {
  return children(backQuery(pathname, useSearchParams().toString()))
}

/** Renders `children` with the page's `?next=`. Reading the query suspends a statically rendered
 * page until it hydrates; until then the links carry the path alone. */
function WithBackQuery({ children }: WithBack) {
  const pathname = usePathname()
  return (
    <Suspense fallback={children(backQuery(pathname, ''))}>
      <WithSearch pathname={pathname}>{children}</WithSearch>
    </Suspense>
  )
}

/** "Sign in", back to this page afterwards (the 404 page: a private repository may be behind it). */
export function SignInLink({ className, children }: { className: string; children: React.ReactNode }) {
  return <WithBackQuery>{(back) => <Link href={`/login${back}`} className={className}>{children}</Link>}</WithBackQuery>
}

/** "Sign in" and "Sign up" of the header, both back to the page they were on. */
export function AccountLinks() {
  return (
    <WithBackQuery>
      {(back) => (
        <>
          <Link href={`/login${back}`} className="text-slate-700 hover:text-slate-900">Sign in</Link>
          <Link href={`/join${back}`} className="btn-primary">Sign up</Link>
        </>
      )}
    </WithBackQuery>
  )
}
