/**
 * models:pull against a local stand-in for the Hub: `/{repo}/resolve/{revision}/{path}` answers
 * small files directly and redirects LFS files (the graphs) to a CDN on another origin with
 * `X-Linked-Etag`/`X-Linked-Size`, as huggingface.co does; the CDN honours Range requests.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { configureModelRuntime } from '@/lib/moderation/runtime'
import { toxicity } from '../../setup/neural-answers'
import { MODEL_MANIFEST, NEURAL_CHECKS, type ModelEntry, type NeuralCheck } from '@/lib/moderation/runtime/manifest'
import { ChecksumMismatchError, pullModels } from '@/scripts/models-pull'

const FIXTURES = path.resolve('tests/fixtures/tiny-models')
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')

interface Logged {
  server: 'hub' | 'cdn'
  path: string
  range?: string
  authorization?: string
}

interface FakeHub {
  hubUrl: string
  log: Logged[]
  /** Cut the connection after this many body bytes, once, for the CDN object of this sha256. */
  interruptOnce: Map<string, number>
  /** Serve these bytes instead of the real object for this sha256 (the announced digest stays). */
  corrupt: Map<string, Buffer>
  close(): Promise<void>
}

function listen(handler: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(handler)
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

async function startFakeHub(): Promise<FakeHub> {
  const resolveMap = new Map<string, Buffer>()
  const objects = new Map<string, Buffer>()
  for (const check of NEURAL_CHECKS) {
    const entry = MODEL_MANIFEST[check]
    for (const file of entry.files) {
      const data = fs.readFileSync(path.join(FIXTURES, ...entry.id.split('/'), file.target))
      resolveMap.set(`/${entry.source.repo}/resolve/${entry.source.revision}/${file.source}`, data)
      objects.set(sha256(data), data)
    }
  }
  const hub: FakeHub = { hubUrl: '', log: [], interruptOnce: new Map(), corrupt: new Map(), close: async () => {} }
  const header = (req: http.IncomingMessage, name: string) => req.headers[name] as string | undefined

  const cdn = await listen((req, res) => {
    hub.log.push({ server: 'cdn', path: req.url!, range: header(req, 'range'), authorization: header(req, 'authorization') })
    const digest = req.url!.replace('/objects/', '')
    const real = objects.get(digest)
    if (!real) return void res.writeHead(404).end()
    const data = hub.corrupt.get(digest) ?? real
    const range = /^bytes=(\d+)-$/.exec(header(req, 'range') ?? '')
    const start = range ? Number(range[1]) : 0
    if (start >= data.length && range) return void res.writeHead(416, { 'content-range': `bytes */${data.length}` }).end()
    const body = data.subarray(start)
    res.writeHead(range ? 206 : 200, {
      'content-length': body.length,
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${start}-${data.length - 1}/${data.length}` } : {}),
    })
    const cut = hub.interruptOnce.get(digest)
    if (cut !== undefined) {
      hub.interruptOnce.delete(digest)
      res.write(body.subarray(0, cut), () => res.destroy())
      return
    }
    res.end(body)
  })
  const cdnOrigin = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`

  const hubServer = await listen((req, res) => {
    hub.log.push({ server: 'hub', path: req.url!, range: header(req, 'range'), authorization: header(req, 'authorization') })
    const data = resolveMap.get(decodeURI(req.url!))
    if (!data) return void res.writeHead(404, { 'x-error-code': 'EntryNotFound' }).end('Entry not found')
    if (req.url!.endsWith('.onnx')) {
      const digest = sha256(data)
      res.writeHead(302, { location: `${cdnOrigin}/objects/${digest}`, 'x-linked-etag': `"${digest}"`, 'x-linked-size': data.length })
      return void res.end()
    }
    res.writeHead(200, { 'content-length': data.length, etag: '"git-blob-oid"' }).end(data)
  })
  hub.hubUrl = `http://127.0.0.1:${(hubServer.address() as AddressInfo).port}`
  hub.close = async () => {
    await Promise.all([cdn, hubServer].map((s) => new Promise((resolve) => { s.closeAllConnections(); s.close(resolve) })))
  }
  return hub
}

/** The real manifest with sizes and digests pinned to the fixture files. */
function pinnedManifest(): Record<NeuralCheck, ModelEntry> {
  return Object.fromEntries(NEURAL_CHECKS.map((check) => {
    const entry = MODEL_MANIFEST[check]
    const files = entry.files.map((f) => {
      const data = fs.readFileSync(path.join(FIXTURES, ...entry.id.split('/'), f.target))
      return { ...f, size: data.length, sha256: sha256(data) }
    })
    return [check, { ...entry, files }]
  })) as Record<NeuralCheck, ModelEntry>
}

function graphDigest(check: NeuralCheck): string {
  return sha256(fs.readFileSync(path.join(FIXTURES, ...MODEL_MANIFEST[check].id.split('/'), 'onnx/model.onnx')))
}

let hub: FakeHub
const dirs: string[] = []
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'models-pull-'))
  dirs.push(dir)
  return dir
}

beforeAll(async () => { hub = await startFakeHub() })
afterAll(async () => {
  await hub.close()
  await configureModelRuntime()
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
})
afterEach(() => { hub.log.length = 0 })

describe('models:pull', () => {
  it('fetches every check into the transformers.js layout, verified, and the runtime runs what it fetched', async () => {
    const modelsDir = tempDir()
    const results = await pullModels({ checks: [...NEURAL_CHECKS], endpoint: hub.hubUrl, token: 'hf_secret', modelsDir, manifest: pinnedManifest() })
    for (const check of NEURAL_CHECKS) {
      const id = MODEL_MANIFEST[check].id
      for (const file of MODEL_MANIFEST[check].files) {
        expect(fs.readFileSync(path.join(modelsDir, id, file.target))).toEqual(fs.readFileSync(path.join(FIXTURES, id, file.target)))
      }
      expect(results[check].every((f) => f.verifiedAgainst === 'manifest')).toBe(true)
      expect(fs.readdirSync(path.join(modelsDir, id, 'onnx'))).toEqual(['model.onnx'])
    }
    // Root-level graphs of the ProtectAI repos were requested at the root and placed under onnx/.
    expect(hub.log.some((r) => r.path === `/protectai/vishnun-codenlbert-tiny-onnx/resolve/${MODEL_MANIFEST.bancode.source.revision}/model.onnx`)).toBe(true)
    expect(hub.log.filter((r) => r.server === 'hub').every((r) => r.authorization === 'Bearer hf_secret')).toBe(true)
    expect(hub.log.filter((r) => r.server === 'cdn').every((r) => r.authorization === undefined)).toBe(true)

    await configureModelRuntime({ modelsDir })
    const ref = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'references/toxicity.json'), 'utf8')) as { cases: { text: string; scores: number[] }[] }
    const scores = await toxicity(ref.cases[0].text)
    scores.forEach((s, i) => expect(s).toBeCloseTo(ref.cases[0].scores[i], 4))

    hub.log.length = 0
    await pullModels({ checks: ['bancode'], endpoint: hub.hubUrl, modelsDir, manifest: pinnedManifest() })
    expect(hub.log).toEqual([])
  })

  it('resumes an interrupted download with a Range request', async () => {
    const modelsDir = tempDir()
    const digest = graphDigest('bancode')
    hub.interruptOnce.set(digest, 50_000)
    await expect(pullModels({ checks: ['bancode'], endpoint: hub.hubUrl, modelsDir })).rejects.toThrow()
    const graph = path.join(modelsDir, 'vishnun/codenlbert-tiny/onnx/model.onnx')
    expect(fs.existsSync(graph)).toBe(false)
    expect(fs.statSync(`${graph}.part`).size).toBe(50_000)

    const results = await pullModels({ checks: ['bancode'], endpoint: hub.hubUrl, modelsDir })
    const pulled = results.bancode.find((f) => f.target === 'onnx/model.onnx')!
    expect(pulled).toMatchObject({ resumedFrom: 50_000, sha256: digest, verifiedAgainst: 'hub' })
    expect(hub.log.filter((r) => r.server === 'cdn').at(-1)?.range).toBe('bytes=50000-')
    expect(sha256(fs.readFileSync(graph))).toBe(digest)
    expect(fs.existsSync(`${graph}.part`)).toBe(false)
  })

  it('rejects a file whose sha256 differs from the manifest and keeps nothing of it', async () => {
    const modelsDir = tempDir()
    const manifest = pinnedManifest()
    manifest.gibberish = { ...manifest.gibberish, files: manifest.gibberish.files.map((f) => (f.target === 'config.json' ? { ...f, sha256: '0'.repeat(64) } : f)) }
    const error = await pullModels({ checks: ['gibberish'], endpoint: hub.hubUrl, modelsDir, manifest }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChecksumMismatchError)
    const config = path.join(modelsDir, MODEL_MANIFEST.gibberish.id, 'config.json')
    expect(fs.existsSync(config)).toBe(false)
    expect(fs.existsSync(`${config}.part`)).toBe(false)
  })

  it('rejects bytes that do not match the digest the hub announces', async () => {
    const modelsDir = tempDir()
    const digest = graphDigest('promptInjection')
    const bad = Buffer.from(fs.readFileSync(path.join(FIXTURES, MODEL_MANIFEST.promptInjection.id, 'onnx/model.onnx')))
    bad[1000] ^= 0xff
    hub.corrupt.set(digest, bad)
    try {
      await expect(pullModels({ checks: ['promptInjection'], endpoint: hub.hubUrl, modelsDir })).rejects.toBeInstanceOf(ChecksumMismatchError)
      expect(fs.existsSync(path.join(modelsDir, MODEL_MANIFEST.promptInjection.id, 'onnx/model.onnx'))).toBe(false)
    } finally {
      hub.corrupt.delete(digest)
    }
  })

  it('reports a missing file on the hub as an error', async () => {
    const manifest = pinnedManifest()
    manifest.embedding = { ...manifest.embedding, files: [{ source: 'no/such/file.json', target: 'x.json' }] }
    await expect(pullModels({ checks: ['embedding'], endpoint: hub.hubUrl, modelsDir: tempDir(), manifest })).rejects.toThrow('HTTP 404')
  })
})
