import { RepoIndex } from '@/components/RepoIndex'

export const metadata = { title: 'Models' }

export default async function Page({ searchParams }: { searchParams: Promise<{ search?: string; task?: string }> }) {
  const { search, task } = await searchParams
  return <RepoIndex type="model" title="Models" search={typeof search === 'string' ? search : undefined} task={typeof task === 'string' && task !== '' ? task : undefined} />
}
