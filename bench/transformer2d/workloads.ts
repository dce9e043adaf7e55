/** The benchmark's model shapes (configs as data) and their matmul-like FLOP counts. */

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
