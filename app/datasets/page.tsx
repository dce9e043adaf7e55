import { RepoIndex } from '@/components/RepoIndex'

export const metadata = { title: 'Datasets' }

export default async function Page({ searchParams }: { searchParams: Promise<{ search?: string }> }) {
  const { search } = await searchParams
  return <RepoIndex type="dataset" title="Datasets" search={typeof search === 'string' ? search : undefined} />
}
