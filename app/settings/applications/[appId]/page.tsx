import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { sessionCaller, signedInCaller } from '@/lib/auth/caller'
import { HubError } from '@/lib/http/errors'
import { manageableApp } from '@/lib/oauth/clients/apps'
import { AppEditor } from '@/app/settings/applications/AppEditor'

/** Titled with the app's name for those who may manage it; anyone else gets the section's name. */
export async function generateMetadata({ params }: { params: Promise<{ appId: string }> }): Promise<Metadata> {
  const app = await manageableApp(await sessionCaller(), (await params).appId).catch((e) => {
    if (e instanceof HubError) return null
    throw e
  })
  return { title: app && !app.ownerOrgId ? `${app.name} · OAuth apps` : 'OAuth apps' }
}

export default async function ApplicationPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params
  const app = await manageableApp(await signedInCaller(`/settings/applications/${encodeURIComponent(appId)}`), appId).catch((e) => {
    if (e instanceof HubError) notFound()
    throw e
  })
  if (app.ownerOrgId) notFound() // organization apps are managed under the organization
  return <AppEditor app={app} backHref="/settings/applications" />
}
