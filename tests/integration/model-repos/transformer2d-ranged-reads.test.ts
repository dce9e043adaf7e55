/**
 * POST /api/transformer2d/{namespace}/{name} reads a checkpoint from the blob store by range, on the disk
 * store and on S3 (s3rver, as tests/integration/files/files-s3.test.ts): a valid checkpoint runs as before
 * with its weights read tensor by tensor; a malformed weights file (64 MiB of zeros, as in the attack that
 * took a server from 351 MB to 2.66 GB) is refused after its 8-byte header length, and a config.json over
 * MAX_JSON_BYTES before a byte of it is read. A counting wrapper around the store sees every read.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pipeline, Transform, type Readable } from 'node:stream'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { createCommit } from '@/lib/hub/files'
import { createRepo } from '@/lib/hub/repos'
import { createUser } from '@/lib/hub/users'
import { backendFromEnv, setBlobStore, type ByteRange } from '@/lib/storage'
import { DiskBackend } from '@/lib/storage/disk'
import type { BlobBackend } from '@/lib/storage/types'
import { encodeSafetensors, MAX_JSON_BYTES, parseSafetensors, type SafetensorsDtype, type TensorToWrite } from '@/lib/transformer2d'
import * as route from '@/app/api/transformer2d/[namespace]/[name]/route'
import { caseDir, compare, goldenCases, goldenForwardArgs, readTensors } from '../../unit/transformer2d/golden'

const golden = goldenCases().find((c) => c.name === 'cont_conv_cross')!
const goldenFile = (name: string) => fs.readFileSync(path.join(caseDir(golden), name))
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

type Read = { sha256: string; range?: ByteRange; bytes: number }

/** The store, with every read recorded: the blob, the range asked for, and the bytes the store gave. */
function counting(store: BlobBackend, reads: Read[]): BlobBackend {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'read') {
        return async (blob: string, range?: ByteRange): Promise<Readable> => {
          const source = await target.read(blob, range)
          const read: Read = { sha256: blob, range, bytes: 0 }
          reads.push(read)
          const counter = new Transform({
            transform(chunk: Buffer, _encoding, callback) {
              read.bytes += chunk.length
              callback(null, chunk)
            },
          })
          return pipeline(source, counter, () => undefined)
        }
      }
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/** The golden case's forward arguments as one safetensors request body. */
function safetensorsInputs(): Uint8Array {
  const args = goldenForwardArgs(golden) as unknown as Record<string, { data: ArrayBufferView; dims: number[] } | boolean>
  const dtypeOf = (data: ArrayBufferView): SafetensorsDtype =>
    data instanceof Float32Array ? 'F32' : data instanceof Float64Array ? 'F64' : data instanceof BigInt64Array ? 'I64' : data instanceof Int32Array ? 'I32' : 'BOOL'
  const tensors = new Map<string, TensorToWrite>()
  for (const [name, value] of Object.entries(args)) if (typeof value === 'object') tensors.set(name, { dtype: dtypeOf(value.data), shape: value.dims, data: value.data })
  return encodeSafetensors(tensors)
}

/** A safetensors file whose 8-byte header length says `headerLength`, followed by `rest` bytes of zeros. */
function headerLengthThen(headerLength: bigint, rest: number): Buffer {
  const bytes = Buffer.alloc(8 + rest)
  bytes.writeBigUInt64LE(headerLength, 0)
  return bytes
}

const stores: Record<'disk' | 's3', { store: () => BlobBackend; setUp: () => Promise<void>; tearDown: () => Promise<void> }> = (() => {
  const diskRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-t2d-ranged-'))
  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-t2d-ranged-s3-'))
  // Port 0: a free port, so this file never collides with files-s3.test.ts or another run.
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'modhub-t2d', configs: [] }] })
  let s3Store: BlobBackend | null = null
  return {
    disk: {
      store: () => new DiskBackend(diskRoot),
      setUp: async () => undefined,
      tearDown: async () => fs.rmSync(diskRoot, { recursive: true, force: true }),
    },
    s3: {
      store: () => s3Store!,
      setUp: async () => {
        const { port } = (await s3.run()) as { port: number }
        s3Store = backendFromEnv({ STORAGE: 's3', S3_BUCKET: 'modhub-t2d', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' })
      },
      tearDown: async () => {
        await s3.close()
        fs.rmSync(s3Dir, { recursive: true, force: true })
      },
    },
  }
})()

describe.each(['disk', 's3'] as const)('Transformer2D runs read checkpoints by range (%s store)', (kind) => {
  const reads: Read[] = []
  const owner = `t2dranged-${kind}`
  let token: string
  const zeros = Buffer.alloc(64 * 1024 ** 2)
  const weights = goldenFile('weights.safetensors')
  const config = goldenFile('config.json')

  /** Commits `files` under transformer/ of a new repo `name`. */
  async function checkpoint(name: string, files: { config?: Buffer; weights: Buffer }) {
    const user = { userId: ownerId, principal: null }
    const repo = await createRepo(user, { namespace: owner, name, private: true })
    await createCommit(user, repo, 'main', { summary: 'checkpoint', description: '', parentCommit: null }, [
      { kind: 'file', path: 'transformer/config.json', content: files.config ?? config },
      { kind: 'file', path: 'transformer/diffusion_pytorch_model.safetensors', content: files.weights },
    ])
  }

  async function run(name: string) {
    reads.length = 0
    const request = new Request(`http://hub.test/api/transformer2d/${owner}/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream', Accept: 'application/octet-stream', Authorization: `Bearer ${token}` },
      body: Buffer.from(safetensorsInputs()),
    })
    const response = await route.POST(request, { params: Promise.resolve({ namespace: owner, name }) })
    const bytes = new Uint8Array(await response.arrayBuffer())
    return { status: response.status, bytes, error: () => JSON.parse(new TextDecoder().decode(bytes)).error as string }
  }

  const readsOf = (bytes: Uint8Array) => reads.filter((r) => r.sha256 === sha256(bytes))
  const bytesRead = (bytes: Uint8Array) => readsOf(bytes).reduce((sum, r) => sum + r.bytes, 0)

  let ownerId: string
  beforeAll(async () => {
    vi.stubEnv('TRANSFORMER2D_RUNS_PER_MINUTE', '0')
    await stores[kind].setUp()
    setBlobStore(counting(stores[kind].store(), reads))
    const user = await createUser({ username: owner, email: `${owner}@test.dev`, password: 'password-ranged' })
    ownerId = user.id
    token = (await createPersonalToken(user.id, { name: 'r', role: 'read' })).token
  })
  afterAll(async () => {
    vi.unstubAllEnvs()
    await stores[kind].tearDown()
  })

  it('runs a valid checkpoint as before, its weights read by range: the header first, then each tensor once', async () => {
    await checkpoint('valid', { weights })
    const answer = await run('valid')
    expect(answer.status, answer.status === 200 ? '' : answer.error()).toBe(200)
    const sample = parseSafetensors(answer.bytes, 'the answer').tensors.get('sample')!
    const expected = readTensors(path.join(caseDir(golden), 'outputs.safetensors')).get('sample')!
    const { atol, rtol } = golden.recommended_tolerance
    expect(compare(new Float32Array(sample.bytes.slice().buffer), expected.data as Float32Array, atol, rtol).violations).toBe(0)

    const weightReads = readsOf(weights)
    const headerLength = Number(weights.readBigUInt64LE(0))
    expect(weightReads.slice(0, 2).map((r) => r.range)).toEqual([{ start: 0, end: 7 }, { start: 8, end: 8 + headerLength - 1 }])
    // Every read is a range, and the store gave what it asked for: no whole-file read, no byte twice.
    for (const read of weightReads) expect(read.bytes).toBe(read.range!.end - read.range!.start + 1)
    expect(weightReads.length).toBeGreaterThan(3)
    expect(Math.max(...weightReads.map((r) => r.bytes))).toBeLessThan(weights.length / 2)
    expect(bytesRead(weights)).toBeLessThanOrEqual(weights.length)
  })

  it('refuses 64 MiB of zeros after reading the 8-byte header length, and other malformed headers before any tensor data', async () => {
    await checkpoint('zeros', { weights: zeros })
    const answer = await run('zeros')
    expect(answer.status).toBe(503)
    expect(answer.error()).toMatch(/transformer\/diffusion_pytorch_model.safetensors is not a valid safetensors file: the header is not JSON/)
    expect(bytesRead(zeros)).toBe(8)

    // A header length over the format's 100 MB limit, and one past the end of the file: refused after 8 bytes.
    const huge = headerLengthThen(200_000_000n, 1024)
    await checkpoint('huge-header', { weights: huge })
    const hugeAnswer = await run('huge-header')
    expect([hugeAnswer.status, hugeAnswer.error()]).toEqual([503, expect.stringContaining('the header length 200000000 is over the 100000000-byte limit')])
    expect(bytesRead(huge)).toBe(8)
    const past = headerLengthThen(5000n, 1024)
    await checkpoint('past-end', { weights: past })
    expect((await run('past-end')).error()).toContain('the header length 5000 runs past the end of the file (1032 bytes)')
    expect(bytesRead(past)).toBe(8)

    // A header that is not JSON in front of megabytes of data: only the length and the header are read.
    const garbage = headerLengthThen(1024n, 1024 + 8 * 1024 ** 2)
    garbage.fill('x', 8, 8 + 1024)
    await checkpoint('garbage-header', { weights: garbage })
    expect((await run('garbage-header')).error()).toContain('the header is not JSON')
    expect(bytesRead(garbage)).toBe(8 + 1024)
  })

  it('refuses a config.json over MAX_JSON_BYTES without reading it', async () => {
    // Valid JSON padded with spaces: only its size is wrong.
    const padded = Buffer.concat([config, Buffer.alloc(MAX_JSON_BYTES + 1 - config.length, ' ')])
    await checkpoint('large-config', { config: padded, weights })
    const answer = await run('large-config')
    expect(answer.status).toBe(503)
    expect(answer.error()).toContain(`transformer/config.json is ${MAX_JSON_BYTES + 1} bytes, more than the ${MAX_JSON_BYTES} bytes this loader reads for it`)
    expect(readsOf(padded)).toEqual([])
    expect(readsOf(weights)).toEqual([])
  })
})
