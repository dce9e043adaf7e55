/**
 * `npm run models:pull -- --into <namespace>` (issue 15): a model on another Hugging Face
 * compatible hub is mirrored into a repo on this one through @huggingface/hub, and the moderation
 * API then runs it. The test hub plays both hubs over real HTTP: the source is a private repo read
 * with its owner's token, the mirror is written with another user's write token.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { createCommit, resolveRevision } from '@/lib/hub/files'
import { treeOf } from '@/lib/hub/files/revisions'
import { forgetModelSnapshots } from '@/lib/hub/model-cache'
import { createOrg } from '@/lib/hub/orgs'
import { authorizedRepo, createRepo } from '@/lib/hub/repos'
import { createUser } from '@/lib/hub/users'
import * as runtime from '@/lib/moderation/runtime'
import { MODELS_NAMESPACE, seedRepoFiles } from '@/scripts/seed-files'
import { mirrorModel, MirrorError } from '@/scripts/models-mirror'
import { startHubServer, type HubServer } from '../files/hub-server'
import { BASE } from '../moderation/helpers'

const TINY = 'tests/fixtures/tiny-models/unitary/unbiased-toxic-roberta'
let hub: HubServer
let route: typeof import('@/app/rai/v1/raimoderationmodels/[check]/route')
let sourceToken: string
let mirrorToken: string
let mirrorOps: { userId: string; principal: null }
let cacheDir: string
let emptyModels: string

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex')

async function toxicityFrom(repo: string) {
  vi.stubEnv('MODERATION_MODEL_TOXICITY', repo)
  forgetModelSnapshots()
  await runtime.configureModelRuntime({ modelsDir: emptyModels, loading: 'lazy', microBatching: false })
  const response = await route.POST(
    new Request(`${BASE}/detoxifymodel`, { method: 'POST', headers: { Authorization: 'None', 'Content-Type': 'application/json' }, body: JSON.stringify({ text: 'You are a wonderful person.' }) }),
    { params: Promise.resolve({ check: 'detoxifymodel' }) },
  )
  return { status: response.status, json: await response.json(), engine: response.headers.get('X-Moderation-Engine') }
}

beforeAll(async () => {
  vi.stubEnv('MODERATION_AUTH', 'off')
  vi.stubEnv('MODERATION_RATE_LIMIT_PER_MINUTE', '0')
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-mirror-cache-'))
  vi.stubEnv('MODELS_CACHE_DIR', cacheDir)
  emptyModels = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-no-models-'))
  route = await import('@/app/rai/v1/raimoderationmodels/[check]/route')

  // The "other hub": a private repo of upstream-lab, and the manifest's ONNX export repo for toxicity.
  const upstream = await createUser({ username: 'mm-upstream', email: 'mm-upstream@test.dev', password: 'password-mm-upstream' })
  const upstreamSession = { userId: upstream.id, principal: null }
  await createOrg(upstream.id, { name: 'upstream-lab' })
  const privateSource = await createRepo(upstreamSession, { namespace: 'upstream-lab', name: 'tiny-toxic', private: true })
  await seedRepoFiles(upstreamSession, { ...privateSource, namespace: MODELS_NAMESPACE, name: 'unbiased-toxic-roberta-tiny' })
  await createOrg(upstream.id, { name: 'protectai' })
  const exportRepo = await createRepo(upstreamSession, { namespace: 'protectai', name: 'unbiased-toxic-roberta-onnx' })
  // ProtectAI's layout: the graph at the root.
  await createCommit(upstreamSession, exportRepo, 'main', { summary: 'export', description: '', parentCommit: null }, [
    ...['config.json', 'tokenizer.json', 'tokenizer_config.json'].map((f) => ({ kind: 'file' as const, path: f, content: fs.readFileSync(path.join(TINY, f)) })),
    { kind: 'file', path: 'model.onnx', content: fs.readFileSync(path.join(TINY, 'onnx/model.onnx')) },
    { kind: 'file', path: 'README.md', content: Buffer.from('not part of the manifest') },
  ])
  sourceToken = (await createPersonalToken(upstream.id, { name: 'read', role: 'read' })).token

  const ops = await createUser({ username: 'mm-ops', email: 'mm-ops@test.dev', password: 'password-mm-ops' })
  mirrorOps = { userId: ops.id, principal: null }
  await createOrg(ops.id, { name: 'mirrors' })
  mirrorToken = (await createPersonalToken(ops.id, { name: 'write', role: 'write' })).token
  hub = await startHubServer()
})

afterAll(async () => {
  vi.unstubAllEnvs()
  forgetModelSnapshots()
  await hub?.close()
  await runtime.configureModelRuntime()
  fs.rmSync(cacheDir, { recursive: true, force: true })
  fs.rmSync(emptyModels, { recursive: true, force: true })
})

describe('models:pull --into', () => {
  it('mirrors every file of a private repo at one commit into a private repo here, and the moderation API runs it', async () => {
    const lines: string[] = []
    const result = await mirrorModel({
      from: { hubUrl: hub.url, accessToken: sourceToken },
      to: { hubUrl: hub.url, accessToken: mirrorToken },
      into: 'mirrors',
      model: 'upstream-lab/tiny-toxic',
      log: (line) => lines.push(line),
    })
    expect(result.repo).toBe('mirrors/tiny-toxic')
    const { repo: source } = await authorizedRepo({ userId: (await resolveOwner()).userId, principal: null }, 'model', 'upstream-lab', 'tiny-toxic', 'read')
    const sourceCommit = (await resolveRevision(source.id, 'main'))!
    expect(result.sourceCommit).toBe(sourceCommit.id)

    const { repo: mirror } = await authorizedRepo(mirrorOps, 'model', 'mirrors', 'tiny-toxic', 'read')
    expect(mirror.private).toBe(true)
    const mirrorCommit = (await resolveRevision(mirror.id, 'main'))!
    expect(mirrorCommit.id).toBe(result.commit)
    expect(mirrorCommit.message).toContain(`upstream-lab/tiny-toxic at commit ${sourceCommit.id}`)
    const digests = (entries: Awaited<ReturnType<typeof treeOf>>) => entries.map((e) => [e.path, e.blobSha256, Number(e.size)])
    expect(digests(await treeOf(mirrorCommit.id))).toEqual(digests(await treeOf(sourceCommit.id)))
    expect(lines.some((l) => l.includes('onnx/model.onnx'))).toBe(true)

    // The configured model is read with the hub's authority, so the private mirror answers.
    const fromMirror = await toxicityFrom('mirrors/tiny-toxic')
    expect(fromMirror.status, JSON.stringify(fromMirror.json)).toBe(200)
    expect(fromMirror.engine).toBe('neural:mirrors/tiny-toxic@main')
    const fromSource = await toxicityFrom('upstream-lab/tiny-toxic')
    expect(fromMirror.json.toxicScore).toEqual(fromSource.json.toxicScore)
  })

  it('the npm script mirrors a check\'s ONNX export into the layout the engines read, publicly with --public', async () => {
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/models-pull.ts', '--into', 'mirrors', '--public', 'toxicity@main'], {
      env: { ...process.env, HF_ENDPOINT: hub.url, HF_TOKEN: sourceToken, MODHUB_URL: hub.url, MODHUB_TOKEN: mirrorToken },
    })
    expect(stdout).toContain(`protectai/unbiased-toxic-roberta-onnx@main`)
    expect(stdout).toContain(`${hub.url}/mirrors/unbiased-toxic-roberta`)
    const { repo } = await authorizedRepo(null, 'model', 'mirrors', 'unbiased-toxic-roberta', 'read')
    const entries = await treeOf((await resolveRevision(repo.id, 'main'))!.id)
    // The manifest's files only, moved into transformers.js's layout (model.onnx -> onnx/model.onnx), beside the new repo's .gitattributes.
    expect(entries.map((e) => e.path).sort()).toEqual(['.gitattributes', 'config.json', 'onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json'])
    expect(entries.find((e) => e.path === 'onnx/model.onnx')!.blobSha256).toBe(sha256(fs.readFileSync(path.join(TINY, 'onnx/model.onnx'))))

    const answer = await toxicityFrom('mirrors/unbiased-toxic-roberta')
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    expect(answer.engine).toBe('neural:mirrors/unbiased-toxic-roberta@main')
  }, 120_000)

  it('names the problem: no access to the source, files missing from it, not a model', async () => {
    const mirror = (model: string, accessToken?: string) =>
      mirrorModel({ from: { hubUrl: hub.url, accessToken }, to: { hubUrl: hub.url, accessToken: mirrorToken }, into: 'mirrors', model })
    await expect(mirror('upstream-lab/tiny-toxic')).rejects.toThrow(/upstream-lab\/tiny-toxic@main on http/)
    await expect(mirror('promptInjection@main', sourceToken)).rejects.toThrow(/protectai\/deberta-v3-base-injection-onnx@main on http/)
    await expect(mirror('not a model')).rejects.toBeInstanceOf(MirrorError)
  })
})

async function resolveOwner() {
  const { db } = await import('@/lib/db')
  return { userId: (await db.user.findUniqueOrThrow({ where: { username: 'mm-upstream' } })).id }
}
