import { configFromJson } from './config'
import { Transformer2DError } from './errors'
import { parseSafetensorsHeader, safetensorsHeaderLength, toFloat32, type SafetensorsEntry } from './safetensors'

/** Random read access to one file, so a checkpoint's tensors can be read one at a time. */
export interface RandomAccessFile {
  readonly size: number
  /** Exactly `length` bytes from `offset`, in a fresh buffer (aligned for any typed array). */
  read(offset: number, length: number): Promise<Uint8Array>
  close(): Promise<void>
}

/** Read access to the files of one model folder; `null` means the file does not exist. */
export interface CheckpointFiles {
  /** Where the files come from, for error messages (a path or a URL). */
  readonly location: string
  /**
   * The whole file. With `maxBytes`, a source that knows the file's size before reading it refuses a larger one
   * with `fileTooLarge` instead of reading it (readJson checks the length of what comes back as well).
   */
  readBytes(name: string, maxBytes?: number): Promise<Uint8Array | null>
  /** Opens a file for reading parts of it; without it, weight files are read whole with `readBytes`. */
  open?(name: string): Promise<RandomAccessFile | null>
}

export interface Parameter {
  shape: readonly number[]
  data: Float32Array
}

/** A file already in memory, behind the same interface as a file on disk. */
export function bytesFile(bytes: Uint8Array): RandomAccessFile {
  return {
    size: bytes.length,
    read: async (offset, length) => bytes.slice(offset, offset + length),
    close: async () => {},
  }
}

async function openFile(files: CheckpointFiles, name: string): Promise<RandomAccessFile | null> {
  if (files.open) return files.open(name)
  const bytes = await files.readBytes(name)
  return bytes && bytesFile(bytes)
}

/** Where one tensor of the checkpoint is: its file, the file's name for messages, and its header entry. */
interface TensorLocation {
  file: RandomAccessFile
  source: string
  dataStart: number
  entry: SafetensorsEntry
}

/**
 * The model's weights by state-dict key. Only the safetensors headers are read up front; `take` reads one tensor
 * from its file and converts it to float32 when the model asks for it, so a checkpoint is never held in memory
 * twice. `check` validates a key's shape against what the configuration needs without reading anything, so a
 * checkpoint of the wrong layout fails with the key and both shapes named before gigabytes are read.
 */
export class StateDict {
  private readonly taken = new Set<string>()

  constructor(
    private readonly tensors: ReadonlyMap<string, TensorLocation>,
    readonly source: string,
    private readonly files: readonly RandomAccessFile[],
  ) {}

  check(name: string, shape: readonly number[]): void {
    const tensor = this.tensors.get(name)
    if (!tensor) {
      throw new Transformer2DError('checkpoint', `${this.source} has no weight "${name}" (expected shape [${shape}]); the checkpoint does not match the config.`)
    }
    const actual = tensor.entry.shape
    if (actual.length !== shape.length || actual.some((d, i) => d !== shape[i])) {
      throw new Transformer2DError('checkpoint', `Weight "${name}" in ${tensor.source} has shape [${actual}] but the config needs [${shape}].`)
    }
    this.taken.add(name)
  }

  async take(name: string, shape: readonly number[]): Promise<Float32Array> {
    this.check(name, shape)
    const { file, dataStart, entry } = this.tensors.get(name)!
    const bytes = await file.read(dataStart + entry.begin, entry.end - entry.begin)
    return toFloat32({ dtype: entry.dtype, shape: entry.shape, bytes }, name)
  }

  /** The stored dtypes and how many tensors have each (e.g. { F16: 812 }). */
  dtypes(): Record<string, number> {
    const counts: Record<string, number> = {}
    for (const { entry } of this.tensors.values()) counts[entry.dtype] = (counts[entry.dtype] ?? 0) + 1
    return counts
  }

  /** Keys the model did not use (diffusers warns about these and ignores them). */
  unusedKeys(): string[] {
    return [...this.tensors.keys()].filter((key) => !this.taken.has(key))
  }

  /** Closes the weight files; `take` fails afterwards. */
  async close(): Promise<void> {
    await Promise.all(this.files.map((f) => f.close()))
  }
}

export interface CheckpointOptions {
  /** Loads `diffusion_pytorch_model.<variant>.safetensors` (or its sharded index), e.g. "fp16", as diffusers' `variant` does. */
  variant?: string
}

/**
 * Largest JSON file of a checkpoint that is read (config.json is about a kilobyte, the index of a sharded checkpoint
 * with thousands of tensors a few hundred kilobytes): the files may come from anyone who can push to a repo, and a server
 * reading them must not hold a gigabyte "config" in memory.
 */
export const MAX_JSON_BYTES = 16 * 1024 ** 2

/** The error for a file over the size its kind may have, before or after it was read. */
export function fileTooLarge(location: string, name: string, size: number, maxBytes: number): Transformer2DError {
  return new Transformer2DError('checkpoint', `${location}/${name} is ${size} bytes, more than the ${maxBytes} bytes this loader reads for it.`)
}

async function readJson(files: CheckpointFiles, name: string): Promise<unknown> {
  const bytes = await files.readBytes(name, MAX_JSON_BYTES)
  if (!bytes) return null
  if (bytes.length > MAX_JSON_BYTES) throw fileTooLarge(files.location, name, bytes.length, MAX_JSON_BYTES)
  try {
    return JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    throw new Transformer2DError('checkpoint', `${files.location}/${name} is not valid JSON.`)
  }
}

export async function readConfig(files: CheckpointFiles): Promise<Record<string, unknown>> {
  const json = await readJson(files, 'config.json')
  if (json === null) throw new Transformer2DError('checkpoint', `${files.location} has no config.json.`)
  return configFromJson(json)
}

/** Reads a safetensors header and returns where each of its tensors is. */
async function readHeader(file: RandomAccessFile, source: string): Promise<Map<string, TensorLocation>> {
  const headerLength = safetensorsHeaderLength(await file.read(0, Math.min(8, file.size)), file.size, source)
  const { entries, dataStart } = parseSafetensorsHeader(await file.read(8, headerLength), file.size, source)
  return new Map([...entries].map(([name, entry]) => [name, { file, source, dataStart, entry }]))
}

/**
 * diffusers' names for a variant: `_add_variant` puts the variant before the last extension, so the single file is
 * `diffusion_pytorch_model.fp16.safetensors` and the index `diffusion_pytorch_model.safetensors.index.fp16.json`.
 * Older diffusers releases wrote the index as `diffusion_pytorch_model.fp16.safetensors.index.json`; both are read.
 */
function weightFileNames(variant: string | undefined): { single: string[]; index: string[] } {
  if (!variant) {
    return { single: ['diffusion_pytorch_model.safetensors', 'weights.safetensors', 'model.safetensors'], index: ['diffusion_pytorch_model.safetensors.index.json'] }
  }
  return {
    single: [`diffusion_pytorch_model.${variant}.safetensors`],
    index: [`diffusion_pytorch_model.safetensors.index.${variant}.json`, `diffusion_pytorch_model.${variant}.safetensors.index.json`],
  }
}

async function readSharded(files: CheckpointFiles, indexName: string, index: unknown): Promise<StateDict> {
  const indexSource = `${files.location}/${indexName}`
  const weightMap = (index as { weight_map?: unknown } | null)?.weight_map
  if (typeof weightMap !== 'object' || weightMap === null || Array.isArray(weightMap)) {
    throw new Transformer2DError('checkpoint', `${indexSource} has no weight_map.`)
  }
  const map = weightMap as Record<string, unknown>
  for (const [key, shard] of Object.entries(map)) {
    if (typeof shard !== 'string' || shard.includes('/') || shard.includes('\\')) {
      throw new Transformer2DError('checkpoint', `${indexSource} maps "${key}" to ${JSON.stringify(shard)}, which is not a file name in the same folder.`)
    }
  }
  const shardNames = [...new Set(Object.values(map) as string[])]
  const opened: RandomAccessFile[] = []
  const tensors = new Map<string, TensorLocation>()
  try {
    for (const [i, shard] of shardNames.entries()) {
      const file = await openFile(files, shard)
      if (!file) {
        throw new Transformer2DError('checkpoint', `${indexSource} names shard ${shard} (${i + 1} of ${shardNames.length}), which is missing from ${files.location}.`)
      }
      opened.push(file)
      for (const [key, location] of await readHeader(file, `${files.location}/${shard}`)) {
        const previous = tensors.get(key)
        if (previous) throw new Transformer2DError('checkpoint', `Weight "${key}" is in both ${previous.source} and ${location.source}.`)
        if (map[key] !== shard) {
          const where = map[key] === undefined ? 'does not list it' : `maps it to ${map[key] as string}`
          throw new Transformer2DError('checkpoint', `${location.source} holds weight "${key}" but ${indexSource} ${where}: the shards and the index disagree.`)
        }
        tensors.set(key, location)
      }
    }
    for (const [key, shard] of Object.entries(map)) {
      if (!tensors.has(key)) {
        throw new Transformer2DError('checkpoint', `${indexSource} maps "${key}" to ${shard as string}, but that shard does not contain it: the shards and the index disagree.`)
      }
    }
  } catch (error) {
    await Promise.all(opened.map((f) => f.close()))
    throw error
  }
  return new StateDict(tensors, indexSource, opened)
}

/**
 * Opens the weights of a diffusers model folder: `diffusion_pytorch_model[.variant].safetensors`, or its sharded
 * form (the `.index.json` plus the shards it names), or a plain `weights.safetensors` / `model.safetensors` state
 * dict. Only headers are read here; see `StateDict`.
 */
export async function readStateDict(files: CheckpointFiles, options: CheckpointOptions = {}): Promise<StateDict> {
  const names = weightFileNames(options.variant)
  for (const name of names.single) {
    const file = await openFile(files, name)
    if (!file) continue
    const source = `${files.location}/${name}`
    try {
      return new StateDict(await readHeader(file, source), source, [file])
    } catch (error) {
      await file.close()
      throw error
    }
  }
  for (const name of names.index) {
    const index = await readJson(files, name)
    if (index !== null) return readSharded(files, name, index)
  }
  throw new Transformer2DError('checkpoint', `${files.location} has no ${names.single[0]} (or its sharded ${names.index[0]}).`)
}
