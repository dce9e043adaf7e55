// Limits on what one upload or commit may hold; each is an environment variable (README: Limits).
import { intSetting } from '@/lib/config'

const MiB = 2 ** 20

export function fileLimits() {
  return {
    /** Largest file (LFS objects included): 413. */
    maxFileBytes: intSetting('FILES_MAX_FILE_BYTES', 50 * 1024 * MiB),
    /** Largest file sent inline in a commit (base64 in the NDJSON body) rather than through LFS: 422. */
    maxInlineFileBytes: intSetting('FILES_MAX_INLINE_FILE_BYTES', 10 * MiB),
    /** Largest NDJSON commit body: 413. */
    maxCommitBodyBytes: intSetting('FILES_MAX_COMMIT_BYTES', 100 * MiB),
    /** Most operations in one commit: 422. */
    maxCommitOperations: intSetting('FILES_MAX_COMMIT_OPERATIONS', 10_000),
    /** Most files a revision may hold: 422. */
    maxRepoFiles: intSetting('FILES_MAX_REPO_FILES', 100_000),
    /** Part size of multipart LFS uploads; larger objects are uploaded in parts of this size. */
    multipartChunkBytes: Math.max(5 * MiB, intSetting('FILES_MULTIPART_CHUNK_BYTES', 64 * MiB)),
  }
}
