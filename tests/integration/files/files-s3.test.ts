// The file API on the S3 blob store. s3rver (npm) is a local S3-compatible server started here; it
// stands in for AWS S3, MinIO, R2 or Ceph RGW, which the same S3Backend talks to through
// @aws-sdk/client-s3.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import S3rver from 's3rver'
import { backendFromEnv, setBlobStore } from '@/lib/storage'
import type { BlobBackend } from '@/lib/storage/types'
import { fileSuite } from './suite'

const PORT = Number(process.env.TEST_S3_PORT || 3632)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-s3rver-'))
const server = new S3rver({ port: PORT, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'modhub-test', configs: [] }] })
let store: BlobBackend
const S3_ENV = {
  STORAGE: 's3',
  S3_BUCKET: 'modhub-test',
  S3_ENDPOINT: `http://127.0.0.1:${PORT}`,
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
}

beforeAll(async () => {
  await server.run()
  store = backendFromEnv(S3_ENV)
  setBlobStore(store)
})
afterAll(async () => {
  await server.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

fileSuite('fs', S3_ENV, async () => {
  const keys: string[] = []
  for await (const { key } of store.listStaged()) keys.push(key)
  return keys
})
