// The file API on the local-disk blob store (the embedded default).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'
import { setBlobStore } from '@/lib/storage'
import { DiskBackend } from '@/lib/storage/disk'
import { fileSuite } from './suite'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-blobs-'))
const store = new DiskBackend(root)
setBlobStore(store)
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

fileSuite('fd', { STORAGE: 'disk', STORAGE_DIR: root }, async () => {
  const keys: string[] = []
  for await (const { key } of store.listStaged()) keys.push(key)
  return keys
})
