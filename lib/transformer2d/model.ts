import { readModelMetadata } from '@/lib/onnx'
import { readConfig, readStateDict, type CheckpointFiles, type CheckpointOptions } from './checkpoint'
import { resolveConfig, type ResolvedConfig, type Transformer2DConfig } from './config'
import { Transformer2DError } from './errors'
import { weightNeeds } from './fit'
import type { ForwardArgs } from './forward-args'
import { buildTransformer2DGraph, CONTRIB_OPSET, OPSET } from './graph'
import { GRAPH_OUTPUT } from './graph-inputs'
import type { ComputeDtype, ParameterSource, WeightSlot } from './layers/context'
import { prepareInputs } from './prepare-inputs'
import type { InferenceRuntime, RuntimeSession, RuntimeTensor } from './runtime/types'
import { defaultSignature, signatureKey, usesEncoderHiddenStates, type GraphSignature } from './signature'
import type { FloatTensor } from './tensor'
import { formatBytes, loadWeights, slotBytes, type WeightValues } from './weights'

const METADATA_CONFIG = 'transformer2d.config'
const METADATA_SIGNATURE = 'transformer2d.signature'

export interface ModelOptions {
  /** Receives diffusers' warnings (ignored kwargs, unused checkpoint keys); default console.warn. */
  warn?: (message: string) => void
  /**
   * `float32`, or `float16`: the weights kept in half precision (half the memory) and the projections' MatMuls
   * computed in it, the rest in float32 (README states the tolerance). Default: the runtime's `precision` (float16
   * on a WebGPU adapter with shader-f16), else float32.
   */
  dtype?: ComputeDtype
}

const DTYPES: readonly ComputeDtype[] = ['float32', 'float16']

/** The model's compute dtype, refused (before any weight is read) where the runtime cannot run it. */
function checkedDtype(options: ModelOptions, runtime: InferenceRuntime, exportedGraph: boolean): ComputeDtype {
  // An exported graph is float32 whatever the runtime prefers.
  const dtype = options.dtype ?? (exportedGraph ? 'float32' : (runtime.precision?.dtype ?? 'float32'))
  if (!DTYPES.includes(dtype)) throw new Transformer2DError('input', `dtype ${JSON.stringify(options.dtype)} is not one of ${DTYPES.join(', ')}.`)
  if (dtype === 'float16' && (!runtime.float16 || !runtime.weightsAsInputs || exportedGraph)) {
    const why = exportedGraph ? 'an exported float32 graph' : (runtime.precision?.reason ?? 'it computes in float32 only')
    throw new Transformer2DError('input', `dtype float16 runs from a checkpoint on onnxruntime-node's CPU provider, WebAssembly, or a WebGPU adapter with shader-f16; not on this runtime (${runtime.device}): ${why}`)
  }
  return dtype
}

/** Weights by state-dict key; a checkpoint also reports the keys the model did not use and closes its files. */
export type WeightSource = ParameterSource & {
  /** Where the weights come from, for messages (a checkpoint's file or index). */
  readonly source?: string
  unusedKeys?: () => string[]
  close?: () => Promise<void>
}

/** protobuf messages, and so .onnx files with the weights inside, are limited to 2 GiB. */
const MAX_ONNX_FILE_BYTES = 2 ** 31 - 1

/** Whether a model's float32 weights fit inside one .onnx file, as the browser runtimes need them. */
export interface OneFileFit {
  /** Float32 bytes of the weights the default graph takes. */
  weightBytes: number
  /** The most one .onnx file can carry (protobuf's 2 GiB). */
  limitBytes: number
  fits: boolean
}

/** Answers `OneFileFit` from the configuration alone: no weight is read, so a page can tell before downloading. */
export function oneFileFit(config: Readonly<Record<string, unknown>>): OneFileFit {
  const resolved = resolveConfig(config)
  const weightBytes = slotBytes(buildTransformer2DGraph(resolved, { kind: 'inputs' }, defaultSignature(resolved)).slots)
  return { weightBytes, limitBytes: MAX_ONNX_FILE_BYTES, fits: weightBytes <= MAX_ONNX_FILE_BYTES }
}

function fitsOneFileMessage(weightBytes: number): string {
  return `This model's float32 weights take ${formatBytes(weightBytes)}; one .onnx file holds at most 2.15 GB (the protobuf limit), so it cannot run with its weights inside the graph (exportOnnx, or a runtime that takes them so). fromPretrained feeds them as graph inputs instead, on the server and in the browser.`
}

/** Throws, naming the size, when float32 weights cannot be carried inside one .onnx file. */
function checkFitsOneFile(slots: readonly WeightSlot[]): void {
  const bytes = slotBytes(slots)
  if (bytes > MAX_ONNX_FILE_BYTES) throw new Transformer2DError('checkpoint', fitsOneFileMessage(bytes))
}

/** A runtime session and the weight inputs its graph takes (none when the weights are initializers). */
interface LoadedGraph {
  session: RuntimeSession
  weights: Readonly<Record<string, RuntimeTensor>>
}

/** Where a model's graphs come from: built from weights on demand, or one exported .onnx file. */
export type GraphSource = { kind: 'weights'; weights: WeightSource } | { kind: 'onnx'; bytes: Uint8Array; signature: GraphSignature }

type ModelConstructor<T> = new (resolved: ResolvedConfig, source: GraphSource, runtime: InferenceRuntime, options: ModelOptions) => T

/**
 * diffusers Transformer2DModel (v0.37.0) as ONNX graphs. The platform entry points (`node.ts`, `browser.ts`)
 * subclass it with `fromPretrained` for their file access and runtime.
 */
export class Transformer2DModelBase {
  private readonly sessions = new Map<string, Promise<LoadedGraph>>()
  /**
   * Weights by graph name (float32, or float16 bits), read once from the source; dropped once their tensor lives on
   * the runtime's device (a GPU buffer), so the page does not keep a second copy.
   */
  private readonly weightValues = new Map<string, WeightValues>()
  /** The runtime's tensor of each weight, made once and shared by every graph (on WebGPU: uploaded once). */
  private readonly weightTensors = new Map<string, Promise<RuntimeTensor>>()
  private readonly posEmbedCache = new Map<string, Float32Array>()
  private readonly warned = new Set<string>()
  private readonly warn: (message: string) => void
  readonly dtype: ComputeDtype

  /** Use the static factories; they validate the config and load the first graph. */
  constructor(
    readonly resolved: ResolvedConfig,
    private readonly source: GraphSource,
    readonly runtime: InferenceRuntime,
    options: ModelOptions,
  ) {
    this.warn = options.warn ?? ((m) => console.warn(m))
    this.dtype = checkedDtype(options, runtime, source.kind === 'onnx')
  }

  /** The full configuration, defaults included (what diffusers registers). */
  get config(): Transformer2DConfig {
    return this.resolved.config
  }

  /**
   * Builds a model from a configuration (validated like diffusers' constructor) and weights keyed by state-dict
   * name. Builds and loads the default graph at once, so a checkpoint that does not fit fails here.
   */
  static async fromConfig<T extends Transformer2DModelBase>(
    this: ModelConstructor<T>,
    config: Readonly<Record<string, unknown>>,
    weights: WeightSource,
    runtime: InferenceRuntime,
    options: ModelOptions = {},
  ): Promise<T> {
    return Transformer2DModelBase.loadWeights(this, config, weights, runtime, options)
  }

  /** Loads a diffusers model folder (config.json + safetensors, single or sharded, fp32/fp16/bf16). */
  static async fromFiles<T extends Transformer2DModelBase>(
    this: ModelConstructor<T>,
    files: CheckpointFiles,
    runtime: InferenceRuntime,
    options: ModelOptions & CheckpointOptions = {},
  ): Promise<T> {
    const dtype = checkedDtype(options, runtime, false)
    const config = await readConfig(files)
    resolveConfig(config) // a bad config fails before the weights are read
    // Where the weights must fit one .onnx file (the browser), a model that cannot fails before gigabytes download.
    if (!runtime.weightsAsInputs) {
      const fit = oneFileFit(config)
      if (!fit.fits) throw new Transformer2DError('checkpoint', fitsOneFileMessage(fit.weightBytes))
    }
    const problem = await runtime.fitProblem?.(weightNeeds(config), dtype)
    if (problem) throw new Transformer2DError('checkpoint', `${files.location}: ${problem}`)
    const stateDict = await readStateDict(files, options)
    try {
      return await Transformer2DModelBase.loadWeights(this, config, stateDict, runtime, options)
    } catch (error) {
      await stateDict.close()
      throw error
    }
  }

  /** Wraps an .onnx file written by `exportOnnx`; it answers the calls its graph signature was exported for. */
  static async fromOnnx<T extends Transformer2DModelBase>(this: ModelConstructor<T>, bytes: Uint8Array, runtime: InferenceRuntime, options: ModelOptions = {}): Promise<T> {
    const metadata = readModelMetadata(bytes)
    if (!metadata[METADATA_CONFIG] || !metadata[METADATA_SIGNATURE]) {
      throw new Transformer2DError('checkpoint', 'This .onnx file was not exported by Transformer2DModel.exportOnnx (its config metadata is missing).')
    }
    const signature = JSON.parse(metadata[METADATA_SIGNATURE]) as GraphSignature
    const model = new this(resolveConfig(JSON.parse(metadata[METADATA_CONFIG])), { kind: 'onnx', bytes, signature }, runtime, options)
    await model.loadedGraph(signature)
    return model
  }

  private static async loadWeights<T extends Transformer2DModelBase>(
    Model: ModelConstructor<T>,
    config: Readonly<Record<string, unknown>>,
    weights: WeightSource,
    runtime: InferenceRuntime,
    options: ModelOptions,
  ): Promise<T> {
    const model = new Model(resolveConfig(config), { kind: 'weights', weights }, runtime, options)
    await model.loadedGraph(defaultSignature(model.resolved))
    const unused = weights.unusedKeys?.() ?? []
    if (unused.length) {
      model.warn(`Transformer2DModel: ${unused.length} checkpoint weights are not used by this config and were ignored: ${unused.slice(0, 8).join(', ')}${unused.length > 8 ? ', …' : ''}`)
    }
    return model
  }

  /**
   * The .onnx bytes of this model for one call signature (default: encoder states if the model reads them, no
   * masks), weights inside. The config and signature are stored in the file's metadata, so `fromOnnx` needs
   * nothing else. Models whose weights pass the 2 GB protobuf limit cannot be one file.
   */
  async exportOnnx(signature: GraphSignature = defaultSignature(this.resolved)): Promise<Uint8Array> {
    if (this.source.kind === 'onnx') {
      if (signatureKey(signature) !== signatureKey(this.source.signature)) this.unsupportedSignature(signature)
      return this.source.bytes
    }
    if (this.dtype !== 'float32') throw new Transformer2DError('input', 'exportOnnx writes float32 graphs; load the model with dtype float32 to export it.')
    const { slots } = buildTransformer2DGraph(this.resolved, { kind: 'inputs' }, signature)
    checkFitsOneFile(slots)
    await this.loadSlots(slots)
    const values = this.weightValues as Map<string, Float32Array> // float32: checked above
    return this.encode(buildTransformer2DGraph(this.resolved, { kind: 'initializers', values }, signature).graph, signature)
  }

  forward(args: ForwardArgs & { return_dict?: true }): Promise<{ sample: FloatTensor }>
  forward(args: ForwardArgs & { return_dict: false }): Promise<[FloatTensor]>
  forward(args: ForwardArgs): Promise<{ sample: FloatTensor } | [FloatTensor]>
  async forward(args: ForwardArgs): Promise<{ sample: FloatTensor } | [FloatTensor]> {
    this.checkCrossAttentionKwargs(args.cross_attention_kwargs ?? null)
    if (args.encoder_hidden_states && !usesEncoderHiddenStates(this.resolved)) this.warnOnce('encoder_hidden_states is ignored: this model has no cross-attention.')
    const { signature, feeds } = prepareInputs(this.resolved, args, this.posEmbedCache)
    const { session, weights } = await this.loadedGraph(signature)
    const tensors = Object.fromEntries(Object.entries(feeds).map(([name, f]) => [name, this.runtime.tensor(f.type, f.data, f.dims)]))
    Object.assign(tensors, weights)
    const result = (await session.run(tensors))[GRAPH_OUTPUT]
    const sample: FloatTensor = { type: 'float32', data: result.data as Float32Array, dims: [...result.dims] }
    return args.return_dict === false ? [sample] : { sample }
  }

  /** Releases the runtime sessions, the weights (a GPU runtime's buffers) and the checkpoint's files. */
  async dispose(): Promise<void> {
    const sessions = [...this.sessions.values()]
    const tensors = [...this.weightTensors.values()]
    this.sessions.clear()
    this.weightTensors.clear()
    this.weightValues.clear()
    await Promise.all(sessions.map(async (s) => (await s.catch(() => null))?.session.release()))
    // After the sessions: a buffer is destroyed once no session can run on it.
    for (const tensor of await Promise.all(tensors.map((t) => t.catch(() => null)))) tensor?.dispose?.()
    if (this.source.kind === 'weights') await this.source.weights.close?.()
  }

  private loadedGraph(signature: GraphSignature): Promise<LoadedGraph> {
    const key = signatureKey(signature)
    let loaded = this.sessions.get(key)
    if (!loaded) {
      if (this.source.kind === 'onnx' && key !== signatureKey(this.source.signature)) this.unsupportedSignature(signature)
      loaded = this.createGraph(signature)
      loaded.catch(() => this.sessions.delete(key))
      this.sessions.set(key, loaded)
    }
    return loaded
  }

  private async createGraph(signature: GraphSignature): Promise<LoadedGraph> {
    if (this.source.kind === 'onnx' || !this.runtime.weightsAsInputs) {
      return { session: await this.runtime.createSession(await this.exportOnnx(signature)), weights: {} }
    }
    const { graph, slots } = buildTransformer2DGraph(this.resolved, { kind: 'inputs', dtype: this.dtype }, signature)
    await this.loadSlots(slots.filter((s) => !this.weightTensors.has(s.name)))
    // The session first: a GPU runtime's device exists once it has one, and weight buffers are made on it.
    const session = await this.runtime.createSession(this.encode(graph, signature))
    try {
      const weights: Record<string, RuntimeTensor> = {}
      for (const { name, dims } of slots) {
        let tensor = this.weightTensors.get(name)
        if (!tensor) {
          const values = this.weightValues.get(name)!
          tensor = this.runtime.weightTensor?.(this.dtype, values, dims) ?? Promise.resolve(this.runtime.tensor(this.dtype, values, dims))
          tensor.catch(() => this.weightTensors.delete(name))
          this.weightTensors.set(name, tensor)
        }
        weights[name] = await tensor
        if (weights[name].location === 'gpu-buffer') this.weightValues.delete(name)
      }
      return { session, weights }
    } catch (error) {
      await session.release()
      throw error
    }
  }

  private async loadSlots(slots: Parameters<typeof loadWeights>[0]): Promise<void> {
    if (this.source.kind !== 'weights') return
    const { weights } = this.source
    await loadWeights(slots, weights, this.weightValues, { location: weights.source ?? 'the weights', availableBytes: this.runtime.availableMemoryBytes?.(), dtype: this.dtype })
  }

  private encode(graph: ReturnType<typeof buildTransformer2DGraph>['graph'], signature: GraphSignature): Uint8Array {
    return graph.toBytes({
      opset: OPSET,
      extraOpsets: CONTRIB_OPSET,
      producerName: 'modhub-transformer2d',
      doc: 'diffusers v0.37.0 Transformer2DModel',
      metadata: { [METADATA_CONFIG]: JSON.stringify(this.resolved.config), [METADATA_SIGNATURE]: JSON.stringify(signature) },
    })
  }

  private unsupportedSignature(signature: GraphSignature): never {
    const exported = (this.source as { signature: GraphSignature }).signature
    const describe = (s: GraphSignature) =>
      [s.encoderHiddenStates && 'encoder_hidden_states', s.attentionMask && 'attention_mask', s.encoderAttentionMask && 'encoder_attention_mask'].filter(Boolean).join(', ') || 'none'
    throw new Transformer2DError('input', `This model was loaded from an exported graph that takes optional inputs [${describe(exported)}]; this call passes [${describe(signature)}]. Export a graph for that combination.`)
  }

  private checkCrossAttentionKwargs(kwargs: Record<string, unknown> | null): void {
    if (!kwargs) return
    if (kwargs.gligen !== undefined && kwargs.gligen !== null) {
      throw new Transformer2DError('input', 'cross_attention_kwargs.gligen (GLIGEN grounding) is not supported by this implementation.')
    }
    if (kwargs.scale !== undefined && kwargs.scale !== null) this.warnOnce('Passing `scale` to `cross_attention_kwargs` is deprecated. `scale` will be ignored.')
    const ignored = Object.keys(kwargs).filter((k) => !['scale', 'gligen'].includes(k))
    if (ignored.length) this.warnOnce(`cross_attention_kwargs [${ignored.map((k) => `'${k}'`).join(', ')}] are not expected by AttnProcessor and will be ignored.`)
  }

  private warnOnce(message: string): void {
    if (this.warned.has(message)) return
    this.warned.add(message)
    this.warn(message)
  }
}
