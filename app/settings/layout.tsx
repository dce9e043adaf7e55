import { NavLink } from '@/components/NavLink'

const SECTIONS = [
  ['/settings/profile', 'Profile'],
  ['/settings/password', 'Password'],
  ['/settings/tokens', 'Access tokens'],
  ['/settings/organizations', 'Organizations'],
  ['/settings/applications', 'OAuth apps'],
  ['/settings/authorized-apps', 'Authorized apps'],
  ['/settings/publishers', 'Trusted publishers'],
  ['/settings/access-requests', 'Access requests'],
] as const

export default async function SettingsLayout({ children }: { children: React.ReactNode }) {
  // Each page sends signed-out visitors to sign in and back to itself: a layout does not know the path.
  return (
    <div className="grid gap-8 md:grid-cols-[12rem_1fr]">
      <nav aria-label="Settings">
        <ul className="space-y-1 text-sm">
          {SECTIONS.map(([href, label]) => (
            <li key={href}><NavLink className="block rounded-md px-3 py-2 hover:bg-white hover:shadow-sm" currentClassName="bg-white font-medium shadow-sm" href={href}>{label}</NavLink></li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0">{children}</div>
    </div>
  )
}
