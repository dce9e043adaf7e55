import { repoPageFor, repoPageMetadata } from '@/components/RepoPage'

export const generateMetadata = repoPageMetadata
export default repoPageFor('dataset')
