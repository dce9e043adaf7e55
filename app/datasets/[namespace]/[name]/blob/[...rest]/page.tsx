import { blobPageFor, repoMetadataFor } from '@/app/_repo/page-for-type'

export const generateMetadata = repoMetadataFor('dataset')
export default blobPageFor('dataset')
