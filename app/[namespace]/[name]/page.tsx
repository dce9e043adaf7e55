import { repoPageFor, repoMetadataFor } from '@/app/_repo/page-for-type'

export const generateMetadata = repoMetadataFor('model')
export default repoPageFor('model')
