import { RepoPage, repoPageMetadata } from '@/components/RepoPage'

export const generateMetadata = repoPageMetadata

export default async function Page({ params }: { params: Promise<{ namespace: string; name: string }> }) {
  const { namespace, name } = await params
  return <RepoPage type="model" namespace={decodeURIComponent(namespace)} name={decodeURIComponent(name)} />
}
