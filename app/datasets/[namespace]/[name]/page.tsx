import { repoPageMetadata } from '@/components/RepoPage'
import { repoPageFor } from '@/app/_repo/page-for-type'

export const generateMetadata = repoPageMetadata
export default repoPageFor('dataset')
