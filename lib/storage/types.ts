// What a blob store does. Blobs are named by the sha256 of their bytes; bytes arrive first under a
// staging key (an upload in progress, invisible to readers) and become a blob only once their
// sha256 and size are checked (lib/storage/index.ts), so a store never holds a blob under a wrong name.
import type { Readable } from 'node:stream'

export type ByteRange = { start: number; end: number } // inclusive, as in HTTP

export interface BlobBackend {
  readonly kind: 'disk' | 's3'
  /** Writes a stream of exactly `length` bytes under a staging key; the stream's error aborts and removes it. */
  writeStaged(key: string, body: Readable, length: number): Promise<void>
  readStaged(key: string): Promise<Readable>
  deleteStaged(key: string): Promise<void>
  /** Staging keys with their last modification time (for cleanup of abandoned uploads). */
  listStaged(): AsyncIterable<{ key: string; modified: Date }>
  /** Makes checked staged bytes the blob `sha256` (a rename or a copy); removes the staged key. */
  promote(key: string, sha256: string): Promise<void>
  has(sha256: string): Promise<boolean>
  /** Every blob the store holds, with its last modification time (for bytes whose database row never came). */
  listBlobs(): AsyncIterable<{ sha256: string; modified: Date }>
  read(sha256: string, range?: ByteRange): Promise<Readable>
  remove(sha256: string): Promise<void>
  /** Whether the store can take bytes now: reachable, writable, not full (GET /api/health). Never throws. */
  ready(): Promise<boolean>
}
