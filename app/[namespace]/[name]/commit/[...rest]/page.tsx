// /{ns}/{name}/commit/{sha}: the commitUrl a commit answers (@huggingface/hub's commit().commit.url), on the History tab at that commit.
import { redirectPageFor } from '@/app/_repo/page-for-type'

export default redirectPageFor('model', 'history')
