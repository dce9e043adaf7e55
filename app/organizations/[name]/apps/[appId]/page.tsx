import type { Metadata } from 'next'
import { notFound, redirect } from 'next/navigation'
import { db } from '@/lib/db'
import { sessionCaller } from '@/lib/auth/caller'
import { HubError } from '@/lib/http/errors'
import { manageableApp } from '@/lib/oauth/clients/apps'
import { AppEditor } from '@/app/settings/applications/AppEditor'
import { ExchangeSettings } from './ExchangeSettings'

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }): Promise<Metadata> {
  return { title: `OAuth app · ${decodeURIComponent((await params).name)}` }
}

export default async function OrgAppPage({ params }: { params: Promise<{ name: string; appId: string }> }) {
  const { name: rawName, appId } = await params
  const name = decodeURIComponent(rawName)
  const caller = await sessionCaller()
  if (!caller) redirect(`/login?next=/organizations/${name}/apps/${appId}`)
  const app = await manageableApp(caller, appId).catch((e) => {
    if (e instanceof HubError) notFound()
    throw e
  })
  const org = await db.org.findUnique({ where: { name } })
  if (!org || app.ownerOrgId !== org.id) notFound()
  return (
    <div className="space-y-8">
      <AppEditor app={app} backHref={`/organizations/${org.name}/apps`} org={org.name} />
      <div className="max-w-3xl">
        <ExchangeSettings org={org.name} app={app} />
      </div>
    </div>
  )
}
