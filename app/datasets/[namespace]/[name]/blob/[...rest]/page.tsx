import { blobPageFor, fileMetadataFor } from '@/app/_repo/page-for-type'

export const generateMetadata = fileMetadataFor('dataset', 'blob')
export default blobPageFor('dataset')
