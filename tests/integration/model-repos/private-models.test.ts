/**
 * Private model repos and the moderation API (issue 15). A check's configured model
 * (MODERATION_MODEL_<CHECK>, OFFLINE_MODELS_REPO) is chosen by the operator, so the server reads
 * it with the hub's own authority, private or not. A model the caller picks for one request
 * (`?model=namespace/name[@revision]`) is read with the caller's own access: a private repo is
 * refused to a caller without access (404, as the hub answers for a private repo) and served to
 * one with access. A gated repo is refused with a message that says it is gated and where to ask,
 * until its owner grants the caller's request. The real handler, real tokens, a real database.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { db } from '@/lib/db'
import { principalFromAuthorization } from '@/lib/auth/bearer'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { sessionCredential } from '@/lib/auth/session-credentials'
import { forgetModelSnapshots, modelSnapshot } from '@/lib/hub/model-cache'
import { createOrg } from '@/lib/hub/orgs'
import { createRepo, decideGatedAccess, requestGatedAccess } from '@/lib/hub/repos'
import { createUser } from '@/lib/hub/users'
import { createModerationHandler, type ModerationHandler } from '@/lib/moderation/api/handler'
import { moderationSettings } from '@/lib/moderation/api/settings'
import { forgetOfflineSnapshots } from '@/lib/moderation/engines/offline-graphs'
import { deploymentEngines } from '@/lib/moderation/engines/registry'
import * as runtime from '@/lib/moderation/runtime'
import { mayUseModeration } from '@/lib/policy'
import { MODELS_NAMESPACE, seedRepoFiles } from '@/scripts/seed-files'
import { BASE } from '../moderation/helpers'

const NS = 'secret-models'
const PRIVATE_TOXICITY = `${NS}/private-toxicity`
const PRIVATE_GRAPHS = `${NS}/private-graphs`
const PUBLIC_TOXICITY = `${NS}/public-toxicity`
const GATED_TOXICITY = `${NS}/gated-toxicity`
const text = { text: 'You are a wonderful person.' }

let handle: ModerationHandler
let cacheDir: string
let emptyModels: string
let memberToken: string
let strangerToken: string
let memberSession: string
let strangerSession: string
let ownerId: string
let strangerId: string
let gatedRepoId: string

function handler(authRequired: boolean): ModerationHandler {
  return createModerationHandler({
    ...moderationSettings(),
    authRequired,
    engines: deploymentEngines(),
    resolvePrincipal: principalFromAuthorization,
    mayUseModeration,
    clientKey: () => 'test',
  })
}

async function post(check: string, body: unknown, options: { token?: string; model?: string; using?: ModerationHandler } = {}) {
  const url = new URL(`${BASE}/${check}`)
  if (options.model !== undefined) url.searchParams.set('model', options.model)
  const request = new Request(url, {
    method: 'POST',
    headers: { Authorization: options.token ? `Bearer ${options.token}` : 'None', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  const response = await (options.using ?? handle)(request, check)
  return { status: response.status, json: await response.json(), engine: response.headers.get('X-Moderation-Engine') }
}

async function restart(env: Record<string, string> = {}) {
  for (const name of ['MODERATION_MODEL_TOXICITY', 'OFFLINE_MODELS_REPO']) vi.stubEnv(name, env[name] ?? '')
  if (!env.OFFLINE_MODELS_REPO) vi.stubEnv('OFFLINE_MODELS_REPO', 'hub-models/offline-moderation')
  forgetOfflineSnapshots()
  forgetModelSnapshots()
  await runtime.configureModelRuntime({ modelsDir: emptyModels, loading: 'lazy', microBatching: false })
}

beforeAll(async () => {
  vi.stubEnv('MODERATION_RATE_LIMIT_PER_MINUTE', '0')
  vi.stubEnv('OFFLINE_MODELS_DIR', '')
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-private-models-'))
  vi.stubEnv('MODELS_CACHE_DIR', cacheDir)
  emptyModels = fs.mkdtempSync(path.join(os.tmpdir(), 'modhub-no-models-'))

  const owner = await createUser({ username: 'pm-owner', email: 'pm-owner@test.dev', password: 'password-pm-owner' })
  const stranger = await createUser({ username: 'pm-stranger', email: 'pm-stranger@test.dev', password: 'password-pm-stranger' })
  const session = { userId: owner.id, principal: null }
  await createOrg(owner.id, { name: NS })
  // The tiny toxicity model's and the offline graphs' seed files, committed into private and public repos.
  for (const [name, seeded, isPrivate, gated] of [
    ['private-toxicity', 'unbiased-toxic-roberta-tiny', true, false],
    ['public-toxicity', 'unbiased-toxic-roberta-tiny', false, false],
    ['private-graphs', 'offline-moderation', true, false],
    ['gated-toxicity', 'unbiased-toxic-roberta-tiny', false, true],
  ] as const) {
    const repo = await createRepo(session, { namespace: NS, name, private: isPrivate, gated })
    await seedRepoFiles(session, { ...repo, namespace: MODELS_NAMESPACE, name: seeded })
    if (gated) gatedRepoId = repo.id
  }
  ownerId = owner.id
  strangerId = stranger.id
  memberToken = (await createPersonalToken(owner.id, { name: 'moderation', role: 'write' })).token
  strangerToken = (await createPersonalToken(stranger.id, { name: 'moderation', role: 'write' })).token
  memberSession = (await sessionCredential(owner.id)).token
  strangerSession = (await sessionCredential(stranger.id)).token
  handle = handler(true)
})

afterAll(async () => {
  vi.unstubAllEnvs()
  forgetOfflineSnapshots()
  forgetModelSnapshots()
  await runtime.configureModelRuntime()
  fs.rmSync(cacheDir, { recursive: true, force: true })
  fs.rmSync(emptyModels, { recursive: true, force: true })
})

describe('a model the operator configured', () => {
  it('is read with the hub\'s own authority: a private neural repo answers', async () => {
    await restart({ MODERATION_MODEL_TOXICITY: PRIVATE_TOXICITY })
    const { status, json, engine } = await post('detoxifymodel', text, { token: strangerToken })
    expect(status, JSON.stringify(json)).toBe(200)
    expect(engine).toBe(`neural:${PRIVATE_TOXICITY}@main`)
  })

  it('is read with the hub\'s own authority: private offline graphs answer', async () => {
    await restart({ OFFLINE_MODELS_REPO: PRIVATE_GRAPHS })
    const { status, engine } = await post('detoxifymodel', text, { token: strangerToken })
    expect(status).toBe(200)
    expect(engine).toBe(`offline:toxicity-lexicon-lr (${PRIVATE_GRAPHS}@main)`)
  })

  it('that does not exist is still a 503 naming it', async () => {
    await restart({ MODERATION_MODEL_TOXICITY: `${NS}/nothing-here` })
    const { status, json } = await post('detoxifymodel', text, { token: memberToken })
    expect(status).toBe(503)
    expect(JSON.stringify(json)).toContain(`${NS}/nothing-here: no such model repo`)
  })
})

describe('a model the caller picks (?model=)', () => {
  it('is refused to a caller without access to the private repo, as if it did not exist', async () => {
    await restart()
    const refused = await post('detoxifymodel', text, { token: strangerToken, model: PRIVATE_TOXICITY })
    expect(refused.status).toBe(404)
    expect(JSON.stringify(refused.json)).toContain(`${PRIVATE_TOXICITY}: no such model repo, or you have no read access to it`)
    const unknown = await post('detoxifymodel', text, { token: strangerToken, model: `${NS}/nothing-here` })
    expect(unknown.status).toBe(404)
    expect(JSON.stringify(unknown.json)).toBe(JSON.stringify(refused.json).replace(PRIVATE_TOXICITY, `${NS}/nothing-here`))
  })

  it('is served to a caller with access, and names the repo and revision', async () => {
    await restart()
    const served = await post('detoxifymodel', text, { token: memberToken, model: PRIVATE_TOXICITY })
    expect(served.status, JSON.stringify(served.json)).toBe(200)
    expect(served.engine).toBe(`neural:${PRIVATE_TOXICITY}@main`)
    // Loaded once per repo revision, and access is checked on every request, not only on the load.
    expect((await post('detoxifymodel', text, { token: strangerToken, model: PRIVATE_TOXICITY })).status).toBe(404)
    // The same files answer the same scores as the operator's configured repo.
    await restart({ MODERATION_MODEL_TOXICITY: PUBLIC_TOXICITY })
    const configured = await post('detoxifymodel', text, { token: strangerToken })
    expect(configured.json.toxicScore).toEqual(served.json.toxicScore)
    // A repo id in another letter case is the same repo, as on the Hub.
    const shouted = await post('detoxifymodel', text, { token: memberToken, model: PRIVATE_TOXICITY.toUpperCase() })
    expect(shouted.status, JSON.stringify(shouted.json)).toBe(200)
    expect(shouted.json.toxicScore).toEqual(served.json.toxicScore)
    // To a stranger it is refused in the words of a repo that does not exist: named as asked, not by its own spelling.
    const hidden = await post('detoxifymodel', text, { token: strangerToken, model: PRIVATE_TOXICITY.toUpperCase() })
    const missing = await post('detoxifymodel', text, { token: strangerToken, model: `${NS}/nothing-here`.toUpperCase() })
    expect(hidden.status).toBe(404)
    expect(JSON.stringify(hidden.json)).toBe(JSON.stringify(missing.json).replace(`${NS}/nothing-here`.toUpperCase(), PRIVATE_TOXICITY.toUpperCase()))
  })

  it('through a session credential (the playground\'s server side), is read with its user\'s own access', async () => {
    await restart()
    const served = await post('detoxifymodel', text, { token: memberSession, model: PRIVATE_TOXICITY })
    expect(served.status, JSON.stringify(served.json)).toBe(200)
    expect(served.engine).toBe(`neural:${PRIVATE_TOXICITY}@main`)
    const refused = await post('detoxifymodel', text, { token: strangerSession, model: PRIVATE_TOXICITY })
    expect(refused.status).toBe(404)
    expect(JSON.stringify(refused.json)).toContain(`${PRIVATE_TOXICITY}: no such model repo, or you have no read access to it`)
  })

  it('public repos serve anyone, also with auth off (an anonymous caller)', async () => {
    await restart()
    const open = handler(false)
    const served = await post('detoxifymodel', text, { model: `${PUBLIC_TOXICITY}@main`, using: open })
    expect(served.status, JSON.stringify(served.json)).toBe(200)
    expect(served.engine).toBe(`neural:${PUBLIC_TOXICITY}@main`)
    expect((await post('detoxifymodel', text, { model: PRIVATE_TOXICITY, using: open })).status).toBe(404)
    // Revisions named as every other read of the hub takes them: refs/heads/…, HEAD, an abbreviated commit id.
    const [ns, name] = PUBLIC_TOXICITY.split('/') as [string, string]
    const head = await db.repoRef.findFirstOrThrow({ where: { name: 'main', repo: { type: 'model', namespace: ns, name } } })
    for (const revision of ['refs/heads/main', 'HEAD', head.commitId.slice(0, 7)]) {
      const picked = await post('detoxifymodel', text, { model: `${PUBLIC_TOXICITY}@${revision}`, using: open })
      expect(picked.status, `${revision}: ${JSON.stringify(picked.json)}`).toBe(200)
      expect(picked.json.toxicScore).toEqual(served.json.toxicScore)
    }
  })

  it('bad choices are the caller\'s 404 or 422 naming the problem (not a 503, which invites retries), never a 500', async () => {
    await restart()
    const notAnId = await post('detoxifymodel', text, { token: memberToken, model: '../etc' })
    expect(notAnId.status).toBe(422)
    expect(JSON.stringify(notAnId.json)).toContain('namespace/name')
    const noModel = await post('sentimentmodel', text, { token: memberToken, model: PUBLIC_TOXICITY })
    expect(noModel.status).toBe(422)
    expect(JSON.stringify(noModel.json)).toContain('runs no model')
    const badRevision = await post('detoxifymodel', text, { token: memberToken, model: `${PUBLIC_TOXICITY}@v9` })
    expect(badRevision.status).toBe(404)
    expect(JSON.stringify(badRevision.json)).toContain(`${PUBLIC_TOXICITY}: revision v9 does not exist`)
    // Similarity of two given embeddings runs no model: a pick there (misspelt, unreadable or fine) is said, not ignored.
    for (const model of [`${NS}/nothing-here`, PRIVATE_TOXICITY]) {
      const unused = await post('multi-qa-mpnet-model_similarity', { emb1: [1, 0], emb2: [0, 1] }, { token: strangerToken, model })
      expect(unused.status).toBe(422)
      expect(JSON.stringify(unused.json)).toContain('This request runs no model')
    }
    expect((await post('multi-qa-mpnet-model_similarity', { emb1: [1, 0], emb2: [0, 1] }, { token: strangerToken })).status).toBe(200)
    const wrongFiles = await post('detoxifymodel', text, { token: memberToken, model: PRIVATE_GRAPHS })
    expect(wrongFiles.status).toBe(422)
    expect(JSON.stringify(wrongFiles.json)).toContain(`${PRIVATE_GRAPHS}@main: missing config.json`)
  })
})

describe('a gated model repo the caller picks (?model=)', () => {
  const gatedMessage = `${GATED_TOXICITY}: a gated model repo whose files you have not been granted access to (request access on its page, /${GATED_TOXICITY})`

  it('is refused, saying it is gated and where to ask, until its owner grants the request; then it answers', async () => {
    await restart()
    const refused = await post('detoxifymodel', text, { token: strangerToken, model: GATED_TOXICITY })
    expect(refused.status).toBe(404)
    expect(refused.json.detail).toBe(gatedMessage)
    await requestGatedAccess({ userId: strangerId, principal: null }, 'model', NS, 'gated-toxicity')
    const pending = await post('detoxifymodel', text, { token: strangerToken, model: GATED_TOXICITY })
    expect(pending.json.detail).toBe(gatedMessage)
    await decideGatedAccess({ userId: ownerId, principal: null }, gatedRepoId, strangerId, 'accepted')
    const granted = await post('detoxifymodel', text, { token: strangerToken, model: GATED_TOXICITY })
    expect(granted.status, JSON.stringify(granted.json)).toBe(200)
    expect(granted.engine).toBe(`neural:${GATED_TOXICITY}@main`)
  })

  it('signed out, the refusal says to sign in first; a repo that does not exist keeps the one answer for both', async () => {
    await expect(modelSnapshot(GATED_TOXICITY, 'main', [], { caller: null })).rejects.toThrow(
      `${GATED_TOXICITY}: a gated model repo whose files you have not been granted access to (sign in and request access on its page, /${GATED_TOXICITY})`,
    )
    await expect(modelSnapshot(`${NS}/nothing-here`, 'main', [], { caller: null })).rejects.toThrow(`${NS}/nothing-here: no such model repo, or you have no read access to it`)
  })
})
