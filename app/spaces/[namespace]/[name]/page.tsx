import type { Metadata } from 'next'
import { RepoPage, type RepoPageQuery } from '@/components/RepoPage'

type Props = { params: Promise<{ namespace: string; name: string }>; searchParams: Promise<RepoPageQuery> }

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { namespace, name } = await params
  return { title: `${decodeURIComponent(namespace)}/${decodeURIComponent(name)}` }
}

export default async function Page({ params, searchParams }: Props) {
  const { namespace, name } = await params
  const query = await searchParams
  return (
    <RepoPage
      type="space"
      namespace={decodeURIComponent(namespace)}
      name={decodeURIComponent(name)}
      query={{ tab: typeof query.tab === 'string' ? query.tab : undefined, rev: typeof query.rev === 'string' ? query.rev : undefined, path: typeof query.path === 'string' ? query.path : undefined }}
    />
  )
}
