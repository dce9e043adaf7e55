// GET /api/health, what load balancers ask: 200 while the database answers and the file store can
// take bytes; 503 naming the file store when its folder cannot be written (here: its root is a file).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { GET } from '@/app/api/health/route'
import { blobStore, setBlobStore } from '@/lib/storage'
import { DiskBackend } from '@/lib/storage/disk'

const original = blobStore()
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-health-'))
afterAll(() => {
  setBlobStore(original)
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('GET /api/health', () => {
  it('is 200 with every check ok on a working database and disk store', async () => {
    setBlobStore(new DiskBackend(path.join(dir, 'blobs')))
    const answer = await GET()
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(await answer.json()).toEqual({ status: 'ok', checks: { database: 'ok', files: 'ok' } })
  })

  it('is 503 naming the file store when the store cannot take bytes', async () => {
    const blocked = path.join(dir, 'not-a-folder')
    fs.writeFileSync(blocked, 'x')
    setBlobStore(new DiskBackend(path.join(blocked, 'blobs')))
    const answer = await GET()
    expect(answer.status).toBe(503)
    expect(await answer.json()).toEqual({ status: 'file store unavailable', checks: { database: 'ok', files: 'unavailable' } })
  })
})
