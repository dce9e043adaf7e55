/**
 * Why the playground pins transformers.js's requests with the template rather than `revision`
 * (lib/moderation/browser/transformers.ts): in @huggingface/transformers 4.3.1, AutoConfig honours
 * the revision, but AutoTokenizer first probes `tokenizer_config.json` at revision `main` whatever
 * revision it is given (get_tokenizer_files calls get_file_metadata without the options), so a
 * page load would send an unpinned request to the branch head and a model picked at another
 * revision fails to load when `main` lacks the file. The first test records that behaviour against
 * a real HTTP server laid out like the hub (when it fails, upstream pins the probe and `revision`
 * alone would do); the second loads config, tokenizer and model with the playground's pinned
 * template, every request at the commit.
 */
import http from 'node:http'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REMOTE_PATH_TEMPLATE } from '@/lib/moderation/browser/catalog'
import { pinned } from '@/lib/moderation/browser/transformers'

const MODEL = 'tests/fixtures/tiny-models/madhurjindal/autonlp-Gibberish-Detector-492513457'
const COMMIT = 'c0ffee0000000000000000000000000000000000'
const requests: string[] = []
let server: http.Server
let origin: string

beforeAll(async () => {
  // The repos `ns/tiny` and `ns/pinned`, each with one commit and no `main` branch: only /ns/<name>/resolve/<COMMIT>/<file> answers.
  server = http.createServer((request, response) => {
    requests.push(request.url!)
    const match = /^\/ns\/(?:tiny|pinned)\/resolve\/([^/]+)\/(.+)$/.exec(request.url!)
    const file = match && match[1] === COMMIT ? path.join(MODEL, match[2]!) : null
    if (!file || !fs.existsSync(file)) {
      response.writeHead(404).end('Entry not found')
      return
    }
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(fs.readFileSync(file))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('transformers.js 4.3.1 loading from this hub at a pinned commit', () => {
  it('AutoConfig reads config.json at the commit; AutoTokenizer probes main first and fails without it', async () => {
    const transformers = await import('@huggingface/transformers')
    Object.assign(transformers.env, { remoteHost: origin, remotePathTemplate: REMOTE_PATH_TEMPLATE, allowLocalModels: false, useFSCache: false, useBrowserCache: false })
    const config = await transformers.AutoConfig.from_pretrained('ns/tiny', { revision: COMMIT })
    expect((config as unknown as { model_type: string }).model_type).toBe('distilbert')
    expect(requests).toEqual([`/ns/tiny/resolve/${COMMIT}/config.json`])
    requests.length = 0
    await expect(transformers.AutoTokenizer.from_pretrained('ns/tiny', { revision: COMMIT })).rejects.toThrow()
    expect(requests).toEqual(['/ns/tiny/resolve/main/tokenizer_config.json'])
  })

  it('with the playground\'s pinned template, config, tokenizer and model load with every request at the commit', async () => {
    const transformers = await import('@huggingface/transformers')
    // In Node the model's graph is handed to onnxruntime-node as a cached file's path: a fresh cache folder per run.
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transformers-pinned-'))
    Object.assign(transformers.env, { remoteHost: origin, allowLocalModels: false, useFSCache: true, cacheDir, useBrowserCache: false })
    requests.length = 0
    const { config, tokenizer, model } = await pinned(transformers, COMMIT, new AbortController().signal, async () => ({
      config: await transformers.AutoConfig.from_pretrained('ns/pinned'),
      tokenizer: await transformers.AutoTokenizer.from_pretrained('ns/pinned'),
      model: await transformers.AutoModel.from_pretrained('ns/pinned', { dtype: 'fp32' }),
    }))
    expect((config as unknown as { model_type: string }).model_type).toBe('distilbert')
    const { input_ids, attention_mask } = tokenizer('hello world')
    const { logits } = (await model({ input_ids, attention_mask })) as { logits: { dims: number[] } }
    expect(logits.dims[0]).toBe(1)
    await model.dispose()
    fs.rmSync(cacheDir, { recursive: true, force: true })
    expect(requests.length).toBeGreaterThanOrEqual(4)
    for (const url of requests) expect(url).toMatch(new RegExp(`^/ns/pinned/resolve/${COMMIT}/`))
    expect(new Set(requests)).toEqual(new Set(['config.json', 'tokenizer_config.json', 'tokenizer.json', 'onnx/model.onnx'].map((f) => `/ns/pinned/resolve/${COMMIT}/${f}`)))
  })
})
