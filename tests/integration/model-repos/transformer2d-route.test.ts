/**
 * POST /api/transformer2d/{namespace}/{name}: the real route handler runs a private repo's
 * Transformer2DModel on the caller's tensors (JSON, or one safetensors file, answered in either form)
 * and answers diffusers' golden output; anonymous
 * callers get 401, callers without access 404, bad inputs 422 with the library's message, a repo
 * without a checkpoint 503 naming it; concurrent calls share one loaded model.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { createCommit } from '@/lib/hub/files'
import { createRepo } from '@/lib/hub/repos'
import { createUser } from '@/lib/hub/users'
import { encodeSafetensors, parseSafetensors, type SafetensorsDtype, type TensorToWrite } from '@/lib/transformer2d'
import { Transformer2DModel } from '@/lib/transformer2d/node'
import * as route from '@/app/api/transformer2d/[namespace]/[name]/route'
import { caseDir, compare, goldenCases, goldenForwardArgs, readTensors } from '../../unit/transformer2d/golden'

const golden = goldenCases().find((c) => c.name === 'cont_conv_cross')!
let ownerToken: string
let outsiderToken: string

/** The golden case's forward arguments as the route's JSON tensors. */
function jsonInputs() {
  const args = goldenForwardArgs(golden) as unknown as Record<string, { data: ArrayLike<number | bigint>; dims: number[]; type?: string } | number | null | undefined>
  const inputs: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(args)) {
    if (value == null || typeof value === 'number') {
      if (typeof value === 'number') inputs[name] = value
      continue
    }
    if (typeof value !== 'object' || !('dims' in value)) continue
    const dtype = value.type ?? (value.data instanceof Float32Array ? 'float32' : value.data instanceof BigInt64Array ? 'int64' : value.data instanceof Int32Array ? 'int32' : value.data instanceof Uint8Array ? 'bool' : 'float64')
    inputs[name] = { dtype, shape: [...value.dims], data: Array.from(value.data as ArrayLike<number | bigint>, Number) }
  }
  return inputs
}

async function post(repo: string, body: unknown, token?: string) {
  const [namespace, name] = repo.split('/')
  const request = new Request(`http://hub.test/api/transformer2d/${repo}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  const response = await route.POST(request, { params: Promise.resolve({ namespace: namespace!, name: name! }) })
  return { status: response.status, json: await response.json() }
}

/** The golden case's forward arguments as one safetensors file, each tensor named as its argument. */
function safetensorsInputs(override: Record<string, TensorToWrite> = {}) {
  const args = goldenForwardArgs(golden) as unknown as Record<string, { data: ArrayBufferView; dims: number[] } | boolean>
  const dtypeOf = (data: ArrayBufferView): SafetensorsDtype =>
    data instanceof Float32Array ? 'F32' : data instanceof Float64Array ? 'F64' : data instanceof BigInt64Array ? 'I64' : data instanceof Int32Array ? 'I32' : 'BOOL'
  const tensors = new Map<string, TensorToWrite>()
  for (const [name, value] of Object.entries(args)) if (typeof value === 'object') tensors.set(name, { dtype: dtypeOf(value.data), shape: value.dims, data: value.data })
  for (const [name, tensor] of Object.entries(override)) tensors.set(name, tensor)
  return encodeSafetensors(tensors)
}

async function postSafetensors(repo: string, body: Uint8Array, options: { token?: string; query?: string; accept?: string } = {}) {
  const [namespace, name] = repo.split('/')
  const request = new Request(`http://hub.test/api/transformer2d/${repo}${options.query ?? ''}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/octet-stream',
      ...(options.accept ? { Accept: options.accept } : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    body: Buffer.from(body),
  })
  const response = await route.POST(request, { params: Promise.resolve({ namespace: namespace!, name: name! }) })
  const bytes = new Uint8Array(await response.arrayBuffer())
  return { status: response.status, type: response.headers.get('content-type'), bytes, json: () => JSON.parse(new TextDecoder().decode(bytes)) }
}

beforeAll(async () => {
  const owner = await createUser({ username: 't2droute-owner', email: 't2droute-owner@test.dev', password: 'password-owner' })
  const outsider = await createUser({ username: 't2droute-outsider', email: 't2droute-outsider@test.dev', password: 'password-outsider' })
  ownerToken = (await createPersonalToken(owner.id, { name: 'r', role: 'read' })).token
  outsiderToken = (await createPersonalToken(outsider.id, { name: 'r', role: 'read' })).token
  const session = { userId: owner.id, principal: null }
  const repo = await createRepo(session, { namespace: owner.username, name: 'private-t2d', private: true })
  const file = (name: string) => fs.readFileSync(path.join(caseDir(golden), name))
  await createCommit(session, repo, 'main', { summary: 'checkpoint', description: '', parentCommit: null }, [
    { kind: 'file', path: 'transformer/config.json', content: file('config.json') },
    { kind: 'file', path: 'transformer/diffusion_pytorch_model.safetensors', content: file('weights.safetensors') },
    { kind: 'file', path: 'README.md', content: Buffer.from('# no checkpoint at the root\n') },
  ])
})
afterAll(() => vi.restoreAllMocks())

describe('POST /api/transformer2d/{repo}', () => {
  const REPO = 't2droute-owner/private-t2d'

  it('runs the repo on the caller\'s inputs; concurrent calls share one loaded model', async () => {
    const loads = vi.spyOn(Transformer2DModel, 'fromFiles')
    const [a, b] = await Promise.all([post(REPO, { inputs: jsonInputs() }, ownerToken), post(REPO, { inputs: jsonInputs() }, ownerToken)])
    expect(a.status, JSON.stringify(a.json).slice(0, 300)).toBe(200)
    expect(b.status).toBe(200)
    expect(loads).toHaveBeenCalledTimes(1)
    expect(a.json.repo).toBe(REPO)
    expect(a.json.commit).toMatch(/^[0-9a-f]{40}$/)
    const expected = readTensors(path.join(caseDir(golden), 'outputs.safetensors')).get('sample')!
    expect(a.json.sample.shape).toEqual([...expected.dims])
    const { atol, rtol } = golden.recommended_tolerance
    expect(compare(Float32Array.from(a.json.sample.data), expected.data as Float32Array, atol, rtol).violations).toBe(0)
    expect(b.json.sample.data).toEqual(a.json.sample.data)
  })

  it('bounds runs: per account and minute (429), and at once per process, with a queue (503 beyond it)', async () => {
    vi.stubEnv('TRANSFORMER2D_RUNS_PER_MINUTE', '0')
    vi.stubEnv('TRANSFORMER2D_CONCURRENT_RUNS', '1')
    // Each run waits at the gate until released, so the queue can be seen.
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const forward = Transformer2DModel.prototype.forward
    let started = 0
    const spy = vi.spyOn(Transformer2DModel.prototype, 'forward').mockImplementation(async function (this: Transformer2DModel, ...args) {
      started++
      await gate
      return forward.apply(this, args)
    })
    const runs = Array.from({ length: 7 }, () => post(REPO, { inputs: jsonInputs() }, ownerToken))
    await vi.waitFor(() => expect(started).toBe(1))
    // One running, four waiting: the sixth and seventh are turned away at once.
    const settled = await Promise.race([Promise.allSettled(runs), new Promise((r) => setTimeout(() => r('pending'), 300))])
    expect(settled).toBe('pending')
    release()
    const answers = await Promise.all(runs)
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 503, 503])
    expect(answers.find((a) => a.status === 503)!.json.error).toMatch(/as many Transformer2D models as it may/)
    expect(started).toBe(5)

    // A request whose client goes away while it waits leaves the line: its run never starts.
    let releaseAgain!: () => void
    const gateAgain = new Promise<void>((resolve) => (releaseAgain = resolve))
    started = 0
    spy.mockImplementation(async function (this: Transformer2DModel, ...args) {
      started++
      await gateAgain
      return forward.apply(this, args)
    })
    const first = post(REPO, { inputs: jsonInputs() }, ownerToken)
    await vi.waitFor(() => expect(started).toBe(1))
    const client = new AbortController()
    const waiting = route.POST(
      new Request(`http://hub.test/api/transformer2d/${REPO}`, {
        method: 'POST', signal: client.signal,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ownerToken}` }, body: JSON.stringify({ inputs: jsonInputs() }),
      }),
      { params: Promise.resolve({ namespace: REPO.split('/')[0]!, name: REPO.split('/')[1]! }) },
    )
    await new Promise((r) => setTimeout(r, 50))
    client.abort()
    expect((await waiting).status).toBe(400)
    releaseAgain()
    expect((await first).status).toBe(200)
    expect(started).toBe(1)
    spy.mockRestore()

    vi.stubEnv('TRANSFORMER2D_CONCURRENT_RUNS', '2')
    vi.stubEnv('TRANSFORMER2D_RUNS_PER_MINUTE', '2')
    const runner = await createUser({ username: 't2droute-runner', email: 't2droute-runner@test.dev', password: 'password-runner' })
    const runnerToken = (await createPersonalToken(runner.id, { name: 'r', role: 'read' })).token
    const publicRepo = await createRepo({ userId: runner.id, principal: null }, { namespace: runner.username, name: 'public-t2d' })
    const file = (name: string) => fs.readFileSync(path.join(caseDir(golden), name))
    await createCommit({ userId: runner.id, principal: null }, publicRepo, 'main', { summary: 'checkpoint', description: '', parentCommit: null }, [
      { kind: 'file', path: 'transformer/config.json', content: file('config.json') },
      { kind: 'file', path: 'transformer/diffusion_pytorch_model.safetensors', content: file('weights.safetensors') },
    ])
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await post('t2droute-runner/public-t2d', { inputs: jsonInputs() }, runnerToken)).status)
    expect(statuses).toEqual([200, 200, 429])
    // Another account is not held by this one's minute.
    expect((await post('t2droute-runner/public-t2d', { inputs: jsonInputs() }, outsiderToken)).status).toBe(200)
    vi.unstubAllEnvs()
  })

  it('needs a caller with read access', async () => {
    expect((await post(REPO, { inputs: jsonInputs() })).status).toBe(401)
    expect((await post(REPO, { inputs: jsonInputs() }, outsiderToken)).status).toBe(404)
  })

  it('answers bad inputs with 422 and the library\'s message, a repo without a checkpoint with 503 naming it', async () => {
    const inputs = jsonInputs() as Record<string, { dtype: string; shape: number[]; data: number[] }>
    const hs = inputs.hidden_states!
    const wrongChannels = { ...inputs, hidden_states: { ...hs, shape: [hs.shape[0]!, hs.shape[1]! + 1, ...hs.shape.slice(2)], data: [...hs.data, ...new Array(hs.data.length / hs.shape[1]!).fill(0)] } }
    const wrong = await post(REPO, { inputs: wrongChannels }, ownerToken)
    expect(wrong.status).toBe(422)
    expect(wrong.json.error).toMatch(/hidden_states/)
    const short = await post(REPO, { inputs: { ...inputs, hidden_states: { ...hs, data: hs.data.slice(1) } } }, ownerToken)
    expect(short.status).toBe(422)
    expect(short.json.error).toContain('hidden_states.data must be a list of')
    expect((await post(REPO, { inputs: { ...inputs, sample: 1 } }, ownerToken)).json.error).toContain('unknown forward arguments: sample')
    // Values the dtype cannot hold are refused, not stored as others (1e39 as float32 infinity: an answer of nulls).
    const overflow = await post(REPO, { inputs: { ...inputs, hidden_states: { ...hs, data: hs.data.map(() => 1e39) } } }, ownerToken)
    expect([overflow.status, overflow.json.error]).toEqual([422, expect.stringContaining('outside what float32 holds')])
    const junkCond = await post(REPO, { inputs: { ...inputs, added_cond_kwargs: 'x' } }, ownerToken)
    expect([junkCond.status, junkCond.json.error]).toEqual([422, expect.stringContaining('added_cond_kwargs must be an object')])
    const root = await post(REPO, { inputs, subfolder: '' }, ownerToken)
    expect(root.status).toBe(503)
    expect(root.json.error).toContain(`${REPO}@main cannot run as a Transformer2DModel`)
    const badRevision = await post(REPO, { inputs, revision: 'nope' }, ownerToken)
    expect(badRevision.status).toBe(404)
  })

  it('refuses empty tensors (which ended the process in ONNX Runtime) and runs larger than TRANSFORMER2D_MAX_POSITIONS, with 422', async () => {
    const inputs = jsonInputs() as Record<string, { dtype: string; shape: number[]; data: number[] }>
    const hs = inputs.hidden_states!
    const ehs = inputs.encoder_hidden_states!
    const emptyBatch = { ...inputs, hidden_states: { ...hs, shape: [0, ...hs.shape.slice(1)], data: [] }, encoder_hidden_states: { ...ehs, shape: [0, ...ehs.shape.slice(1)], data: [] } }
    const empty = await post(REPO, { inputs: emptyBatch }, ownerToken)
    expect(empty.status).toBe(422)
    expect(empty.json.error).toContain('has an empty dimension')
    const noPixels = await post(REPO, { inputs: { ...inputs, hidden_states: { ...hs, shape: [hs.shape[0]!, hs.shape[1]!, 0, 0], data: [] } } }, ownerToken)
    expect(noPixels.status).toBe(422)

    process.env.TRANSFORMER2D_MAX_POSITIONS = String(hs.shape[2]! * hs.shape[3]! - 1)
    try {
      const tooLarge = await post(REPO, { inputs }, ownerToken)
      expect(tooLarge.status).toBe(422)
      expect(tooLarge.json.error).toContain('TRANSFORMER2D_MAX_POSITIONS')
    } finally {
      delete process.env.TRANSFORMER2D_MAX_POSITIONS
    }
    expect((await post(REPO, { inputs }, ownerToken)).status).toBe(200)
  })

  it('takes the inputs as one safetensors file and answers in safetensors (Accept) or JSON, the same numbers', async () => {
    const viaJson = await post(REPO, { inputs: jsonInputs() }, ownerToken)
    const binary = await postSafetensors(REPO, safetensorsInputs(), { token: ownerToken, accept: 'application/octet-stream' })
    expect(binary.status, new TextDecoder().decode(binary.bytes).slice(0, 300)).toBe(200)
    expect(binary.type).toBe('application/octet-stream')
    const answer = parseSafetensors(binary.bytes, 'the answer')
    expect(answer.metadata).toEqual({ repo: REPO, revision: 'main', commit: viaJson.json.commit })
    const sample = answer.tensors.get('sample')!
    expect(sample.dtype).toBe('F32')
    expect(sample.shape).toEqual(viaJson.json.sample.shape)
    expect(Array.from(new Float32Array(sample.bytes.slice().buffer))).toEqual(viaJson.json.sample.data)
    const expected = readTensors(path.join(caseDir(golden), 'outputs.safetensors')).get('sample')!
    const { atol, rtol } = golden.recommended_tolerance
    expect(compare(new Float32Array(sample.bytes.slice().buffer), expected.data as Float32Array, atol, rtol).violations).toBe(0)
    // Without Accept, the answer is JSON; revision and subfolder come from the query.
    const asJson = await postSafetensors(REPO, safetensorsInputs(), { token: ownerToken, query: '?revision=main&subfolder=transformer' })
    expect(asJson.status).toBe(200)
    expect(asJson.json().sample.data).toEqual(viaJson.json.sample.data)
  })

  it('answers a bad safetensors body with 422 naming the problem, and checks access and revision as for JSON', async () => {
    const bad = async (body: Uint8Array) => {
      const answer = await postSafetensors(REPO, body, { token: ownerToken })
      expect(answer.status, answer.json().error).toBe(422)
      return answer.json().error as string
    }
    expect(await bad(new Uint8Array([1, 2, 3]))).toContain('the request body is not a valid safetensors file')
    expect(await bad(safetensorsInputs({ sample: { dtype: 'F32', shape: [1], data: new Float32Array(1) } }))).toContain('unknown forward arguments: sample')
    expect(await bad(encodeSafetensors(new Map([['encoder_hidden_states', { dtype: 'F32', shape: [1], data: new Float32Array(1) }]])))).toContain('no hidden_states tensor')
    expect(await bad(safetensorsInputs({ timestep: { dtype: 'I8', shape: [2], data: new Int8Array(2) } }))).toContain('timestep: dtype I8 is not one of')
    expect(await bad(safetensorsInputs({ hidden_states: { dtype: 'F32', shape: [2, 9, 3, 5], data: new Float32Array(2 * 9 * 3 * 5) } }))).toMatch(/hidden_states/)
    const hs = parseSafetensors(safetensorsInputs(), 'inputs').tensors.get('hidden_states')!
    expect(await bad(safetensorsInputs({ hidden_states: { dtype: 'F32', shape: [...hs.shape], data: new Float32Array(hs.shape.reduce((a, b) => a * b, 1)).fill(Number.NaN) } }))).toContain('hidden_states must hold finite numbers only')
    expect((await postSafetensors(REPO, safetensorsInputs())).status).toBe(401)
    expect((await postSafetensors(REPO, safetensorsInputs(), { token: outsiderToken })).status).toBe(404)
    expect((await postSafetensors(REPO, safetensorsInputs(), { token: ownerToken, query: '?revision=nope' })).status).toBe(404)
    const root = await postSafetensors(REPO, safetensorsInputs(), { token: ownerToken, query: '?subfolder=' })
    expect(root.status).toBe(503)
    expect(root.json().error).toContain(`${REPO}@main cannot run as a Transformer2DModel`)
  })
})
