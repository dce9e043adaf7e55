import { attr } from '@/lib/onnx'
import type { ResolvedConfig } from '../config'
import { attention } from '../layers/attention'
import type { BuildContext } from '../layers/context'
import { feedForward } from '../layers/feed-forward'
import { adaLayerNorm, adaLayerNormZero, layerNorm, modulate } from '../layers/normalization'

/** The per-call values a block reads besides the hidden states; which are set depends on the norm type. */
export interface BlockConditioning {
  /** Encoder states for cross-attention, or null (attn2 then attends to its own input). */
  encoderHiddenStates: string | null
  /** ada_norm: 0-d int64 step. ada_norm_zero: (B,) float. ada_norm_single: the shared (B, 6·D) modulation. */
  timestep: string | null
  classLabels: string | null
  attentionBias: string | null
  encoderAttentionBias: string | null
}

/**
 * diffusers BasicTransformerBlock as Transformer2DModel configures it: norm → self-attention (attn1) → residual,
 * [norm → attn2 → residual], norm → feed-forward → residual, with the norm type's modulation and gates.
 */
export function basicTransformerBlock(ctx: BuildContext, r: ResolvedConfig, index: number, x: string, cond: BlockConditioning): string {
  const { g } = ctx
  const c = r.config
  const D = r.innerDim
  const prefix = `transformer_blocks.${index}`
  const affine = (name: string): string | null => (c.norm_elementwise_affine ? `${prefix}.${name}` : null)
  const attnSpec = (kvDim: number) => ({ heads: c.num_attention_heads, headDim: c.attention_head_dim, queryDim: D, kvDim, qkvBias: c.attention_bias })
  const need = (value: string | null, what: string): string => {
    if (value === null) throw new Error(`graph build: ${what} is required for norm_type ${r.blockNormType}`)
    return value
  }

  return g.withScope(prefix, () => {
    // 0. norm1 (and the modulation of the whole block for the zero/single variants)
    let normed: string
    let gateMsa: string | null = null
    let ffModulation: { scale: string; shift: string; gate: string } | null = null
    switch (r.blockNormType) {
      case 'ada_norm':
        normed = adaLayerNorm(ctx, `${prefix}.norm1`, x, need(cond.timestep, 'timestep'), D, c.num_embeds_ada_norm!)
        break
      case 'ada_norm_zero': {
        const z = adaLayerNormZero(ctx, `${prefix}.norm1`, x, need(cond.timestep, 'timestep'), need(cond.classLabels, 'class_labels'), D, c.num_embeds_ada_norm!)
        normed = z.normed
        gateMsa = z.gateMsa
        ffModulation = { scale: z.scaleMlp, shift: z.shiftMlp, gate: z.gateMlp }
        break
      }
      case 'ada_norm_single': {
        // (scale_shift_table[None] + modulation.reshape(B, 6, D)).chunk(6, dim=1), each (B, 1, D).
        const table = ctx.weight(`${prefix}.scale_shift_table`, [6, D])
        const rows = g.op('Add', [table, g.op('Reshape', [need(cond.timestep, 'timestep'), g.int64s([0, 6, D])])])
        const [shiftMsa, scaleMsa, gate, shiftMlp, scaleMlp, gateMlp] = g.opMulti('Split', [rows, g.int64s([1, 1, 1, 1, 1, 1])], 6, { axis: attr.int(1) })
        normed = modulate(ctx, layerNorm(ctx, x, D, c.norm_eps, affine('norm1')), scaleMsa, shiftMsa)
        gateMsa = gate
        ffModulation = { scale: scaleMlp, shift: shiftMlp, gate: gateMlp }
        break
      }
      case 'layer_norm':
        normed = layerNorm(ctx, x, D, c.norm_eps, affine('norm1'))
        break
    }

    // 1. Self-attention (attn1 reads the encoder states instead when only_cross_attention).
    const attn1Kv = c.only_cross_attention && cond.encoderHiddenStates ? cond.encoderHiddenStates : normed
    const attn1KvDim = attn1Kv === normed ? D : r.attn1KvDim
    let a = attention(ctx, `${prefix}.attn1`, attnSpec(attn1KvDim), normed, attn1Kv, cond.attentionBias)
    if (gateMsa) a = g.op('Mul', [gateMsa, a])
    let h = g.op('Add', [a, x])

    // 2. Cross-attention. PixArt (ada_norm_single) applies no norm before it.
    if (r.hasAttn2) {
      const n2 =
        r.blockNormType === 'ada_norm'
          ? adaLayerNorm(ctx, `${prefix}.norm2`, h, need(cond.timestep, 'timestep'), D, c.num_embeds_ada_norm!)
          : r.blockNormType === 'ada_norm_single'
            ? h
            : layerNorm(ctx, h, D, c.norm_eps, affine('norm2'))
      const kv = cond.encoderHiddenStates ?? n2
      const kvDim = cond.encoderHiddenStates ? r.attn2KvDim : D
      h = g.op('Add', [attention(ctx, `${prefix}.attn2`, attnSpec(kvDim), n2, kv, cond.encoderAttentionBias), h])
    }

    // 3. Feed-forward: norm3, except ada_norm_single which reuses norm2 (it has no norm3).
    let n3 = layerNorm(ctx, h, D, c.norm_eps, affine(r.blockNormType === 'ada_norm_single' ? 'norm2' : 'norm3'))
    if (ffModulation) n3 = modulate(ctx, n3, ffModulation.scale, ffModulation.shift)
    let f = feedForward(ctx, `${prefix}.ff`, n3, D, r.activationFn)
    if (ffModulation) f = g.op('Mul', [ffModulation.gate, f])
    return g.op('Add', [f, h])
  })
}
