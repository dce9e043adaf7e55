// An S3-compatible store out of reach is an outage, not a fault of the request: downloads and
// uploads answered 500 ("Internal error") while the store was down, and recovered once it was back.
// The route wrapper now answers 503 with Retry-After. The errors here are the AWS SDK's own, from a
// real store (s3rver) that is stopped.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import S3rver from 's3rver'
import { handle } from '@/lib/http/errors'
import { oauthHandler } from '@/lib/oauth/errors'
import { backendFromEnv } from '@/lib/storage'

const S3_PORT = Number(process.env.TEST_S3_DOWN_PORT || 3637)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-s3-down-'))
const s3 = new S3rver({ port: S3_PORT, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'modhub-down', configs: [] }] })
const store = backendFromEnv({ STORAGE: 's3', S3_BUCKET: 'modhub-down', S3_ENDPOINT: `http://127.0.0.1:${S3_PORT}`, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' })
const SHA = 'a'.repeat(64)

beforeAll(async () => {
  await s3.run()
})
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('an S3-compatible store that cannot be reached', () => {
  it('answers as a store while it is up (a missing blob is no error), and says it is ready', async () => {
    expect(await store.has(SHA)).toBe(false)
    expect(await store.ready()).toBe(true)
  })

  it('is a 503 with Retry-After in the hub API and OAuth shapes once it is down, not a 500', async () => {
    await s3.close()
    const hub = await handle(async () => {
      await store.has(SHA)
      return new Response('found')
    })()
    expect([hub.status, hub.headers.get('retry-after')]).toEqual([503, '5'])
    expect(await hub.json()).toEqual({ error: 'The file store is unavailable for a moment; try again shortly' })
    const oauth = await oauthHandler(async () => {
      await store.has(SHA)
      return new Response('found')
    })()
    expect([oauth.status, ((await oauth.json()) as { error: string }).error]).toEqual([503, 'temporarily_unavailable'])
  })

  it('is not ready once it is down (GET /api/health), and says so within its timeout', async () => {
    const started = Date.now()
    expect(await store.ready()).toBe(false)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('leaves a refused connection that is not the store\'s (no SDK metadata) a 500', async () => {
    const other = await handle(async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })
    })()
    expect(other.status).toBe(500)
  })
})
