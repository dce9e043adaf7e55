import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { authorizedOrg } from '@/lib/hub/orgs'
import { sessionCaller, signedInCaller } from '@/lib/auth/caller'
import { HubError } from '@/lib/http/errors'
import { orNotFound } from '@/lib/http/page-errors'
import { manageableApp } from '@/lib/oauth/clients/apps'
import { AppEditor } from '@/app/settings/applications/AppEditor'
import { ExchangeSettings } from './ExchangeSettings'

/** Titled with the app's name for those who may manage it; anyone else gets the section's name. */
export async function generateMetadata({ params }: { params: Promise<{ name: string; appId: string }> }): Promise<Metadata> {
  const { name: rawName, appId } = await params
  const name = decodeURIComponent(rawName)
  const caller = await sessionCaller()
  const refused = (e: unknown) => {
    if (e instanceof HubError) return null
    throw e
  }
  const [app, org] = await Promise.all([manageableApp(caller, appId).catch(refused), authorizedOrg(caller, name).catch(refused)])
  return { title: app && org && app.ownerOrgId === org.id ? `${app.name} · OAuth apps of ${org.name}` : `OAuth apps of ${name}` }
}

export default async function OrgAppPage({ params }: { params: Promise<{ name: string; appId: string }> }) {
  const { name: rawName, appId } = await params
  const name = decodeURIComponent(rawName)
  const caller = await signedInCaller(`/organizations/${name}/apps/${appId}`)
  const app = await orNotFound(manageableApp(caller, appId))
  const org = await orNotFound(authorizedOrg(caller, name))
  if (app.ownerOrgId !== org.id) notFound()
  return (
    <div className="space-y-8">
      <AppEditor app={app} backHref={`/organizations/${org.name}/apps`} org={org.name} />
      <div className="max-w-3xl">
        <ExchangeSettings org={org.name} app={app} />
      </div>
    </div>
  )
}
