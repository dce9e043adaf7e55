import { notFound } from 'next/navigation'
import { signedInCaller } from '@/lib/auth/caller'
import { HubError } from '@/lib/http/errors'
import { manageableApp } from '@/lib/oauth/clients/apps'
import { AppEditor } from '@/app/settings/applications/AppEditor'

export const metadata = { title: 'OAuth app' }

export default async function ApplicationPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params
  const app = await manageableApp(await signedInCaller(`/settings/applications/${encodeURIComponent(appId)}`), appId).catch((e) => {
    if (e instanceof HubError) notFound()
    throw e
  })
  if (app.ownerOrgId) notFound() // organization apps are managed under the organization
  return <AppEditor app={app} backHref="/settings/applications" />
}
