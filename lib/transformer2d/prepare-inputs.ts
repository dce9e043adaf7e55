import type { ResolvedConfig } from './config'
import { Transformer2DError } from './errors'
import type { ForwardArgs } from './forward-args'
import { GraphInput } from './graph-inputs'
import { sincos2dPositionEmbedding } from './layers/sincos'
import { requiresEncoderHiddenStates, usesEncoderHiddenStates, type GraphSignature } from './signature'
import { numel, tensorType, type TensorLike } from './tensor'

/** A graph input value: float32 or int64 data with its dims. */
export type Feed = { type: 'float32'; data: Float32Array; dims: number[] } | { type: 'int64'; data: BigInt64Array; dims: number[] }

export interface PreparedInputs {
  signature: GraphSignature
  feeds: Record<string, Feed>
}

function invalid(message: string): never {
  throw new Transformer2DError('input', message)
}

function shapeOf(t: TensorLike): string {
  return `[${t.dims.join(', ')}]`
}

function checkSize(name: string, t: TensorLike): void {
  if (numel(t.dims) !== t.data.length) invalid(`${name} has dims ${shapeOf(t)} (${numel(t.dims)} values) but holds ${t.data.length} values.`)
}

function asFloat32(name: string, t: TensorLike): Float32Array {
  checkSize(name, t)
  const type = tensorType(t)
  if (type === 'float32') return t.data as Float32Array
  if (type === 'float64' || type === 'int32') return Float32Array.from(t.data as Float64Array | Int32Array)
  if (type === 'int64') return Float32Array.from(t.data as BigInt64Array, Number)
  invalid(`${name} must be a float tensor; got ${type}.`)
}

function asInt64(name: string, t: TensorLike): BigInt64Array {
  checkSize(name, t)
  const type = tensorType(t)
  if (type === 'int64') return t.data as BigInt64Array
  if (type === 'int32') return BigInt64Array.from(t.data as Int32Array, BigInt)
  invalid(`${name} must be an integer tensor (int64 or int32); got ${type}.`)
}

/** torch's (1 − mask) · −10000 in float32; bool/int/float masks all go through their float value. */
function maskToBias(name: string, mask: TensorLike): Float32Array {
  checkSize(name, mask)
  const values: ArrayLike<number | bigint> = mask.data
  const out = new Float32Array(values.length)
  for (let i = 0; i < out.length; i++) out[i] = Math.fround(Math.fround(1 - Math.fround(Number(values[i]))) * -10000)
  return out
}

/**
 * Converts an attention mask or bias to the graph's (B, rows, keys) additive bias, as diffusers does:
 * a 2-D (B, keys) mask becomes (1 − m)·−10000 with a query axis of 1; any other rank is used as a bias as given.
 */
function attentionBias(name: string, mask: TensorLike, batch: number, keys: number, queries: number): Feed {
  if (mask.dims.length !== 2 && mask.dims.length !== 3) {
    invalid(`${name} must be a 2-D (batch, keys) mask or a 3-D (batch, 1 or queries, keys) bias; got dims ${shapeOf(mask)}.`)
  }
  // diffusers pads a mask whose key count differs with `keys` zeros (not the difference), then fails on the shape.
  const maskKeys = mask.dims[mask.dims.length - 1]
  if (maskKeys !== keys) invalid(`${name} covers ${maskKeys} keys but the attention has ${keys} keys (dims ${shapeOf(mask)}).`)
  if (mask.dims[0] !== batch) invalid(`${name} has batch ${mask.dims[0]} but hidden_states has batch ${batch}.`)
  if (mask.dims.length === 2) return { type: 'float32', data: maskToBias(name, mask), dims: [batch, 1, keys] }
  const type = tensorType(mask)
  if (type !== 'float32' && type !== 'float64') invalid(`${name} given as a 3-D tensor is an additive bias and must be float; got ${type}.`)
  const rows = mask.dims[1]
  if (rows !== 1 && rows !== queries) invalid(`${name} ${shapeOf(mask)} must have 1 or ${queries} query rows.`)
  return { type: 'float32', data: asFloat32(name, mask), dims: [batch, rows, keys] }
}

function scalarValue(t: TensorLike | number): number {
  return typeof t === 'number' ? t : Number(t.data[0])
}

function dimsOf(t: TensorLike | number): readonly number[] {
  return typeof t === 'number' ? [] : t.dims
}

/**
 * Refuses a tensor argument that is not one ({data, dims, type}, as onnxruntime's Tensor; the HTTP route's
 * {dtype, shape, data} is the route's own form, converted there), and one with a dimension of size 0 (an empty batch,
 * a 0×0 latent, no encoder tokens): ONNX Runtime cannot reshape or normalise an empty tensor (its kernels fail, and
 * some end the process), and there is nothing to compute.
 */
function refuseMalformedTensors(args: ForwardArgs): void {
  const tensors: [string, TensorLike | number | null | undefined][] = [
    ['hidden_states', args.hidden_states],
    ['encoder_hidden_states', args.encoder_hidden_states],
    ['timestep', args.timestep],
    ['class_labels', args.class_labels],
    ['attention_mask', args.attention_mask],
    ['encoder_attention_mask', args.encoder_attention_mask],
    ['added_cond_kwargs.resolution', args.added_cond_kwargs?.resolution],
    ['added_cond_kwargs.aspect_ratio', args.added_cond_kwargs?.aspect_ratio],
  ]
  for (const [name, t] of tensors) {
    if (t === null || t === undefined || typeof t === 'number') continue
    const tensor = t as Partial<TensorLike>
    if (typeof t !== 'object' || !Array.isArray(tensor.dims) || !tensor.dims.every((d) => Number.isInteger(d) && d >= 0) || typeof tensor.data?.length !== 'number') {
      const keys = typeof t === 'object' ? Object.keys(t).slice(0, 8).join(', ') : typeof t
      invalid(`${name} must be a tensor {data, dims, type} (an onnxruntime Tensor, or an object of that shape); got ${typeof t === 'object' ? `an object with ${keys || 'no keys'}` : keys}.`)
    }
    if (t.dims.some((d) => d === 0)) invalid(`${name} has an empty dimension (dims ${shapeOf(t)}): every dimension must be at least 1.`)
  }
}

/**
 * Checks one forward call against the model and turns it into graph feeds, raising the conditions diffusers
 * v0.37.0 raises (with messages that say what to change) and refusing its silent failure (ada_norm_zero with a
 * non-square patch grid).
 */
/**
 * Position tables a model keeps, the most recently used: each is patches × inner dimension floats (75 MB for a
 * 128×128 grid at PixArt-XL's 1,152), any of thousands of grid sizes may be asked for, and a server keeps its
 * models loaded, so keeping every size a caller sent grew its memory without bound.
 */
export const POS_EMBED_TABLES_KEPT = 4

export function prepareInputs(r: ResolvedConfig, args: ForwardArgs, posEmbedCache: Map<string, Float32Array>): PreparedInputs {
  const c = r.config
  const D = r.innerDim
  const feeds: Record<string, Feed> = {}
  const hidden = args.hidden_states
  if (!hidden) invalid('hidden_states is required.')
  refuseMalformedTensors(args)
  let batch: number
  let tokens: number

  if (r.mode === 'vectorized') {
    if (hidden.dims.length !== 2) invalid(`Discrete hidden_states must be (batch, num latent pixels) class indices; got dims ${shapeOf(hidden)}.`)
    const data = asInt64('hidden_states', hidden)
    ;[batch, tokens] = hidden.dims
    const maxPixels = c.sample_size! ** 2
    if (tokens > maxPixels) invalid(`Discrete hidden_states has ${tokens} latent pixels but the model has position embeddings for sample_size² = ${maxPixels}.`)
    for (const v of data) {
      if (v < 0n || v >= BigInt(c.num_vector_embeds!)) invalid(`Discrete hidden_states holds class ${v}; classes run from 0 to num_vector_embeds − 1 = ${c.num_vector_embeds! - 1} (the last is the mask class).`)
    }
    feeds[GraphInput.hiddenStates] = { type: 'int64', data, dims: [...hidden.dims] }
  } else {
    if (hidden.dims.length !== 4 || hidden.dims[1] !== c.in_channels) {
      invalid(`hidden_states must be (batch, in_channels ${c.in_channels}, height, width); got dims ${shapeOf(hidden)}.`)
    }
    const [b, , height, width] = hidden.dims
    batch = b
    feeds[GraphInput.hiddenStates] = { type: 'float32', data: asFloat32('hidden_states', hidden), dims: [...hidden.dims] }
    if (r.mode === 'continuous') {
      tokens = height * width
    } else {
      const p = c.patch_size!
      const [gridH, gridW] = [Math.floor(height / p), Math.floor(width / p)]
      if (gridH < 1 || gridW < 1) invalid(`hidden_states ${height}×${width} is smaller than one ${p}×${p} patch.`)
      if (r.blockNormType === 'ada_norm_zero' && gridH !== gridW) {
        invalid(
          `ada_norm_zero (DiT) models need a square patch grid; got ${gridH}×${gridW} patches. diffusers v0.37.0 unpatchifies with height = width = √(patches) ` +
            'and silently returns a wrong batch for non-square input, so this call is refused.',
        )
      }
      tokens = gridH * gridW
      const key = `${gridH}x${gridW}`
      let table = posEmbedCache.get(key)
      if (table) {
        posEmbedCache.delete(key)
        posEmbedCache.set(key, table)
      } else {
        const base = Math.floor(c.sample_size! / p)
        table = sincos2dPositionEmbedding(D, gridH, gridW, base, r.interpolationScale)
        posEmbedCache.set(key, table)
        for (const oldest of posEmbedCache.keys()) {
          if (posEmbedCache.size <= POS_EMBED_TABLES_KEPT) break
          posEmbedCache.delete(oldest)
        }
      }
      feeds[GraphInput.posEmbed] = { type: 'float32', data: table, dims: [1, tokens, D] }
    }
  }

  // Encoder states.
  const encoder = usesEncoderHiddenStates(r) ? (args.encoder_hidden_states ?? null) : null
  let encoderTokens = 0
  if (encoder) {
    const width = r.mode === 'patched' && c.caption_channels !== null ? c.caption_channels : (c.cross_attention_dim ?? D)
    if (encoder.dims.length !== 3 || encoder.dims[0] !== batch || encoder.dims[2] !== width) {
      invalid(`encoder_hidden_states must be (batch ${batch}, sequence, ${width}); got dims ${shapeOf(encoder)}.`)
    }
    encoderTokens = encoder.dims[1]
    feeds[GraphInput.encoderHiddenStates] = { type: 'float32', data: asFloat32('encoder_hidden_states', encoder), dims: [...encoder.dims] }
  } else if (requiresEncoderHiddenStates(r)) {
    invalid(
      r.mode === 'patched' && c.caption_channels !== null
        ? 'encoder_hidden_states is required: this model projects captions (caption_channels is set).'
        : `encoder_hidden_states is required: this model's cross-attention reads ${c.cross_attention_dim}-wide encoder states, so it cannot fall back to self-attention over the ${D}-wide hidden states.`,
    )
  }

  // Timestep and class labels.
  const timestep = args.timestep ?? null
  if (r.blockNormType === 'ada_norm') {
    if (timestep === null) invalid(`timestep is required for norm_type ada_norm: a 0-d integer step in [0, ${c.num_embeds_ada_norm}).`)
    if (dimsOf(timestep).length !== 0) {
      invalid(`timestep for norm_type ada_norm must be a 0-d integer tensor shared by the batch (AdaLayerNorm embeds one step); got dims [${dimsOf(timestep).join(', ')}].`)
    }
    const step = scalarValue(timestep)
    if (!Number.isInteger(step) || (typeof timestep !== 'number' && !['int64', 'int32'].includes(tensorType(timestep)))) {
      invalid(`timestep for norm_type ada_norm must be an integer step; got ${step}.`)
    }
    if (step < 0 || step >= c.num_embeds_ada_norm!) {
      invalid(`timestep ${step} is out of range: this model was trained with num_embeds_ada_norm = ${c.num_embeds_ada_norm} denoising steps (0 … ${c.num_embeds_ada_norm! - 1}).`)
    }
    feeds[GraphInput.timestep] = { type: 'int64', data: BigInt64Array.of(BigInt(step)), dims: [] }
  } else if (r.blockNormType === 'ada_norm_zero' || r.blockNormType === 'ada_norm_single') {
    if (timestep === null) invalid(`timestep is required for norm_type ${r.blockNormType}: a (batch,) tensor of steps.`)
    if (typeof timestep === 'number' || timestep.dims.length !== 1) {
      invalid(`Timesteps should be a 1d-array: norm_type ${r.blockNormType} takes one step per sample, (batch ${batch},); got dims [${dimsOf(timestep).join(', ')}].`)
    }
    if (timestep.dims[0] !== batch) invalid(`timestep has ${timestep.dims[0]} steps for a batch of ${batch}.`)
    feeds[GraphInput.timestep] = { type: 'float32', data: asFloat32('timestep', timestep), dims: [batch] }
  }
  if (r.blockNormType === 'ada_norm_zero') {
    const labels = args.class_labels ?? null
    const classes = c.num_embeds_ada_norm!
    if (labels === null) invalid(`class_labels is required for norm_type ada_norm_zero: (batch,) class indices in [0, ${classes}] (${classes} is the unconditional class).`)
    if (labels.dims.length !== 1 || labels.dims[0] !== batch) invalid(`class_labels must be (batch ${batch},); got dims ${shapeOf(labels)}.`)
    const data = asInt64('class_labels', labels)
    for (const v of data) if (v < 0n || v > BigInt(classes)) invalid(`class_labels holds ${v}; classes run from 0 to ${classes} (${classes} is the unconditional class).`)
    feeds[GraphInput.classLabels] = { type: 'int64', data, dims: [batch] }
  }

  // PixArt size conditions.
  if (r.useAdditionalConditions) {
    const added = args.added_cond_kwargs ?? null
    if (added === null) invalid('`added_cond_kwargs` cannot be None when using additional conditions for `adaln_single`.')
    const resolution = added.resolution ?? null
    const aspectRatio = added.aspect_ratio ?? null
    if (!resolution || numel(resolution.dims) !== 2 * batch) invalid(`added_cond_kwargs.resolution must hold (height, width) per sample, (batch ${batch}, 2).`)
    if (!aspectRatio || numel(aspectRatio.dims) !== batch) invalid(`added_cond_kwargs.aspect_ratio must hold one value per sample, (batch ${batch}, 1).`)
    feeds[GraphInput.resolution] = { type: 'float32', data: asFloat32('added_cond_kwargs.resolution', resolution), dims: [batch, 2] }
    feeds[GraphInput.aspectRatio] = { type: 'float32', data: asFloat32('added_cond_kwargs.aspect_ratio', aspectRatio), dims: [batch, 1] }
  }

  // Masks → additive biases. attn1's keys are the encoder tokens when only_cross_attention reads them.
  const attn1Keys = c.only_cross_attention && encoder ? encoderTokens : tokens
  const attn2Keys = encoder ? encoderTokens : tokens
  if (args.attention_mask) feeds[GraphInput.attentionBias] = attentionBias('attention_mask', args.attention_mask, batch, attn1Keys, tokens)
  if (args.encoder_attention_mask && r.hasAttn2) {
    feeds[GraphInput.encoderAttentionBias] = attentionBias('encoder_attention_mask', args.encoder_attention_mask, batch, attn2Keys, tokens)
  }

  return {
    signature: {
      encoderHiddenStates: encoder !== null,
      attentionMask: GraphInput.attentionBias in feeds,
      encoderAttentionMask: GraphInput.encoderAttentionBias in feeds,
    },
    feeds,
  }
}
