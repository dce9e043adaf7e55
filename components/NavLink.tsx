'use client'
// Links of the header and the settings menu that say which page (or section) is open:
// aria-current for screen readers, a visible mark for everyone. Client-side because a layout is not
// told the path it is rendered for.
import Link from 'next/link'
import { usePathname } from 'next/navigation'

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

/** "Sign in" and "Sign up" that bring the visitor back to the page they were on. */
export function AccountLinks() {
  const pathname = usePathname()
  const back = pathname === '/' || pathname === '/login' || pathname === '/join' ? '' : `?next=${encodeURIComponent(pathname)}`
  return (
    <>
      <Link href={`/login${back}`} className="text-slate-700 hover:text-slate-900">Sign in</Link>
      <Link href={`/join${back}`} className="btn-primary">Sign up</Link>
    </>
  )
}
