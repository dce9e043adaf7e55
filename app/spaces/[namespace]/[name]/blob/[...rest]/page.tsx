import { repoPageMetadata } from '@/components/RepoPage'
import { blobPageFor } from '@/app/_repo/page-for-type'

export const generateMetadata = repoPageMetadata
export default blobPageFor('space')
