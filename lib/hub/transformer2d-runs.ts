/**
 * Runs a repository's Transformer2DModel on the server with the caller's inputs (the design's
 * "on server route handlers via the same ONNX graphs"). The caller needs read access to the repo;
 * the checkpoint is read in-process from the revision's commit through lib/hub/files, and one
 * loaded model per repo revision and subfolder is shared by concurrent calls.
 *
 * Tensors travel as JSON (`{ dtype, shape, data }` with `data` the row-major values) or as one
 * safetensors file whose tensors are named after the forward arguments (`hidden_states`, `timestep`,
 * `added_cond_kwargs.resolution`, ...), the form diffusers users already save tensors in; the answer's
 * `sample` comes back in either form.
 */
import { readBlob } from '@/lib/storage'
import { setting } from '@/lib/config'
import { processState } from '@/lib/config/process-state'
import { sliced } from '@/lib/ratelimit'
import { HubError, unauthorized } from '@/lib/http/errors'
import { repoAccess, resolveRevision } from '@/lib/hub/files'
import { entryAt } from '@/lib/hub/files/revisions'
import type { Caller } from '@/lib/policy'
import {
  encodeSafetensors,
  fileTooLarge,
  parseSafetensors,
  readTensorData,
  toFloat32,
  Transformer2DError,
  type CheckpointFiles,
  type ForwardArgs,
  type RandomAccessFile,
  type SafetensorsDtype,
  type SafetensorsTensor,
  type TensorLike,
  type TensorType,
} from '@/lib/transformer2d'
import { nodeWorkerRuntime, Transformer2DModel } from '@/lib/transformer2d/node'

/**
 * Runs this process works on at once (TRANSFORMER2D_CONCURRENT_RUNS), a model's load included: a run
 * takes seconds of CPU and a checkpoint's memory, so without a bound a burst of requests (or of
 * distinct repos and commits, each loading its own checkpoint) could take the process's memory and
 * every core. Four times as many wait their turn, in order; beyond that the answer is 503.
 */
const slots = processState('transformer2dRunSlots', () => ({ running: 0, waiting: [] as (() => void)[] }))
const BUSY_RETRY_AFTER_SECONDS = 5

/** 503 when neither a slot nor a place in the queue is free (checked before a run is charged to the account). */
function refuseWhenFull(): void {
  const max = setting('TRANSFORMER2D_CONCURRENT_RUNS')
  if (slots.running >= max && slots.waiting.length >= 4 * max) {
    throw new HubError(503, `The server is running as many Transformer2D models as it may (${max} at once, ${4 * max} waiting); try again shortly`, undefined, BUSY_RETRY_AFTER_SECONDS)
  }
}

/** Hands the slot to the next in line, or frees it. */
function releaseSlot(): void {
  const next = slots.waiting.shift()
  if (next) next()
  else slots.running--
}

/** Runs `work` in a slot, waiting in line for one; a request whose client goes away leaves the line. */
async function inRunSlot<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const gone = () => new HubError(400, 'The client went away before the run started')
  refuseWhenFull()
  const max = setting('TRANSFORMER2D_CONCURRENT_RUNS')
  if (slots.running < max) slots.running++
  else {
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = slots.waiting.indexOf(take)
        if (at === -1) return // the slot was handed over already: it is released below
        slots.waiting.splice(at, 1)
        reject(gone())
      }
      const take = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      slots.waiting.push(take)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
    if (signal?.aborted) {
      releaseSlot()
      throw gone()
    }
  }
  try {
    return await work()
  } finally {
    releaseSlot()
  }
}

/** TRANSFORMER2D_RUNS_PER_MINUTE per account (every token of a user together): 429 beyond. */
async function spendRun(userId: string): Promise<void> {
  const perMinute = setting('TRANSFORMER2D_RUNS_PER_MINUTE')
  if (perMinute === 0) return
  const decision = await sliced.hit(`transformer2d:user:${userId}`, perMinute, 60)
  if (!decision.allowed) throw new HubError(429, `Rate limit: more than ${perMinute} Transformer2D runs a minute`, undefined, decision.retryAfterSeconds)
}

/** Loaded models kept at once; the oldest is released beyond, once its runs have ended. */
const MAX_LOADED = 4
const loaded = new Map<string, Promise<Transformer2DModel>>()
/** Runs under way on each model, and the released models that wait for theirs to end (a run's thread session cannot be pulled from under it). */
const runsOn = new Map<Transformer2DModel, number>()
const releasedWhenIdle = new Set<Transformer2DModel>()

async function runOn<T>(onModel: Transformer2DModel, work: () => Promise<T>): Promise<T> {
  runsOn.set(onModel, (runsOn.get(onModel) ?? 0) + 1)
  try {
    return await work()
  } finally {
    const left = runsOn.get(onModel)! - 1
    if (left > 0) runsOn.set(onModel, left)
    else {
      runsOn.delete(onModel)
      if (releasedWhenIdle.delete(onModel)) void onModel.dispose()
    }
  }
}

function releaseWhenIdle(released: Transformer2DModel): void {
  if (runsOn.has(released)) releasedWhenIdle.add(released)
  else void released.dispose()
}

const DTYPES: readonly TensorType[] = ['float32', 'float64', 'int64', 'int32', 'bool']
const TENSOR_ARGS = ['hidden_states', 'encoder_hidden_states', 'class_labels', 'attention_mask', 'encoder_attention_mask'] as const

const invalid = (message: string) => new HubError(422, message)

/** One JSON tensor argument as a typed array, or a 422 that names the argument. */
export function tensorFromJson(name: string, value: unknown): TensorLike {
  const t = value as { dtype?: unknown; shape?: unknown; data?: unknown }
  if (typeof value !== 'object' || value === null) throw invalid(`${name} must be an object { dtype, shape, data }`)
  if (!DTYPES.includes(t.dtype as TensorType)) throw invalid(`${name}.dtype must be one of ${DTYPES.join(', ')}`)
  if (!Array.isArray(t.shape) || !t.shape.every((d) => Number.isInteger(d) && d >= 0)) throw invalid(`${name}.shape must be a list of non-negative integers`)
  const count = (t.shape as number[]).reduce((a, b) => a * b, 1)
  if (!Array.isArray(t.data) || t.data.length !== count) throw invalid(`${name}.data must be a list of ${count} numbers (the product of its shape)`)
  const dtype = t.dtype as TensorType
  const numbers = t.data as unknown[]
  const integral = dtype === 'int64' || dtype === 'int32' || dtype === 'bool'
  if (!numbers.every((x) => typeof x === 'number' && Number.isFinite(x) && (!integral || Number.isInteger(x)))) {
    throw invalid(`${name}.data must hold ${integral ? 'integers' : 'finite numbers'} only`)
  }
  // A value the dtype cannot hold would be stored as another one (1e39 as float32 infinity, 2**40
  // as int32 0) and answered as if it had been sent.
  const [low, high] = DTYPE_RANGES[dtype]
  if (!(numbers as number[]).every((x) => x >= low && x <= high)) throw invalid(`${name}.data holds a value outside what ${dtype} holds (${low} to ${high})`)
  const values = numbers as number[]
  const data =
    dtype === 'float32' ? Float32Array.from(values)
    : dtype === 'float64' ? Float64Array.from(values)
    : dtype === 'int64' ? BigInt64Array.from(values.map(BigInt))
    : dtype === 'int32' ? Int32Array.from(values)
    : Uint8Array.from(values.map((x) => (x ? 1 : 0)))
  return { data, dims: t.shape as number[], type: dtype }
}

/** What each dtype holds exactly: float32's largest finite value, the integer types' bounds (int64 as far as JSON's numbers are exact). */
const DTYPE_RANGES: Record<TensorType, readonly [number, number]> = {
  float32: [-3.4028234663852886e38, 3.4028234663852886e38],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  bool: [-Number.MAX_VALUE, Number.MAX_VALUE],
}

const FORWARD_ARGS = new Set<string>([...TENSOR_ARGS, 'timestep', 'added_cond_kwargs'])
const ADDED_COND = ['resolution', 'aspect_ratio'] as const

/** The forward arguments of the spec from a JSON body's `inputs`. */
export function forwardArgsFromJson(inputs: unknown): ForwardArgs {
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) throw invalid('inputs must be an object of forward arguments')
  const given = inputs as Record<string, unknown>
  const unknown = Object.keys(given).filter((k) => !FORWARD_ARGS.has(k))
  if (unknown.length > 0) throw invalid(`unknown forward arguments: ${unknown.join(', ')}`)
  if (given.hidden_states == null) throw invalid('inputs.hidden_states is required')
  const args: Record<string, unknown> = {}
  for (const name of TENSOR_ARGS) if (given[name] != null) args[name] = tensorFromJson(name, given[name])
  if (typeof given.timestep === 'number') args.timestep = given.timestep
  else if (given.timestep != null) args.timestep = tensorFromJson('timestep', given.timestep)
  if (given.added_cond_kwargs != null) {
    if (typeof given.added_cond_kwargs !== 'object' || Array.isArray(given.added_cond_kwargs)) throw invalid('inputs.added_cond_kwargs must be an object { resolution, aspect_ratio }')
    const cond = given.added_cond_kwargs as Record<string, unknown>
    const unknownCond = Object.keys(cond).filter((k) => !(ADDED_COND as readonly string[]).includes(k))
    if (unknownCond.length > 0) throw invalid(`unknown added_cond_kwargs: ${unknownCond.join(', ')}`)
    args.added_cond_kwargs = Object.fromEntries(ADDED_COND.filter((k) => cond[k] != null).map((k) => [k, tensorFromJson(`added_cond_kwargs.${k}`, cond[k])]))
  }
  return { ...(args as unknown as ForwardArgs), return_dict: true }
}

/** safetensors dtypes as tensor types; half-precision inputs are widened to float32, as the model computes in float32. */
const SAFETENSORS_TYPES: Partial<Record<SafetensorsDtype, TensorType>> = { F32: 'float32', F16: 'float32', BF16: 'float32', F64: 'float64', I64: 'int64', I32: 'int32', BOOL: 'bool', U8: 'bool' }

function tensorFromSafetensors(name: string, tensor: SafetensorsTensor): TensorLike {
  const type = SAFETENSORS_TYPES[tensor.dtype]
  if (!type) throw invalid(`${name}: dtype ${tensor.dtype} is not one of ${Object.keys(SAFETENSORS_TYPES).join(', ')}`)
  // Copies: the parsed views point into the request body, which is not kept.
  const data = type === 'float32' ? toFloat32(tensor, name).slice() : readTensorData(tensor, name).slice()
  if ((data instanceof Float32Array || data instanceof Float64Array) && !data.every(Number.isFinite)) throw invalid(`${name} must hold finite numbers only (it holds NaN or infinity)`)
  return { data, dims: [...tensor.shape], type }
}

/**
 * The forward arguments from a safetensors file: a tensor per argument, named as the argument
 * (`added_cond_kwargs.resolution` and `added_cond_kwargs.aspect_ratio` for PixArt's extra conditions).
 */
export function forwardArgsFromSafetensors(bytes: Uint8Array): ForwardArgs {
  let file
  try {
    file = parseSafetensors(bytes, 'the request body')
  } catch (error) {
    if (error instanceof Transformer2DError) throw invalid(error.message)
    throw error
  }
  const names = [...file.tensors.keys()]
  const known = new Set<string>([...TENSOR_ARGS, 'timestep', ...ADDED_COND.map((k) => `added_cond_kwargs.${k}`)])
  const unknown = names.filter((k) => !known.has(k))
  if (unknown.length > 0) throw invalid(`unknown forward arguments: ${unknown.join(', ')}`)
  if (!file.tensors.has('hidden_states')) throw invalid('the safetensors body has no hidden_states tensor')
  const args: Record<string, unknown> = {}
  for (const name of [...TENSOR_ARGS, 'timestep']) {
    const tensor = file.tensors.get(name)
    if (tensor) args[name] = tensorFromSafetensors(name, tensor)
  }
  const cond = ADDED_COND.filter((k) => file.tensors.has(`added_cond_kwargs.${k}`))
  if (cond.length > 0) args.added_cond_kwargs = Object.fromEntries(cond.map((k) => [k, tensorFromSafetensors(`added_cond_kwargs.${k}`, file.tensors.get(`added_cond_kwargs.${k}`)!)]))
  return { ...(args as unknown as ForwardArgs), return_dict: true }
}

/**
 * A commit's folder as checkpoint files, read from the blob store. Weight files are opened, not read: the
 * safetensors header comes first as two ranged reads, so a malformed file is refused after a few bytes, and
 * each tensor is read by its range when the model takes it. Anyone who may push to a repo chooses these files
 * (up to FILES_MAX_FILE_BYTES each): read whole, one 768 MiB file of zeros took a server from 351 MB to 2.66 GB
 * before it was refused. Whole reads are left to the JSON files, which readJson caps (`maxBytes`).
 */
function commitFiles(repoId: string, commitId: string, folder: string): CheckpointFiles {
  const location = `${repoId}@${commitId}${folder ? `/${folder}` : ''}`
  const entryOf = (name: string) => entryAt(commitId, folder ? `${folder}/${name}` : name)
  return {
    location,
    async readBytes(name, maxBytes) {
      const entry = await entryOf(name)
      if (!entry) return null
      const size = Number(entry.size)
      if (maxBytes !== undefined && size > maxBytes) throw fileTooLarge(location, name, size, maxBytes)
      return readBlobRange(entry.blobSha256, 0, size, `${location}/${name}`)
    },
    async open(name): Promise<RandomAccessFile | null> {
      const entry = await entryOf(name)
      if (!entry) return null
      return {
        size: Number(entry.size),
        read: (offset, length) => readBlobRange(entry.blobSha256, offset, length, `${location}/${name}`),
        close: async () => undefined, // each read opens and closes its own stream
      }
    },
  }
}

/**
 * Exactly `length` bytes of a blob from `offset`, copied as they stream into one fresh buffer (aligned for
 * any typed array, as RandomAccessFile.read promises): the store's ranged read (a file range on disk, an
 * HTTP Range on S3), never more than asked for.
 */
async function readBlobRange(sha256: string, offset: number, length: number, source: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(length)
  if (length === 0) return bytes // a range cannot be empty (end is inclusive)
  let received = 0
  for await (const chunk of await readBlob(sha256, { start: offset, end: offset + length - 1 })) {
    const piece = chunk as Buffer
    if (received + piece.length <= length) bytes.set(piece, received)
    received += piece.length
    if (received > length) break
  }
  if (received !== length) {
    const gave = received > length ? 'more' : String(received)
    throw new Transformer2DError('checkpoint', `${source}: the store gave ${gave} of the ${length} bytes asked for at byte ${offset}: the stored file is not the size its commit records.`)
  }
  return bytes
}

function model(repoId: string, commitId: string, folder: string): Promise<Transformer2DModel> {
  const key = `${repoId}@${commitId}/${folder}`
  let loading = loaded.get(key)
  if (!loading) {
    loading = Transformer2DModel.fromFiles(commitFiles(repoId, commitId, folder), nodeWorkerRuntime({ threads: 1, workers: setting('TRANSFORMER2D_CONCURRENT_RUNS') }))
    loading.catch(() => loaded.delete(key))
    loaded.set(key, loading)
    if (loaded.size > MAX_LOADED) {
      const [oldest, released] = loaded.entries().next().value!
      loaded.delete(oldest)
      void released.then(releaseWhenIdle, () => undefined)
    }
  }
  return loading
}

export type Transformer2DRun = { repo: string; revision: string; commit: string; sample: { dtype: 'float32'; shape: number[]; data: Float32Array } }

/**
 * The positions one sample attends over: latent pixels (continuous), patches (patched) or latent classes
 * (discrete). Attention's time and memory grow with their square, so a server run is bounded by them.
 */
function attentionPositions(model: Transformer2DModel, args: ForwardArgs): number {
  const dims = args.hidden_states.dims
  if (model.resolved.mode === 'vectorized') return dims[1] ?? 0
  const p = model.resolved.mode === 'patched' ? (model.config.patch_size ?? 1) : 1
  return Math.floor((dims[2] ?? 0) / p) * Math.floor((dims[3] ?? 0) / p)
}

/** 422 for a run larger than TRANSFORMER2D_MAX_POSITIONS allows: per sample, and for the batch four times that. */
function checkRunSize(model: Transformer2DModel, args: ForwardArgs): void {
  const max = setting('TRANSFORMER2D_MAX_POSITIONS')
  const positions = attentionPositions(model, args)
  const batch = args.hidden_states.dims[0] ?? 1
  if (positions > max) throw invalid(`hidden_states gives ${positions} positions per sample; the server runs at most ${max} (TRANSFORMER2D_MAX_POSITIONS): run larger inputs in the browser or locally`)
  if (batch * positions > 4 * max) throw invalid(`a batch of ${batch} × ${positions} positions is more than the server runs at once (${4 * max}); send smaller batches`)
}

/** Where the model is and which inputs it runs on: a JSON body's fields, or a safetensors body with `revision` and `subfolder` from the query. */
export type Transformer2DRequest = { revision?: unknown; subfolder?: unknown } & ({ inputs?: unknown } | { safetensors: Uint8Array })

/** Runs `namespace/name` at `revision` (its `subfolder`) on the request's inputs for a caller with read access. */
export async function runRepoTransformer2D(caller: Caller, ref: { namespace: string; name: string }, body: Transformer2DRequest, signal?: AbortSignal): Promise<Transformer2DRun> {
  if (!caller) throw unauthorized('Authentication required: running a model needs a token or a session')
  const revision = typeof body.revision === 'string' && body.revision ? body.revision : 'main'
  const folder = typeof body.subfolder === 'string' ? body.subfolder.replace(/^\/+|\/+$/g, '') : 'transformer'
  if (folder.split('/').some((part) => part === '..' || part === '.')) throw invalid('subfolder must be a folder inside the repo')
  const args = 'safetensors' in body ? forwardArgsFromSafetensors(body.safetensors) : forwardArgsFromJson(body.inputs)
  const { repo } = await repoAccess(caller, { type: 'model', namespace: ref.namespace, name: ref.name }, 'read')
  const repoId = `${repo.namespace}/${repo.name}`
  const commit = await resolveRevision(repo.id, revision)
  if (!commit) throw new HubError(404, `${repoId}@${revision} holds no files`, 'EntryNotFound')
  // A busy server answers before the run is charged to the account.
  refuseWhenFull()
  await spendRun(caller.userId)
  let result
  try {
    result = await inRunSlot(async () => {
      const loadedModel = await model(repoId, commit.id, folder)
      checkRunSize(loadedModel, args)
      return runOn(loadedModel, async () => (await loadedModel.forward(args)) as { sample: { data: Float32Array; dims: readonly number[] } })
    }, signal)
  } catch (error) {
    if (!(error instanceof Transformer2DError)) throw error
    // Bad inputs are the caller's (422); a checkpoint or config that cannot load is the repo's (503, naming it).
    if (error.kind === 'input') throw invalid(error.message)
    throw new HubError(503, `${repoId}@${revision}${folder ? `/${folder}` : ''} cannot run as a Transformer2DModel: ${error.message}`)
  }
  return { repo: repoId, revision, commit: commit.id, sample: { dtype: 'float32', shape: [...result.sample.dims], data: result.sample.data } }
}

/** The run as JSON: `sample.data` as a list of numbers. */
export function runAsJson(run: Transformer2DRun) {
  return { ...run, sample: { ...run.sample, data: Array.from(run.sample.data) } }
}

/** The run as a safetensors file: the `sample` tensor (F32), with the repo, revision and commit in its metadata. */
export function runAsSafetensors(run: Transformer2DRun): Uint8Array {
  return encodeSafetensors(new Map([['sample', { dtype: 'F32' as const, shape: run.sample.shape, data: run.sample.data }]]), {
    repo: run.repo,
    revision: run.revision,
    commit: run.commit,
  })
}
