import { blobPageFor, repoMetadataFor } from '@/app/_repo/page-for-type'

export const generateMetadata = repoMetadataFor('space')
export default blobPageFor('space')
