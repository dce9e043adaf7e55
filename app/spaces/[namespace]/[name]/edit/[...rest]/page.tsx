// /{ns}/{name}/edit/{branch}/{path}: a text file's editor in the browser, as on the Hub.
import { editPageFor, fileMetadataFor } from '@/app/_repo/page-for-type'

export const generateMetadata = fileMetadataFor('space', 'edit')
export default editPageFor('space')
