/**
 * The moderation engines loaded from model repos on this hub (issue 15): the seed commits
 * the graphs through lib/hub/files, the real route handler answers from them and names the repo
 * and revision, a revision pushed with @huggingface/hub is loaded when it is asked for, a repo that
 * does not exist or lacks files is a 503 naming the repo, the cache is reused after a
 * restart, and a corrupted cached file or stored blob never ends up in the cache. The neural
 * checks load the seeded tiny models from their repos (MODERATION_MODEL_<CHECK>).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { deleteFile } from '@huggingface/hub'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { CHECKS } from '@/lib/moderation/checks'
import { createCommit, resolveRevision } from '@/lib/hub/files'
import { treeOf } from '@/lib/hub/files/revisions'
import { forgetModelSnapshots, modelSnapshot, ModelRepoError, repoCacheFolder } from '@/lib/hub/model-cache'
import { createOrg } from '@/lib/hub/orgs'
import { createRepo, type RepoRow } from '@/lib/hub/repos'
import { createUser } from '@/lib/hub/users'
import { forgetOfflineSnapshots } from '@/lib/moderation/engines/offline-graphs'
import * as runtime from '@/lib/moderation/runtime'
import { blobStore } from '@/lib/storage'
import { MODEL_REPOS, MODELS_NAMESPACE, OFFLINE_MODELS_REPO, seedRepoFiles, updateShippedFiles } from '@/scripts/seed-files'
import { startHubServer, type HubServer } from '../files/hub-server'
import { postToRoute, type ModerationRoute } from '../moderation/helpers'

let route: ModerationRoute
let cacheDir: string
let emptyModels: string
let hub: HubServer
let writeToken: string
let ownerSession: { userId: string; principal: null }
const repos = new Map<string, RepoRow>()

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex')

const post = (check: string, body: unknown) => postToRoute(route, check, body)

/** A new server process: nothing loaded, no cached blob checked yet. */
function restart() {
  forgetOfflineSnapshots()
  forgetModelSnapshots()
}

function useRepo(repo: string, revision = 'main') {
  vi.stubEnv('OFFLINE_MODELS_REPO', repo)
  vi.stubEnv('OFFLINE_MODELS_REVISION', revision)
  restart()
}

beforeAll(async () => {
  vi.stubEnv('MODERATION_AUTH', 'off')
  vi.stubEnv('MODERATION_RATE_LIMIT_PER_MINUTE', '0')
  vi.stubEnv('OFFLINE_MODELS_DIR', '')
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-model-cache-'))
  vi.stubEnv('MODELS_CACHE_DIR', cacheDir)
  emptyModels = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-no-models-'))
  await runtime.configureModelRuntime({ modelsDir: emptyModels, loading: 'lazy', microBatching: false })
  route = await import('@/app/rai/v1/raimoderationmodels/[check]/route')

  // The seed's model repos, through the seed's own functions (the rest of the demo data needs an empty database).
  const owner = await createUser({ username: 'mr-ops', email: 'mr-ops@test.dev', password: 'password-mr-ops' })
  ownerSession = { userId: owner.id, principal: null }
  await createOrg(owner.id, { name: MODELS_NAMESPACE })
  for (const r of MODEL_REPOS) {
    const repo = await createRepo(ownerSession, r)
    await seedRepoFiles(ownerSession, repo)
    repos.set(`${r.namespace}/${r.name}`, repo)
  }
  writeToken = (await createPersonalToken(owner.id, { name: 'push', role: 'write' })).token
  hub = await startHubServer()
})

afterAll(async () => {
  vi.unstubAllEnvs()
  restart()
  await hub?.close()
  await runtime.configureModelRuntime()
  fs.rmSync(cacheDir, { recursive: true, force: true })
  fs.rmSync(emptyModels, { recursive: true, force: true })
})

describe('the seed', () => {
  it('commits every offline graph, byte for byte, as LFS files with a model card', async () => {
    const repo = repos.get(OFFLINE_MODELS_REPO)!
    const commit = await resolveRevision(repo.id, 'main')
    const entries = await treeOf(commit!.id)
    const shipped = fs.readdirSync('public/models/offline')
    expect(entries.map((e) => e.path).sort()).toEqual(['.gitattributes', 'README.md', ...shipped].sort())
    for (const file of shipped) {
      const entry = entries.find((e) => e.path === file)!
      expect(entry.blobSha256, file).toBe(sha256(path.join('public/models/offline', file)))
      if (file.endsWith('.onnx')) expect(entry.lfs, file).toBe(true)
    }
    expect(MODEL_REPOS.length).toBe(8)
  })
})

describe('the moderation API from the repo', () => {
  it('answers every graph check from hub-models/offline-moderation@main and names it', async () => {
    useRepo(OFFLINE_MODELS_REPO)
    const cases: [string, string][] = [
      ['detoxifymodel', 'toxicity-lexicon-lr'],
      ['promptinjectionmodel', 'guardrail-tfidf+phrases'],
      ['gibberishmodel', 'gibberish-lm-mlp'],
      ['bancodemodel', 'bancode-ngram-lr'],
      ['multi_q_net_embedding', 'sif-glove-wordnet+char-ngrams'],
      ['multi-qa-mpnet-model_similarity', 'sif-glove-wordnet+char-ngrams+word-alignment'],
      ['restrictedtopicmodel', 'wordnet-topics+embeddings'],
    ]
    for (const [check, model] of cases) {
      const { status, json, engine } = await post(check, CHECKS.find((e) => e.path === check)!.example)
      expect(status, `${check}: ${JSON.stringify(json)}`).toBe(200)
      expect(engine).toBe(`offline:${model} (${OFFLINE_MODELS_REPO}@main)`)
    }
    // The same answers as from the shipped folder.
    const fromRepo = await post('detoxifymodel', { text: 'You are an idiot.' })
    vi.stubEnv('OFFLINE_MODELS_DIR', 'public/models/offline')
    const fromFolder = await post('detoxifymodel', { text: 'You are an idiot.' })
    vi.stubEnv('OFFLINE_MODELS_DIR', '')
    expect(fromFolder.engine).toBe('offline:toxicity-lexicon-lr')
    expect(fromRepo.json.toxicScore).toEqual(fromFolder.json.toxicScore)
  })

  it('keeps the revision in the Hugging Face cache layout', async () => {
    const folder = repoCacheFolder(OFFLINE_MODELS_REPO)
    const commitId = fs.readFileSync(path.join(folder, 'refs', 'main'), 'utf8')
    const graph = path.join(folder, 'snapshots', commitId, 'toxicity.onnx')
    expect(fs.lstatSync(graph).isSymbolicLink()).toBe(true)
    expect(fs.realpathSync(graph)).toBe(path.join(fs.realpathSync(folder), 'blobs', sha256('public/models/offline/toxicity.onnx')))
    expect(fs.readdirSync(path.join(folder, 'blobs')).filter((f) => f.includes('incomplete'))).toEqual([])
  })

  it('loads a revision pushed with @huggingface/hub when that revision is asked for', async () => {
    const before = (await resolveRevision(repos.get(OFFLINE_MODELS_REPO)!.id, 'main'))!.id
    const pushed = await deleteFile({
      repo: { type: 'model', name: OFFLINE_MODELS_REPO },
      path: 'bancode.onnx',
      credentials: { accessToken: writeToken },
      hubUrl: hub.url,
      commitTitle: 'Retire the code classifier',
    })
    const after = pushed!.commit.oid
    expect(after).not.toBe(before)

    useRepo(OFFLINE_MODELS_REPO, after)
    const missing = await post('bancodemodel', { text: 'print(1)' })
    expect(missing.status).toBe(503)
    expect(missing.json.detail ?? JSON.stringify(missing.json)).toContain(`${OFFLINE_MODELS_REPO}@${after}: missing bancode.onnx`)
    const toxicity = await post('detoxifymodel', { text: 'hello' })
    expect(toxicity.status).toBe(200)
    expect(toxicity.engine).toBe(`offline:toxicity-lexicon-lr (${OFFLINE_MODELS_REPO}@${after})`)
    expect(fs.existsSync(path.join(repoCacheFolder(OFFLINE_MODELS_REPO), 'snapshots', after))).toBe(true)

    useRepo(OFFLINE_MODELS_REPO, before)
    expect((await post('bancodemodel', { text: 'print(1)' })).status).toBe(200)
  })
})

describe('a repo that cannot be used is a 503 naming the repo', () => {
  const reason = async (check: string, body: unknown) => {
    const { status, json } = await post(check, body)
    expect(status).toBe(503)
    return JSON.stringify(json)
  }

  it('unknown repo, unknown revision, private repo, not a repo id', async () => {
    useRepo('hub-models/no-such-model')
    expect(await reason('detoxifymodel', { text: 'hi' })).toContain('hub-models/no-such-model: no such model repo')
    useRepo(OFFLINE_MODELS_REPO, 'v9-missing')
    expect(await reason('detoxifymodel', { text: 'hi' })).toContain(`${OFFLINE_MODELS_REPO}: revision v9-missing does not exist`)
    const secret = await createRepo(ownerSession, { namespace: MODELS_NAMESPACE, name: 'private-graphs', private: true })
    await createCommit(ownerSession, secret, 'main', { summary: 'graphs', description: '', parentCommit: null }, [
      { kind: 'file', path: 'toxicity.onnx', content: fs.readFileSync('public/models/offline/toxicity.onnx') },
    ])
    // A configured repo is read with the hub's own authority (tests/integration/model-repos/private-models.test.ts): private is fine, missing files are not.
    useRepo(`${MODELS_NAMESPACE}/private-graphs`)
    expect(await reason('bancodemodel', { text: 'hi' })).toContain(`${MODELS_NAMESPACE}/private-graphs@main: missing bancode.onnx`)
    useRepo('../etc')
    expect(await reason('detoxifymodel', { text: 'hi' })).toContain('../etc: not a model repo id')
    // The exact checks need no model and still answer.
    expect((await post('sentimentmodel', { text: 'hi' })).status).toBe(200)
  })
})

describe('the cache', () => {
  const graphSha = () => sha256('public/models/offline/toxicity.onnx')
  const blob = () => path.join(repoCacheFolder(OFFLINE_MODELS_REPO), 'blobs', graphSha())

  it('is reused on restart: no blob is written again', async () => {
    useRepo(OFFLINE_MODELS_REPO)
    expect((await post('detoxifymodel', { text: 'hi' })).status).toBe(200)
    const first = fs.statSync(blob())
    restart()
    expect((await post('detoxifymodel', { text: 'hi' })).status).toBe(200)
    const second = fs.statSync(blob())
    expect(second.ino).toBe(first.ino)
    expect(second.mtimeMs).toBe(first.mtimeMs)
  })

  it('detects a corrupted cached file after a restart and fetches it again', async () => {
    fs.writeFileSync(blob(), 'not a graph')
    restart()
    const { status, engine } = await post('detoxifymodel', { text: 'hi' })
    expect(status).toBe(200)
    expect(engine).toContain(OFFLINE_MODELS_REPO)
    expect(sha256(blob())).toBe(graphSha())
  })

  it('detects a cached file overwritten in place with the same size and its mtime set back', async () => {
    // touch -r copies the timestamps to the nanosecond (Node's utimes cannot): only the ctime tells.
    const reference = path.join(cacheDir, 'mtime-reference')
    fs.writeFileSync(reference, '')
    execFileSync('touch', ['-r', blob(), reference])
    const damaged = fs.readFileSync(blob())
    damaged[damaged.length - 1] ^= 0xff
    fs.writeFileSync(blob(), damaged)
    execFileSync('touch', ['-r', reference, blob()])
    expect(fs.statSync(blob(), { bigint: true }).mtimeNs).toBe(fs.statSync(reference, { bigint: true }).mtimeNs)
    restart()
    expect((await post('detoxifymodel', { text: 'hi' })).status).toBe(200)
    expect(sha256(blob())).toBe(graphSha())
  })

  it('checks a warm cache without hashing: a stamp per blob, the tree from the manifest', async () => {
    restart()
    expect((await post('detoxifymodel', { text: 'hi' })).status).toBe(200)
    const folder = repoCacheFolder(OFFLINE_MODELS_REPO)
    const { commitId } = await modelSnapshot(OFFLINE_MODELS_REPO, 'main')
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, '.modhub', 'snapshots', `${commitId}.json`), 'utf8'))
    expect(manifest.map((e: { path: string }) => e.path)).toContain('toxicity.onnx')
    expect(fs.readFileSync(path.join(folder, '.modhub', 'verified', graphSha()), 'utf8')).toMatch(/^\d+:\d+:\d+:\d+$/)
  })

  it('never keeps a blob whose download does not match its checksum', async () => {
    const store = blobStore() as unknown as { root?: string }
    if (!store.root) return expect(process.env.STORAGE).toBe('s3') // the S3 store's objects are not on this disk
    const repo = await createRepo(ownerSession, { namespace: MODELS_NAMESPACE, name: 'damaged-graphs' })
    const content = Buffer.concat([fs.readFileSync('public/models/offline/toxicity.onnx'), Buffer.from(`\n${Date.now()}`)])
    const digest = createHash('sha256').update(content).digest('hex')
    await createCommit(ownerSession, repo, 'main', { summary: 'graphs', description: '', parentCommit: null }, [{ kind: 'file', path: 'toxicity.onnx', content }])
    // Damage the stored blob behind the hub's back.
    fs.writeFileSync(path.join(store.root, 'sha256', digest.slice(0, 2), digest.slice(2, 4), digest), content.subarray(0, 100))
    const error = await modelSnapshot(`${MODELS_NAMESPACE}/damaged-graphs`, 'main').catch((e) => e)
    expect(error).toBeInstanceOf(ModelRepoError)
    expect(error.message).toContain(`${MODELS_NAMESPACE}/damaged-graphs: checksum mismatch for toxicity.onnx`)
    const blobs = path.join(repoCacheFolder(`${MODELS_NAMESPACE}/damaged-graphs`), 'blobs')
    expect(fs.readdirSync(blobs)).toEqual([])
  })
})

describe('neural checks from model repos', () => {
  const TOXICITY_REPO = `${MODELS_NAMESPACE}/unbiased-toxic-roberta-tiny`
  const text = { text: 'You are a wonderful person.' }

  afterAll(async () => {
    vi.stubEnv('MODERATION_MODEL_TOXICITY', '')
    await runtime.configureModelRuntime({ modelsDir: emptyModels, loading: 'lazy', microBatching: false })
  })

  it('answers from the repo, names it, and matches the same files loaded from a folder', async () => {
    vi.stubEnv('MODERATION_MODEL_TOXICITY', TOXICITY_REPO)
    await runtime.configureModelRuntime({ modelsDir: emptyModels, loading: 'lazy', microBatching: false })
    const fromRepo = await post('detoxifymodel', text)
    expect(fromRepo.status, JSON.stringify(fromRepo.json)).toBe(200)
    expect(fromRepo.engine).toBe(`neural:${TOXICITY_REPO}@main`)

    vi.stubEnv('MODERATION_MODEL_TOXICITY', '')
    await runtime.configureModelRuntime({ modelsDir: path.resolve('tests/fixtures/tiny-models'), loading: 'lazy', microBatching: false })
    const fromFolder = await post('detoxifymodel', text)
    expect(fromFolder.engine).toBe('neural:unitary/unbiased-toxic-roberta')
    expect(fromRepo.json.toxicScore).toEqual(fromFolder.json.toxicScore)
  })

  it('a repo without the model files is a 503 naming it (no silent fallback)', async () => {
    vi.stubEnv('MODERATION_MODEL_TOXICITY', `${OFFLINE_MODELS_REPO}@main`)
    await runtime.configureModelRuntime({ modelsDir: emptyModels, loading: 'lazy', microBatching: false })
    const wrong = await post('detoxifymodel', text)
    expect(wrong.status).toBe(503)
    expect(JSON.stringify(wrong.json)).toContain(`${OFFLINE_MODELS_REPO}@main: missing config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx`)

    // A private repo the operator configured is read with the hub's authority: private-models.test.ts.
  })
})

describe('a hub seeded by an earlier version', () => {
  it('gets the files this version ships: only those that differ, committed on main, the rest kept', async () => {
    const repo = repos.get(OFFLINE_MODELS_REPO)!
    useRepo(OFFLINE_MODELS_REPO)
    // (The tests above pushed revisions of their own: start from what this version ships.)
    await updateShippedFiles(ownerSession, repo)
    // main as an earlier version left it: another toxicity graph, and a file of the operator's own.
    const earlier = Buffer.concat([fs.readFileSync('public/models/offline/toxicity.onnx'), Buffer.from([0])])
    await createCommit(ownerSession, repo, 'main', { summary: 'an earlier graph', description: '', parentCommit: null }, [
      { kind: 'file', path: 'toxicity.onnx', content: earlier },
      { kind: 'file', path: 'NOTES.md', content: Buffer.from('kept by the operator\n') },
    ])
    const before = await resolveRevision(repo.id, 'main')

    expect(await updateShippedFiles(ownerSession, repo)).toEqual(['toxicity.onnx'])
    const after = await resolveRevision(repo.id, 'main')
    expect(after!.id).not.toBe(before!.id)
    const entries = await treeOf(after!.id)
    expect(entries.find((e) => e.path === 'toxicity.onnx')!.blobSha256).toBe(sha256('public/models/offline/toxicity.onnx'))
    expect(entries.find((e) => e.path === 'NOTES.md')).toBeDefined()

    // Nothing left to update: no second commit.
    expect(await updateShippedFiles(ownerSession, repo)).toEqual([])
    expect((await resolveRevision(repo.id, 'main'))!.id).toBe(after!.id)
    restart()
    const answer = await post('detoxifymodel', { text: 'You are a wonderful person.' })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
  })
})
