// The three repository routes (models at /ns/name, /datasets/ns/name, /spaces/ns/name) share one
// page; this folder is private to app/ (Next routes no `_` folder).
import { RepoPage, type RepoPageActions, type RepoPageQuery } from '@/components/RepoPage'
import { decideAccessAction, deleteRepoAction, repoSettingsAction, requestAccessAction } from '@/app/actions/hub'
import type { RepoType } from '@/lib/hub/names'

const ACTIONS: RepoPageActions = { requestAccess: requestAccessAction, saveSettings: repoSettingsAction, decideAccess: decideAccessAction, deleteRepo: deleteRepoAction }

type RepoRouteProps = { params: Promise<{ namespace: string; name: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }

/** The page component of one repository type's route (models at /ns/name, datasets and spaces under their prefix). */
export function repoPageFor(type: RepoType) {
  return async function Page({ params, searchParams }: RepoRouteProps) {
    const { namespace, name } = await params
    const search = await searchParams
    const one = (key: keyof RepoPageQuery) => (typeof search[key] === 'string' ? (search[key] as string) : undefined)
    return <RepoPage type={type} namespace={decodeURIComponent(namespace)} name={decodeURIComponent(name)} query={{ tab: one('tab'), rev: one('rev'), path: one('path') }} actions={ACTIONS} />
  }
}

