import type { Metadata } from 'next'
import Link from 'next/link'
import { orNotFound } from '@/lib/http/page-errors'
import { signedInCaller } from '@/lib/auth/caller'
import { authorizedOrg } from '@/lib/hub/orgs'
import { deletedAppNotice, listApps } from '@/lib/oauth/clients/apps'
import { AppList } from '@/app/settings/applications/AppList'

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }): Promise<Metadata> {
  return { title: `${decodeURIComponent((await params).name)} OAuth apps` }
}

export default async function OrgAppsPage({ params, searchParams }: { params: Promise<{ name: string }>; searchParams: Promise<{ deleted?: string | string[] }> }) {
  const name = decodeURIComponent((await params).name)
  const caller = await signedInCaller(`/organizations/${name}/apps`)
  const org = await orNotFound(authorizedOrg(caller, name))
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <p className="text-sm text-slate-500"><Link className="link" href={`/organizations/${org.name}/settings`}>Organization settings</Link></p>
        <h1 className="text-2xl font-semibold">OAuth apps of {org.name}</h1>
      </div>
      <AppList apps={await listApps({ kind: 'org', orgId: org.id })} basePath={`/organizations/${org.name}/apps`} org={org.name} notice={await deletedAppNotice((await searchParams).deleted)} />
    </div>
  )
}
