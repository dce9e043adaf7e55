import { RepoIndex } from '@/components/RepoIndex'

export const metadata = { title: 'Models' }

export default async function Page({ searchParams }: { searchParams: Promise<{ search?: string }> }) {
  const { search } = await searchParams
  return <RepoIndex type="model" title="Models" search={typeof search === 'string' ? search : undefined} />
}
