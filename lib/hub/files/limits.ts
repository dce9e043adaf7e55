// Limits on what one upload or commit may hold; each is an environment variable (README: Limits).
import { setting } from '@/lib/config'

export function fileLimits() {
  return {
    /** Largest file (LFS objects included): 413. */
    maxFileBytes: setting('FILES_MAX_FILE_BYTES'),
    /** Largest file sent inline in a commit (base64 in the NDJSON body) rather than through LFS: 422. */
    maxInlineFileBytes: setting('FILES_MAX_INLINE_FILE_BYTES'),
    /** Largest NDJSON commit body: 413. */
    maxCommitBodyBytes: setting('FILES_MAX_COMMIT_BYTES'),
    /** Most operations in one commit: 422. */
    maxCommitOperations: setting('FILES_MAX_COMMIT_OPERATIONS'),
    /** Most files a revision may hold: 422. */
    maxRepoFiles: setting('FILES_MAX_REPO_FILES'),
    /** Part size of multipart LFS uploads; larger objects are uploaded in parts of this size. */
    multipartChunkBytes: setting('FILES_MULTIPART_CHUNK_BYTES'),
  }
}
