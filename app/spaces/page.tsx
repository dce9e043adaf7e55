import { RepoIndex } from '@/components/RepoIndex'

export const metadata = { title: 'Spaces' }

export default async function Page({ searchParams }: { searchParams: Promise<{ search?: string }> }) {
  const { search } = await searchParams
  return <RepoIndex type="space" title="Spaces" search={typeof search === 'string' ? search : undefined} />
}
