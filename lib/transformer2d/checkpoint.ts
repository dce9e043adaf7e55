import { configFromJson } from './config'
import { Transformer2DError } from './errors'
import { parseSafetensors, toFloat32 } from './safetensors'

/** Read access to the files of one model folder; `null` means the file does not exist. */
export interface CheckpointFiles {
  /** Where the files come from, for error messages (a path or a URL). */
  readonly location: string
  readBytes(name: string): Promise<Uint8Array | null>
}

export interface Parameter {
  shape: readonly number[]
  data: Float32Array
}

/**
 * The model's weights by state-dict key, converted to float32. `take` checks each key's shape against what the
 * configuration needs, so a checkpoint of the wrong layout fails with the key and both shapes named.
 */
export class StateDict {
  private readonly taken = new Set<string>()

  constructor(
    private readonly parameters: ReadonlyMap<string, Parameter>,
    readonly source: string,
  ) {}

  take(name: string, shape: readonly number[]): Float32Array {
    const parameter = this.parameters.get(name)
    if (!parameter) {
      throw new Transformer2DError('checkpoint', `${this.source} has no weight "${name}" (expected shape [${shape}]); the checkpoint does not match the config.`)
    }
    if (parameter.shape.length !== shape.length || parameter.shape.some((d, i) => d !== shape[i])) {
      throw new Transformer2DError('checkpoint', `Weight "${name}" in ${this.source} has shape [${parameter.shape}] but the config needs [${shape}].`)
    }
    this.taken.add(name)
    return parameter.data
  }

  /** Keys the model did not use (diffusers warns about these and ignores them). */
  unusedKeys(): string[] {
    return [...this.parameters.keys()].filter((key) => !this.taken.has(key))
  }
}

export interface CheckpointOptions {
  /** Loads `diffusion_pytorch_model.<variant>.safetensors`, e.g. "fp16", as diffusers' `variant` does. */
  variant?: string
}

async function readJson(files: CheckpointFiles, name: string): Promise<unknown> {
  const bytes = await files.readBytes(name)
  if (!bytes) return null
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

function addSafetensors(parameters: Map<string, Parameter>, bytes: Uint8Array, source: string): void {
  for (const [name, tensor] of parseSafetensors(bytes, source).tensors) {
    parameters.set(name, { shape: tensor.shape, data: toFloat32(tensor, name) })
  }
}

/**
 * Loads the weights of a diffusers model folder: `diffusion_pytorch_model[.variant].safetensors`, or its sharded
 * form (`….safetensors.index.json` plus the shards it names), or a plain `weights.safetensors` /
 * `model.safetensors` state dict.
 */
export async function readStateDict(files: CheckpointFiles, options: CheckpointOptions = {}): Promise<StateDict> {
  const stem = options.variant ? `diffusion_pytorch_model.${options.variant}` : 'diffusion_pytorch_model'
  const parameters = new Map<string, Parameter>()
  for (const name of [`${stem}.safetensors`, ...(options.variant ? [] : ['weights.safetensors', 'model.safetensors'])]) {
    const bytes = await files.readBytes(name)
    if (!bytes) continue
    addSafetensors(parameters, bytes, `${files.location}/${name}`)
    return new StateDict(parameters, `${files.location}/${name}`)
  }
  const indexName = `${stem}.safetensors.index.json`
  const index = (await readJson(files, indexName)) as { weight_map?: Record<string, string> } | null
  if (index) {
    if (typeof index.weight_map !== 'object' || index.weight_map === null) {
      throw new Transformer2DError('checkpoint', `${files.location}/${indexName} has no weight_map.`)
    }
    for (const shard of new Set(Object.values(index.weight_map))) {
      const bytes = await files.readBytes(shard)
      if (!bytes) throw new Transformer2DError('checkpoint', `${files.location}/${indexName} names shard ${shard}, which is missing.`)
      addSafetensors(parameters, bytes, `${files.location}/${shard}`)
    }
    for (const key of Object.keys(index.weight_map)) {
      if (!parameters.has(key)) {
        throw new Transformer2DError('checkpoint', `${files.location}/${indexName} maps "${key}" to ${index.weight_map[key]}, but that shard does not contain it.`)
      }
    }
    return new StateDict(parameters, `${files.location}/${indexName}`)
  }
  throw new Transformer2DError('checkpoint', `${files.location} has no ${stem}.safetensors (or its .index.json).`)
}
