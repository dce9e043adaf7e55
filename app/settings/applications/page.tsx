import { signedInCaller } from '@/lib/auth/caller'
import { deletedAppNotice, listApps } from '@/lib/oauth/clients/apps'
import { AppList } from '@/app/settings/applications/AppList'

export const metadata = { title: 'OAuth apps' }

export default async function ApplicationsPage({ searchParams }: { searchParams: Promise<{ deleted?: string | string[] }> }) {
  const caller = await signedInCaller('/settings/applications')
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold">OAuth apps</h1>
      <p className="text-sm text-slate-600">Apps you register here can offer “Sign in with ModHub” and act for the users who approve them, within the scopes they approve.</p>
      <AppList apps={await listApps({ kind: 'user', userId: caller.userId })} basePath="/settings/applications" notice={await deletedAppNotice((await searchParams).deleted)} />
    </div>
  )
}
