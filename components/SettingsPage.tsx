// The frame of a settings page: its title (with an optional action beside it, such as "New
// organization"), then its sections.
import type { ReactNode } from 'react'

type Props = { title: string; width?: 'max-w-xl' | 'max-w-2xl' | 'max-w-3xl'; action?: ReactNode; children: ReactNode }

export function SettingsPage({ title, width = 'max-w-3xl', action, children }: Props) {
  return (
    <div className={`${width} space-y-6`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {action}
      </div>
      {children}
    </div>
  )
}
