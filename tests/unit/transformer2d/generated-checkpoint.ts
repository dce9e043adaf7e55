/**
 * Weights for large test checkpoints, made tensor by tensor from the key alone, so a 2.4 GB model can be written,
 * loaded and checked against the reference without ever holding the whole state dict in memory.
 */
import { buildTransformer2DGraph, defaultSignature, resolveConfig, type ForwardArgs } from '@/lib/transformer2d'

/** diffusers' PixArt-α XL-2 (1024 px) transformer config with `layers` of its 28 blocks. */
export function pixArtXl2Config(layers: number): Record<string, unknown> {
  return {
    _class_name: 'PixArtTransformer2DModel',
    _diffusers_version: '0.37.0',
    activation_fn: 'gelu-approximate',
    attention_bias: true,
    attention_head_dim: 72,
    caption_channels: 4096,
    cross_attention_dim: 1152,
    in_channels: 4,
    norm_elementwise_affine: false,
    norm_eps: 1e-6,
    norm_type: 'ada_norm_single',
    num_attention_heads: 16,
    num_embeds_ada_norm: 1000,
    num_layers: layers,
    out_channels: 8,
    patch_size: 2,
    sample_size: 128,
  }
}

/** Every state-dict key the model reads, with its shape, in the order the graph asks for them. */
export function stateDictKeys(config: Record<string, unknown>): { key: string; shape: readonly number[] }[] {
  const resolved = resolveConfig(config)
  const keys = new Map<string, readonly number[]>()
  for (const { key, keyShape } of buildTransformer2DGraph(resolved, { kind: 'inputs' }, defaultSignature(resolved)).slots) keys.set(key, keyShape)
  return [...keys].map(([key, shape]) => ({ key, shape }))
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash
}

/**
 * Seeded values for one tensor, each of the form n·2⁻ᵉ with |n| ≤ 1023 (exactly representable in fp16, so the fp16
 * file and the float64 reference hold the same numbers): projection weights within ±√3/√fan-in, biases within
 * ±0.1, other 1-D tensors (norm scales) 1 ± 0.1.
 */
export function generatedValues(key: string, shape: readonly number[]): Float32Array {
  const size = shape.reduce((a, b) => a * b, 1)
  let state = fnv1a(key) || 1
  const out = new Float32Array(size)
  const fanIn = shape.length > 1 ? shape.slice(1).reduce((a, b) => a * b, 1) : 1
  const bound = key.endsWith('.bias') ? 0.1 : shape.length === 1 ? 0.1 : Math.sqrt(3 / fanIn)
  const step = 2 ** -Math.ceil(Math.log2(1023 / bound))
  const offset = shape.length === 1 && !key.endsWith('.bias') ? 1 : 0
  const unit = offset ? 2 ** -10 : step
  const limit = offset ? 102 : 1023
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    out[i] = offset + (((state >>> 16) % (2 * limit + 1)) - limit) * unit
  }
  return out
}

/** Deterministic test inputs: uniform floats in [-1, 1) (times `scale`) from a 32-bit LCG seeded with `seed`, shaped as `dims`. */
export function seededFloats(seed: number): (dims: number[], scale?: number) => { data: Float32Array; dims: number[] } {
  let state = seed
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1
  return (dims, scale = 1) => ({ data: Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, () => random() * scale), dims })
}

/** A PixArt-α forward at one 16×16 latent: seeded latents and caption, timestep 500, 512×512, aspect ratio 1. */
export function pixArtForwardArgs(seed: number, captionTokens: number, captionChannels: number): ForwardArgs {
  const floats = seededFloats(seed)
  return {
    hidden_states: floats([1, 4, 16, 16]),
    encoder_hidden_states: floats([1, captionTokens, captionChannels]),
    timestep: { data: Float32Array.of(500), dims: [1] },
    added_cond_kwargs: { resolution: { data: Float32Array.of(512, 512), dims: [1, 2] }, aspect_ratio: { data: Float32Array.of(1), dims: [1, 1] } },
  }
}
