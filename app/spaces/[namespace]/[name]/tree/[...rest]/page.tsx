import { redirectPageFor } from '@/app/_repo/page-for-type'

export default redirectPageFor('space', 'files')
