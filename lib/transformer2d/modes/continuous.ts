import { attr } from '@/lib/onnx'
import { basicTransformerBlock, type BlockConditioning } from '../blocks/basic-transformer-block'
import type { ResolvedConfig } from '../config'
import type { BuildContext } from '../layers/context'
import { conv2d, linear } from '../layers/linear'
import { groupNorm } from '../layers/normalization'

/**
 * Continuous input (B, C, H, W): GroupNorm → proj_in (1×1 conv, or Linear after flattening) → blocks over the
 * H·W row-major tokens → proj_out → + input.
 */
export function continuousModel(ctx: BuildContext, r: ResolvedConfig, input: string, cond: BlockConditioning): string {
  const { g } = ctx
  const c = r.config
  const C = c.in_channels!
  const D = r.innerDim
  const toTokens = (x: string, width: number) => g.op('Reshape', [g.op('Transpose', [x], { perm: attr.ints([0, 2, 3, 1]) }), g.int64s([0, -1, width])])

  const normed = groupNorm(ctx, 'norm', input, c.norm_num_groups, C, 1e-6)
  let h = c.use_linear_projection ? linear(ctx, 'proj_in', toTokens(normed, C), C, D) : toTokens(conv2d(ctx, 'proj_in', normed, C, D, 1), D)

  for (let i = 0; i < c.num_layers; i++) h = basicTransformerBlock(ctx, r, i, h, cond)

  // (B, H·W, width) → (B, width, H, W), with H and W read from the input.
  const spatial = g.op('Shape', [input], { start: attr.int(2) })
  const toImage = (x: string, width: number) =>
    g.op('Transpose', [g.op('Reshape', [x, g.op('Concat', [g.int64s([0]), spatial, g.int64s([width])], { axis: attr.int(0) })])], { perm: attr.ints([0, 3, 1, 2]) })
  const out = c.use_linear_projection ? toImage(linear(ctx, 'proj_out', h, D, C), C) : conv2d(ctx, 'proj_out', toImage(h, D), D, C, 1)
  return g.op('Add', [out, input])
}
