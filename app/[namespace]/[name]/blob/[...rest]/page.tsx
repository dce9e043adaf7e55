import { blobPageFor, fileMetadataFor } from '@/app/_repo/page-for-type'

export const generateMetadata = fileMetadataFor('model', 'blob')
export default blobPageFor('model')
