import { Transformer2DError } from './errors'

/**
 * Configuration of diffusers' Transformer2DModel (v0.37.0), with the same key names as its config.json.
 * `null` stands for Python's None.
 */
export interface Transformer2DConfig {
  num_attention_heads: number
  attention_head_dim: number
  in_channels: number | null
  out_channels: number | null
  num_layers: number
  dropout: number
  norm_num_groups: number
  cross_attention_dim: number | null
  attention_bias: boolean
  sample_size: number | null
  num_vector_embeds: number | null
  patch_size: number | null
  activation_fn: string
  num_embeds_ada_norm: number | null
  use_linear_projection: boolean
  only_cross_attention: boolean
  double_self_attention: boolean
  upcast_attention: boolean
  norm_type: string
  norm_elementwise_affine: boolean
  norm_eps: number
  attention_type: string
  caption_channels: number | null
  interpolation_scale: number | null
  use_additional_conditions: boolean | null
}

export const DEFAULT_CONFIG: Readonly<Transformer2DConfig> = {
  num_attention_heads: 16,
  attention_head_dim: 88,
  in_channels: null,
  out_channels: null,
  num_layers: 1,
  dropout: 0.0,
  norm_num_groups: 32,
  cross_attention_dim: null,
  attention_bias: false,
  sample_size: null,
  num_vector_embeds: null,
  patch_size: null,
  activation_fn: 'geglu',
  num_embeds_ada_norm: null,
  use_linear_projection: false,
  only_cross_attention: false,
  double_self_attention: false,
  upcast_attention: false,
  norm_type: 'layer_norm',
  norm_elementwise_affine: true,
  norm_eps: 1e-5,
  attention_type: 'default',
  caption_channels: null,
  interpolation_scale: null,
  use_additional_conditions: null,
}

export const ACTIVATION_FUNCTIONS = ['geglu', 'gelu', 'gelu-approximate', 'geglu-approximate', 'swiglu', 'linear-silu'] as const
export type ActivationFn = (typeof ACTIVATION_FUNCTIONS)[number]

/** Block norm types that have a working forward pass in v0.37.0. */
export type BlockNormType = 'layer_norm' | 'ada_norm' | 'ada_norm_zero' | 'ada_norm_single'

export type InputMode = 'continuous' | 'vectorized' | 'patched'

/** A validated configuration plus the values diffusers derives from it in `__init__`. */
export interface ResolvedConfig {
  /** Every key, defaults filled in: what diffusers registers as the model's config. */
  config: Transformer2DConfig
  mode: InputMode
  innerDim: number
  outChannels: number
  /** The norm the blocks use: `layer_norm` with `num_embeds_ada_norm` set becomes `ada_norm` (legacy VQ-Diffusion configs). */
  blockNormType: BlockNormType
  activationFn: ActivationFn
  useAdditionalConditions: boolean
  interpolationScale: number
  /** attn2 and its norm exist (cross-attention, or a second self-attention). */
  hasAttn2: boolean
  /** Width of the key/value input of attn1 and attn2. */
  attn1KvDim: number
  attn2KvDim: number
}

const INT_KEYS = [
  'num_attention_heads', 'attention_head_dim', 'in_channels', 'out_channels', 'num_layers', 'norm_num_groups',
  'cross_attention_dim', 'sample_size', 'num_vector_embeds', 'patch_size', 'num_embeds_ada_norm', 'caption_channels',
] as const
const BOOL_KEYS = [
  'attention_bias', 'use_linear_projection', 'only_cross_attention', 'double_self_attention', 'upcast_attention',
  'norm_elementwise_affine',
] as const

/** Values in messages shown as diffusers shows them (Python's None for null). */
function show(value: number | null): string {
  return value === null ? 'None' : String(value)
}

function fail(message: string): never {
  throw new Transformer2DError('config', message)
}

/** Fills in defaults and checks the type of every known key; keys starting with `_` (diffusers metadata) are ignored. */
function withDefaults(input: Readonly<Record<string, unknown>>): Transformer2DConfig {
  const config: Record<string, unknown> = { ...DEFAULT_CONFIG }
  for (const [key, value] of Object.entries(input)) {
    if (key.startsWith('_')) continue
    if (!(key in DEFAULT_CONFIG)) fail(`Unknown Transformer2DModel config key "${key}".`)
    config[key] = value === undefined ? (DEFAULT_CONFIG as Record<string, unknown>)[key] : value
  }
  for (const key of INT_KEYS) {
    const value = config[key]
    if (value === null && (DEFAULT_CONFIG[key] === null)) continue
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      fail(`Config "${key}" must be a positive integer${DEFAULT_CONFIG[key] === null ? ' or null' : ''}; got ${JSON.stringify(value)}.`)
    }
  }
  for (const key of BOOL_KEYS) {
    if (typeof config[key] !== 'boolean') fail(`Config "${key}" must be true or false; got ${JSON.stringify(config[key])}.`)
  }
  if (config.use_additional_conditions !== null && typeof config.use_additional_conditions !== 'boolean') {
    fail(`Config "use_additional_conditions" must be true, false or null; got ${JSON.stringify(config.use_additional_conditions)}.`)
  }
  for (const key of ['dropout', 'norm_eps'] as const) {
    if (typeof config[key] !== 'number' || !(config[key] as number >= 0)) fail(`Config "${key}" must be a number >= 0; got ${JSON.stringify(config[key])}.`)
  }
  const scale = config.interpolation_scale
  if (scale !== null && (typeof scale !== 'number' || !(scale > 0))) fail(`Config "interpolation_scale" must be a number > 0 or null; got ${JSON.stringify(scale)}.`)
  for (const key of ['activation_fn', 'norm_type', 'attention_type'] as const) {
    if (typeof config[key] !== 'string') fail(`Config "${key}" must be a string; got ${JSON.stringify(config[key])}.`)
  }
  return config as unknown as Transformer2DConfig
}

/**
 * Validates a configuration in the order diffusers v0.37.0 checks it, raising the same conditions.
 * Configurations that diffusers accepts at construction but that can never run a forward pass (unknown norm
 * types, `layer_norm_i2vgen`, patched `ada_norm`, continuous `out_channels != in_channels`, PixArt additional
 * conditions with inner_dim not divisible by 3) are rejected here already, with a message saying so.
 */
export function resolveConfig(input: Readonly<Record<string, unknown>>): ResolvedConfig {
  const config = withDefaults(input)
  const c = config
  const innerDim = c.num_attention_heads * c.attention_head_dim

  // 1. Patched inputs only work with adaptive norms.
  if (c.patch_size !== null) {
    if (!['ada_norm', 'ada_norm_zero', 'ada_norm_single'].includes(c.norm_type)) {
      fail(`Forward pass is not implemented when \`patch_size\` is not None and \`norm_type\` is '${c.norm_type}'.`)
    }
    if ((c.norm_type === 'ada_norm' || c.norm_type === 'ada_norm_zero') && c.num_embeds_ada_norm === null) {
      fail(`When using a \`patch_size\` and this \`norm_type\` (${c.norm_type}), \`num_embeds_ada_norm\` cannot be None.`)
    }
  }

  // 2./3. Input mode, exactly one of continuous / vectorized / patched.
  const continuous = c.in_channels !== null && c.patch_size === null
  const vectorized = c.num_vector_embeds !== null
  const patched = c.in_channels !== null && c.patch_size !== null
  if (continuous && vectorized) {
    fail(`Cannot define both \`in_channels\`: ${show(c.in_channels)} and \`num_vector_embeds\`: ${show(c.num_vector_embeds)}. Make sure that either \`in_channels\` or \`num_vector_embeds\` is None.`)
  }
  if (vectorized && patched) {
    fail(`Cannot define both \`num_vector_embeds\`: ${show(c.num_vector_embeds)} and \`patch_size\`: ${show(c.patch_size)}. Make sure that either \`num_vector_embeds\` or \`num_patches\` is None.`)
  }
  if (!continuous && !vectorized && !patched) {
    fail(`Has to define \`in_channels\`: ${show(c.in_channels)}, \`num_vector_embeds\`: ${show(c.num_vector_embeds)}, or patch_size: ${show(c.patch_size)}. Make sure that \`in_channels\`, \`num_vector_embeds\` or \`num_patches\` is not None.`)
  }
  const mode: InputMode = continuous ? 'continuous' : vectorized ? 'vectorized' : 'patched'

  // 4. Legacy VQ-Diffusion configs: layer_norm + num_embeds_ada_norm means ada_norm in the blocks.
  const normType = c.norm_type === 'layer_norm' && c.num_embeds_ada_norm !== null ? 'ada_norm' : c.norm_type

  // 5. Mode-specific requirements.
  if (mode === 'vectorized' && c.sample_size === null) fail('Transformer2DModel over discrete input must provide sample_size')
  if (mode === 'patched' && c.sample_size === null) fail('Transformer2DModel over patched input must provide sample_size')
  if (mode === 'continuous' && c.in_channels! % c.norm_num_groups !== 0) {
    fail(`num_channels must be divisible by num_groups: GroupNorm needs in_channels (${show(c.in_channels)}) to be a multiple of norm_num_groups (${c.norm_num_groups}).`)
  }

  // 6. BasicTransformerBlock.
  if ((normType === 'ada_norm' || normType === 'ada_norm_zero') && c.num_embeds_ada_norm === null) {
    fail(`\`norm_type\` is set to ${normType}, but \`num_embeds_ada_norm\` is not defined. Please make sure to define \`num_embeds_ada_norm\` if setting \`norm_type\` to ${normType}.`)
  }
  if (normType === 'ada_norm_continuous') {
    fail("norm_type 'ada_norm_continuous' is not supported: BasicTransformerBlock would build AdaLayerNormContinuous without a conditioning dimension, which diffusers v0.37.0 rejects with a TypeError.")
  }
  if (!(ACTIVATION_FUNCTIONS as readonly string[]).includes(c.activation_fn)) {
    fail(`Unknown activation_fn '${c.activation_fn}': the feed-forward supports ${ACTIVATION_FUNCTIONS.join(', ')} (diffusers v0.37.0 fails with UnboundLocalError on other names).`)
  }
  if (c.attention_type === 'gated' || c.attention_type === 'gated-text-image') {
    if (c.cross_attention_dim === null) {
      fail(`attention_type '${c.attention_type}' (GLIGEN) needs cross_attention_dim: its gated self-attention projects the grounding tokens from that width.`)
    }
  } else if (c.attention_type !== 'default') {
    fail(`Unknown attention_type '${c.attention_type}': expected 'default', 'gated' or 'gated-text-image'.`)
  }
  if (mode === 'patched' && (innerDim % 2 !== 0 || (innerDim / 2) % 2 !== 0)) {
    fail(`embed_dim must be divisible by 2: the 2-D sin/cos position embedding splits inner_dim (${innerDim}) in two halves of sin/cos pairs, so inner_dim must be a multiple of 4.`)
  }

  // Accepted by diffusers' constructor but failing (or silently wrong) in its forward: reject up front.
  if (normType === 'layer_norm_i2vgen') {
    fail("norm_type 'layer_norm_i2vgen' cannot run: BasicTransformerBlock creates no norm3 for it, and diffusers v0.37.0 fails in forward ('NoneType' object is not callable).")
  }
  if (!['layer_norm', 'ada_norm', 'ada_norm_zero', 'ada_norm_single'].includes(normType)) {
    fail(`Incorrect norm used: unknown norm_type '${c.norm_type}'. Expected 'layer_norm', 'ada_norm', 'ada_norm_zero' or 'ada_norm_single'.`)
  }
  if (mode === 'patched' && normType === 'ada_norm') {
    fail("norm_type 'ada_norm' cannot run with patched input: the output head calls the block's timestep embedding as a combined timestep/label embedding (diffusers v0.37.0 fails in forward with a TypeError). Use 'ada_norm_zero' (DiT) or 'ada_norm_single' (PixArt).")
  }
  const outChannels = c.out_channels ?? c.in_channels ?? 0
  if (mode === 'continuous' && outChannels !== c.in_channels) {
    fail(`Continuous input adds the input back as a residual, so out_channels (${outChannels}) must equal in_channels (${show(c.in_channels)}).`)
  }
  const useAdditionalConditions = c.use_additional_conditions ?? (normType === 'ada_norm_single' && c.sample_size === 128)
  if (mode === 'patched' && normType === 'ada_norm_single' && useAdditionalConditions && innerDim % 3 !== 0) {
    fail(`ada_norm_single with additional conditions adds resolution (2/3) and aspect-ratio (1/3) embeddings to the timestep embedding, so inner_dim (${innerDim}) must be divisible by 3.`)
  }
  if (mode === 'patched' && c.caption_channels !== null && c.cross_attention_dim !== null && c.cross_attention_dim !== innerDim) {
    fail(`caption_projection maps captions to inner_dim (${innerDim}), so cross_attention_dim (${c.cross_attention_dim}) must equal inner_dim.`)
  }

  const hasAttn2 = c.cross_attention_dim !== null || c.double_self_attention
  return {
    config,
    mode,
    innerDim,
    outChannels,
    blockNormType: normType as BlockNormType,
    activationFn: c.activation_fn as ActivationFn,
    useAdditionalConditions: mode === 'patched' && normType === 'ada_norm_single' && useAdditionalConditions,
    interpolationScale: c.interpolation_scale ?? Math.max(Math.floor((c.sample_size ?? 0) / 64), 1),
    hasAttn2,
    attn1KvDim: c.only_cross_attention && c.cross_attention_dim !== null ? c.cross_attention_dim : innerDim,
    attn2KvDim: c.double_self_attention || c.cross_attention_dim === null ? innerDim : c.cross_attention_dim,
  }
}

/**
 * Reads a config.json: a diffusers config (with `_class_name` etc.), or a file that wraps one under
 * `registered_config` (the golden-case layout).
 */
export function configFromJson(json: unknown): Record<string, unknown> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Transformer2DError('config', 'config.json must hold a JSON object.')
  }
  const record = json as Record<string, unknown>
  const registered = record.registered_config
  if (typeof registered === 'object' && registered !== null) return registered as Record<string, unknown>
  return record
}
