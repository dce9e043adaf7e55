/** The benchmark's model shapes (configs as data), their forward inputs and matmul-like FLOP counts (no Node APIs: the browser bench bundles it). */
import type { ForwardArgs, Transformer2DConfig } from '@/lib/transformer2d'


export interface Workload {
  name: string
  description: string
  config: Record<string, unknown>
  /** Input sizes of one forward call. */
  batch: number
  height: number
  width: number
  encoderTokens: number
  /** Timed forwards after one warm-up (fewer for the full-size models, whose forward takes tens of seconds). */
  timedRuns: number
  /** Load from an fp16 diffusers checkpoint written to disk first (sharded, as the Hub has them), not from memory. */
  checkpoint?: { variant: 'fp16'; maxShardBytes: number }
}

const PIXART_XL_2 = {
  in_channels: 4,
  out_channels: 8,
  num_attention_heads: 16,
  attention_head_dim: 72,
  patch_size: 2,
  norm_type: 'ada_norm_single',
  num_embeds_ada_norm: 1000,
  caption_channels: 4096,
  cross_attention_dim: 1152,
  activation_fn: 'gelu-approximate',
  attention_bias: true,
  norm_elementwise_affine: false,
  norm_eps: 1e-6,
}

export const WORKLOADS: Workload[] = [
  {
    name: 'sd15-block',
    description: 'SD-1.x-like block: in 320, 8 heads × 40, 64×64 latent (4096 tokens), cross 768 × 77 tokens, 1 layer, GEGLU, conv proj',
    config: { in_channels: 320, num_attention_heads: 8, attention_head_dim: 40, norm_num_groups: 32, cross_attention_dim: 768, num_layers: 1 },
    batch: 1,
    height: 64,
    width: 64,
    encoderTokens: 77,
    timedRuns: 5,
  },
  {
    name: 'pixart-xl-2-512',
    description: 'PixArt-α XL-2 512×512 (PixArt-XL-2-512x512 config): 28 layers, 16 heads × 72 (D 1152), 64×64×4 latent, patch 2 (1024 tokens), caption 4096 × 120 tokens, ada_norm_single, 611 M parameters',
    config: { ...PIXART_XL_2, sample_size: 64, num_layers: 28 },
    batch: 1,
    height: 64,
    width: 64,
    encoderTokens: 120,
    timedRuns: 2,
    checkpoint: { variant: 'fp16', maxShardBytes: 500e6 },
  },
  {
    name: 'dit-xl-2-256',
    description: 'DiT-XL-2 256×256 (facebook/DiT-XL-2-256 config): 28 layers, 16 heads × 72 (D 1152), 32×32×4 latent, patch 2 (256 tokens), ada_norm_zero with 1000 classes, no cross-attention, 675 M parameters',
    config: {
      in_channels: 4,
      out_channels: 8,
      num_attention_heads: 16,
      attention_head_dim: 72,
      patch_size: 2,
      sample_size: 32,
      norm_type: 'ada_norm_zero',
      num_embeds_ada_norm: 1000,
      activation_fn: 'gelu-approximate',
      attention_bias: true,
      norm_elementwise_affine: false,
      num_layers: 28,
    },
    batch: 1,
    height: 32,
    width: 32,
    encoderTokens: 0,
    timedRuns: 3,
    checkpoint: { variant: 'fp16', maxShardBytes: 500e6 },
  },
]

/** Multiply-adds × 2 of the matmul-like work (projections, attention products, feed-forward, convs) of one forward. */
export function forwardFlops(w: Workload): number {
  const c = w.config as Record<string, number | string | undefined>
  const D = (c.num_attention_heads as number) * (c.attention_head_dim as number)
  const p = (c.patch_size as number | undefined) ?? 1
  const N = (w.height / p) * (w.width / p)
  const S = w.encoderTokens
  const C = c.in_channels as number
  const outC = (c.out_channels as number | undefined) ?? C
  const cross = (c.cross_attention_dim as number | undefined) ?? D
  const kvWidth = c.caption_channels ? D : cross
  const gated = (c.activation_fn ?? 'geglu') === 'geglu' || c.activation_fn === 'swiglu'
  const attn2 = c.cross_attention_dim ? 2 * 2 * N * D * D + 2 * 2 * S * kvWidth * D + 2 * 2 * N * S * D : 0 // q, out; k, v; QKᵀ and PV
  const perLayer =
    4 * 2 * N * D * D + 2 * 2 * N * N * D + // attn1: q, k, v, out; QKᵀ and PV
    attn2 +
    2 * N * D * (gated ? 8 : 4) * D + 2 * N * 4 * D * D // feed-forward
  const io = p === 1 ? 2 * N * C * D + 2 * N * D * outC : 2 * N * C * p * p * D + 2 * N * D * p * p * outC
  const caption = c.caption_channels ? 2 * S * (c.caption_channels as number) * D + 2 * S * D * D : 0
  return w.batch * ((c.num_layers as number) * perLayer + io + caption)
}

/** Seeded weights and inputs: the same values in every run and on every runtime. */
export function randomSource(seed: number) {
  let state = seed >>> 0
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5)
  return {
    take: (_name: string, shape: readonly number[]) => Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => next() * 0.05),
  }
}

export function randomFloats(n: number, seed: number): Float32Array {
  const source = randomSource(seed)
  return source.take('', [n])
}

/** One forward's arguments for a workload: seeded latents (and caption, timestep, class label as the model needs). */
export function forwardArgs(w: Workload, c: Transformer2DConfig): ForwardArgs {
  return {
    hidden_states: { data: randomFloats(w.batch * c.in_channels! * w.height * w.width, 4), dims: [w.batch, c.in_channels!, w.height, w.width] },
    ...(w.encoderTokens
      ? {
          encoder_hidden_states: {
            data: randomFloats(w.batch * w.encoderTokens * (c.caption_channels ?? c.cross_attention_dim!), 5),
            dims: [w.batch, w.encoderTokens, c.caption_channels ?? c.cross_attention_dim!],
          },
        }
      : {}),
    ...(c.norm_type === 'ada_norm_zero'
      ? {
          timestep: { data: Float32Array.from({ length: w.batch }, () => 500), dims: [w.batch] },
          class_labels: { data: BigInt64Array.from({ length: w.batch }, (_, i) => BigInt(207 + i)), dims: [w.batch] },
        }
      : {}),
    ...(c.norm_type === 'ada_norm_single'
      ? {
          timestep: { data: Float32Array.from({ length: w.batch }, () => 500), dims: [w.batch] },
          added_cond_kwargs: {
            resolution: { data: Float32Array.from({ length: 2 * w.batch }, () => 1024), dims: [w.batch, 2] },
            aspect_ratio: { data: Float32Array.from({ length: w.batch }, () => 1), dims: [w.batch, 1] },
          },
        }
      : {}),
  }
}
