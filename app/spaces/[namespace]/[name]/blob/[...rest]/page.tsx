import { blobPageFor, fileMetadataFor } from '@/app/_repo/page-for-type'

export const generateMetadata = fileMetadataFor('space', 'blob')
export default blobPageFor('space')
