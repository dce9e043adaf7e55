// The three repository routes (models at /ns/name, /datasets/ns/name, /spaces/ns/name) share one
// page; this folder is private to app/ (Next routes no `_` folder).
import { RepoPage, repoPageTitle, type RepoPageActions, type RepoPageQuery } from '@/components/RepoPage'
import { decideAccessAction, deleteRepoAction, repoSettingsAction, requestAccessAction } from '@/app/actions/hub'
import { notFound, redirect } from 'next/navigation'
import { namespaceName, repoName, repoPath, type RepoType } from '@/lib/hub/names'

const ACTIONS: RepoPageActions = { requestAccess: requestAccessAction, saveSettings: repoSettingsAction, decideAccess: decideAccessAction, deleteRepo: deleteRepoAction }

type SearchParams = Promise<Record<string, string | string[] | undefined>>

type RepoRouteProps = { params: Promise<{ namespace: string; name: string }>; searchParams: SearchParams }

/** generateMetadata of one repository type's page: its tab names it ("History · ns/name"). */
export function repoMetadataFor(type: RepoType) {
  return async function generateMetadata({ params, searchParams }: RepoRouteProps) {
    const { namespace, name } = await params
    const search = await searchParams
    const one = (key: keyof RepoPageQuery) => (typeof search[key] === 'string' ? (search[key] as string) : undefined)
    return repoPageTitle(type, decoded(namespace), decoded(name), { tab: one('tab'), rev: one('rev') })
  }
}

/** generateMetadata of a file's page or editor: "README.md · ns/name at main", "Edit README.md · …". */
export function fileMetadataFor(type: RepoType, kind: 'blob' | 'edit') {
  return async function generateMetadata({ params }: FileRouteProps) {
    const { namespace, name, rest } = await params
    const { rev, path } = revisionAndPath(rest)
    return repoPageTitle(type, decoded(namespace), decoded(name), kind === 'blob' ? { rev, file: path } : { rev, edit: path })
  }
}

/** The page component of one repository type's route (models at /ns/name, datasets and spaces under their prefix). */
export function repoPageFor(type: RepoType) {
  return async function Page({ params, searchParams }: RepoRouteProps) {
    const { namespace, name } = await params
    const search = await searchParams
    const one = (key: keyof RepoPageQuery) => (typeof search[key] === 'string' ? (search[key] as string) : undefined)
    return <RepoPage type={type} namespace={decoded(namespace)} name={decoded(name)} query={{ tab: one('tab'), rev: one('rev'), path: one('path') }} actions={ACTIONS} />
  }
}


type FileRouteProps = { params: Promise<{ namespace: string; name: string; rest: string[] }>; searchParams: SearchParams }

/** A path segment decoded, or a 404 for one that is not valid percent-encoding. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    notFound()
  }
}

/** `{rev}/{path…}` of a Hub-style file URL; the revision is one segment (a branch with a slash is sent encoded, as the Hub does). */
function revisionAndPath(rest: string[]): { rev: string; path: string } {
  const [rev = 'main', ...path] = rest.map(decoded)
  return { rev, path: path.join('/') }
}

/** /{ns}/{name}/blob/{rev}/{path}: the file's own page, in the repository's "Files and versions" tab (?committed= after an edit). */
export function blobPageFor(type: RepoType) {
  return async function Page({ params, searchParams }: FileRouteProps) {
    const { namespace, name, rest } = await params
    const { rev, path } = revisionAndPath(rest)
    const { committed } = await searchParams
    return <RepoPage type={type} namespace={decoded(namespace)} name={decoded(name)} query={{ tab: 'files', rev, file: path, committed: typeof committed === 'string' ? committed : undefined }} actions={ACTIONS} />
  }
}

/** /{ns}/{name}/edit/{branch}/{path}: a text file's editor (README.md also when it does not exist yet), for writers. */
export function editPageFor(type: RepoType) {
  return async function Page({ params }: FileRouteProps) {
    const { namespace, name, rest } = await params
    const { rev, path } = revisionAndPath(rest)
    return <RepoPage type={type} namespace={decoded(namespace)} name={decoded(name)} query={{ tab: 'files', rev, edit: path }} actions={ACTIONS} />
  }
}

/** /{ns}/{name}/tree/{rev}/{folder} and /commits/{rev}: the Hub's URLs for a folder and a history, on this hub's tabs. */
export function redirectPageFor(type: RepoType, tab: 'files' | 'history') {
  return async function Page({ params }: FileRouteProps) {
    const { namespace, name, rest } = await params
    // Only a repository's own name goes into the Location: "/%2Fevil.com/x/tree/main" would
    // otherwise redirect to //evil.com (another site), and a control character would be a 500.
    const ns = namespaceName.safeParse(decoded(namespace))
    const repo = repoName.safeParse(decoded(name))
    if (!ns.success || !repo.success) notFound()
    const { rev, path } = revisionAndPath(rest)
    // A folder of the files tab; a file or folder whose history /commits/{rev}/{path} asks for.
    const query = new URLSearchParams({ tab, rev, ...(path ? { path } : {}) })
    redirect(`${repoPath(type, ns.data, repo.data)}?${query}`)
  }
}
