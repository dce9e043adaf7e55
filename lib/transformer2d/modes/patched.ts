import { attr } from '@/lib/onnx'
import { basicTransformerBlock, type BlockConditioning } from '../blocks/basic-transformer-block'
import type { ResolvedConfig } from '../config'
import { silu } from '../layers/activations'
import type { BuildContext } from '../layers/context'
import { combinedTimestepLabelEmbeddings, patchEmbed, pixArtTextProjection } from '../layers/embeddings'
import { linear } from '../layers/linear'
import { adaLayerNormSingle, layerNorm, modulate } from '../layers/normalization'

export interface PatchedInputs {
  posEmbed: string
  timestep: string
  classLabels: string | null
  sizeConditions: { resolution: string; aspectRatio: string } | null
}

/**
 * Patched input (B, C, H, W), DiT (ada_norm_zero) or PixArt-α (ada_norm_single): patch embedding + sin/cos
 * positions → blocks → modulated LayerNorm head → unpatchify to (B, out_channels, h·p, w·p).
 */
export function patchedModel(ctx: BuildContext, r: ResolvedConfig, input: string, inputs: PatchedInputs, blockCond: BlockConditioning): string {
  const { g } = ctx
  const c = r.config
  const D = r.innerDim
  const p = c.patch_size!
  const outC = r.outChannels
  const { tokens, grid } = patchEmbed(ctx, 'pos_embed', input, c.in_channels!, D, p, inputs.posEmbed)
  let h = tokens

  const single = r.blockNormType === 'ada_norm_single'
  const adaln = single ? adaLayerNormSingle(ctx, 'adaln_single', { timestep: inputs.timestep, sizeConditions: inputs.sizeConditions, dim: D }) : null
  const encoder =
    c.caption_channels !== null && blockCond.encoderHiddenStates
      ? pixArtTextProjection(ctx, 'caption_projection', blockCond.encoderHiddenStates, c.caption_channels, D)
      : blockCond.encoderHiddenStates
  const cond: BlockConditioning = { ...blockCond, encoderHiddenStates: encoder, timestep: adaln ? adaln.modulation : inputs.timestep }
  for (let i = 0; i < c.num_layers; i++) h = basicTransformerBlock(ctx, r, i, h, cond)

  // Output head. Shift comes first in both variants.
  let shift: string
  let scale: string
  if (adaln) {
    const rows = g.op('Add', [ctx.weight('scale_shift_table', [2, D]), g.op('Unsqueeze', [adaln.embeddedTimestep, g.int64s([1])])])
    ;[shift, scale] = g.opMulti('Split', [rows, g.int64s([1, 1])], 2, { axis: attr.int(1) })
  } else {
    // DiT re-runs block 0's conditioning embedding (same weights, same inputs).
    const emb = combinedTimestepLabelEmbeddings(ctx, 'transformer_blocks.0.norm1.emb', inputs.timestep, inputs.classLabels!, c.num_embeds_ada_norm!, D)
    const chunks = g.opMulti('Split', [linear(ctx, 'proj_out_1', silu(g, emb), D, 2 * D), g.int64s([D, D])], 2, { axis: attr.int(1) })
    ;[shift, scale] = chunks.map((x) => g.op('Unsqueeze', [x, g.int64s([1])]))
  }
  h = modulate(ctx, layerNorm(ctx, h, D, 1e-6, null), scale, shift)
  h = linear(ctx, adaln ? 'proj_out' : 'proj_out_2', h, D, p * p * outC)

  // Unpatchify: (B, h·w, p·p·c) → (B, h, w, p, p, c) → (B, c, h, p, w, p) → (B, c, h·p, w·p).
  const patchGrid = g.op('Concat', [g.int64s([0]), grid, g.int64s([p, p, outC])], { axis: attr.int(0) })
  const blocks = g.op('Transpose', [g.op('Reshape', [h, patchGrid])], { perm: attr.ints([0, 5, 1, 3, 2, 4]) })
  const imageSize = g.op('Mul', [grid, g.int64s([p])])
  return g.op('Reshape', [blocks, g.op('Concat', [g.int64s([0, outC]), imageSize], { axis: attr.int(0) })])
}
