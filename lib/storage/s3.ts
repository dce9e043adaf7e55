// Blobs in any S3-compatible object store (AWS S3, MinIO, R2, Ceph RGW) through the official SDK:
// <prefix>sha256/<sha256>, uploads in progress under <prefix>staging/. Several app instances on
// PostgreSQL share one bucket.
import { Readable } from 'node:stream'
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3'
import type { BlobBackend, ByteRange } from './types'

/** How long GET /api/health waits for the bucket to answer. */
const READY_TIMEOUT_MS = 3000

export type S3Settings = {
  bucket: string
  prefix: string
  client: S3ClientConfig
}

export class S3Backend implements BlobBackend {
  readonly kind = 's3' as const
  private readonly s3: S3Client

  constructor(private readonly settings: S3Settings) {
    this.s3 = new S3Client({
      // Plain PUTs with Content-Length: the default streaming checksums (aws-chunked trailers) are
      // not spoken by every S3-compatible store; the hub checks sha256 itself.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...settings.client,
    })
  }

  private get bucket() {
    return this.settings.bucket
  }

  private blobKey(sha256: string) {
    return `${this.settings.prefix}sha256/${sha256}`
  }

  private stagedKey(key: string) {
    return `${this.settings.prefix}staging/${key}`
  }

  async writeStaged(key: string, body: Readable, length: number): Promise<void> {
    // The SDK does not watch its body for errors: a client that hangs up (or a size/sha256
    // mismatch found while streaming) must abort the PUT here, or it would wait forever.
    const abort = new AbortController()
    const bodyFailed = new Promise<never>((_, reject) =>
      body.once('error', (error) => {
        abort.abort()
        reject(error)
      }),
    )
    bodyFailed.catch(() => undefined)
    try {
      await Promise.race([
        this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.stagedKey(key), Body: body, ContentLength: length }), { abortSignal: abort.signal }),
        bodyFailed,
      ])
    } catch (error) {
      body.destroy()
      await this.deleteStaged(key).catch(() => undefined)
      throw error
    }
  }

  async readStaged(key: string): Promise<Readable> {
    return this.get(this.stagedKey(key))
  }

  async deleteStaged(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.stagedKey(key) }))
  }

  async *listStaged(): AsyncIterable<{ key: string; modified: Date }> {
    for await (const object of this.listUnder(this.stagedKey(''))) yield { key: object.name, modified: object.modified }
  }

  async *listBlobs(): AsyncIterable<{ sha256: string; modified: Date }> {
    for await (const object of this.listUnder(this.blobKey(''))) yield { sha256: object.name, modified: object.modified }
  }

  /** Every object under `prefix`, page by page: its name after the prefix and when it was written. */
  private async *listUnder(prefix: string): AsyncIterable<{ name: string; modified: Date }> {
    let token: string | undefined
    do {
      const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }))
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { name: object.Key.slice(prefix.length), modified: object.LastModified ?? new Date(0) }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
  }

  async promote(key: string, sha256: string): Promise<void> {
    await this.s3.send(
      new CopyObjectCommand({ Bucket: this.bucket, Key: this.blobKey(sha256), CopySource: `${this.bucket}/${encodeURI(this.stagedKey(key))}` }),
    )
    await this.deleteStaged(key)
  }

  async has(sha256: string): Promise<boolean> {
    try {
      await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.blobKey(sha256) }))
      return true
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false
      throw error
    }
  }

  async ready(): Promise<boolean> {
    try {
      // Within a load balancer's health-check timeout, whatever the SDK's retries would take.
      await this.s3.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(READY_TIMEOUT_MS) })
      return true
    } catch {
      return false
    }
  }

  async read(sha256: string, range?: ByteRange): Promise<Readable> {
    return this.get(this.blobKey(sha256), range)
  }

  async remove(sha256: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.blobKey(sha256) }))
  }

  private async get(key: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.s3.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    )
    if (!(answer.Body instanceof Readable)) throw new Error('S3 answered without a body stream')
    return answer.Body
  }
}
