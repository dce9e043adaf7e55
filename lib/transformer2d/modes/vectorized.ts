import { attr, DataType } from '@/lib/onnx'
import { basicTransformerBlock, type BlockConditioning } from '../blocks/basic-transformer-block'
import type { ResolvedConfig } from '../config'
import type { BuildContext } from '../layers/context'
import { imagePositionalEmbeddings } from '../layers/embeddings'
import { linear } from '../layers/linear'
import { layerNorm } from '../layers/normalization'

/**
 * Discrete input (B, L) of latent-pixel classes: embeddings → blocks → LayerNorm → logits over the
 * num_vector_embeds − 1 real classes → log_softmax over the class axis, in float64 then back to float32 as
 * diffusers does. Output (B, K, L).
 */
export function vectorizedModel(ctx: BuildContext, r: ResolvedConfig, input: string, cond: BlockConditioning): string {
  const { g } = ctx
  const c = r.config
  const D = r.innerDim
  const size = c.sample_size!
  const classes = c.num_vector_embeds! - 1

  let h = imagePositionalEmbeddings(ctx, 'latent_image_embedding', input, c.num_vector_embeds!, size, size, D)
  for (let i = 0; i < c.num_layers; i++) h = basicTransformerBlock(ctx, r, i, h, cond)

  const logits = linear(ctx, 'out', layerNorm(ctx, h, D, 1e-5, 'norm_out'), D, classes)
  const perClass = g.op('Transpose', [logits], { perm: attr.ints([0, 2, 1]) })
  const logProbs = g.op('LogSoftmax', [g.op('Cast', [perClass], { to: attr.int(DataType.DOUBLE) })], { axis: attr.int(1) })
  return g.op('Cast', [logProbs], { to: attr.int(DataType.FLOAT) })
}
