// A 200 MB file through the LFS multipart path (parts, completion, sha256 check) with the
// unmodified client, read back whole (hashed while streaming) and with a range request.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createHash, randomBytes } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { commit, downloadFile } from '@huggingface/hub'
import { setBlobStore } from '@/lib/storage'
import { DiskBackend } from '@/lib/storage/disk'
import { startHubServer } from './hub-server'
import { fileFixtures } from './setup'

const SIZE = 200 * 1024 * 1024 + 12345
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-large-'))
const source = path.join(root, 'big.bin')
let expectedSha = ''
let hubUrl: string
let close: () => Promise<void>

beforeAll(async () => {
  setBlobStore(new DiskBackend(path.join(root, 'blobs')))
  // 200 MB of random 1 MiB blocks, written and hashed without holding them all.
  const hash = createHash('sha256')
  const out = fs.openSync(source, 'w')
  for (let written = 0; written < SIZE; ) {
    const block = randomBytes(Math.min(1024 * 1024, SIZE - written))
    hash.update(block)
    fs.writeSync(out, block)
    written += block.length
  }
  fs.closeSync(out)
  expectedSha = hash.digest('hex')
  process.env.FILES_MULTIPART_CHUNK_BYTES = String(32 * 1024 * 1024)
  ;({ url: hubUrl, close } = await startHubServer({ STORAGE: 'disk', STORAGE_DIR: path.join(root, 'blobs'), FILES_MULTIPART_CHUNK_BYTES: process.env.FILES_MULTIPART_CHUNK_BYTES }))
}, 120_000)

afterAll(async () => {
  await close()
  delete process.env.FILES_MULTIPART_CHUNK_BYTES
  fs.rmSync(root, { recursive: true, force: true })
})

it('moves a 200 MB file through LFS multipart and reads a range back', async () => {
  {
    const f = await fileFixtures('lg')
    const repo = `${f.owner}/files`
    const parts: number[] = []
    const trackingFetch: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input)
      const m = /\/part\/(\d+)$/.exec(url)
      if (m) parts.push(Number(m[1]))
      return fetch(input, init)
    }
    await commit({ repo, accessToken: f.write, hubUrl, title: 'big', fetch: trackingFetch, operations: [{ operation: 'addOrUpdate', path: 'big.bin', content: pathToFileURL(source) }] })
    expect(parts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7])

    const head = await fetch(`${hubUrl}/${repo}/resolve/main/big.bin`, { method: 'HEAD' })
    expect(head.headers.get('x-linked-size')).toBe(String(SIZE))
    expect(head.headers.get('etag')).toBe(`"${expectedSha}"`)

    const offset = 150 * 1024 * 1024 + 7
    const ranged = await fetch(`${hubUrl}/${repo}/resolve/main/big.bin`, { headers: { Range: `bytes=${offset}-${offset + 99}` } })
    expect(ranged.status).toBe(206)
    const want = Buffer.alloc(100)
    const fd = fs.openSync(source, 'r')
    fs.readSync(fd, want, 0, 100, offset)
    fs.closeSync(fd)
    expect(Buffer.from(await ranged.arrayBuffer()).equals(want)).toBe(true)

    const blob = await downloadFile({ repo, path: 'big.bin', hubUrl })
    const hash = createHash('sha256')
    for await (const chunk of blob!.stream() as unknown as AsyncIterable<Uint8Array>) hash.update(chunk)
    expect(hash.digest('hex')).toBe(expectedSha)
  }
}, 300_000)
