import { attr, DataType } from '@/lib/onnx'
import type { BuildContext } from './context'
import { combinedTimestepLabelEmbeddings, pixArtCombinedTimestepSizeEmbeddings, type PixArtConditioning } from './embeddings'
import { linear } from './linear'
import { silu } from './activations'

/**
 * LayerNorm over the last axis: (x − mean) / √(var + eps), biased variance. With `prefix` the affine weight and
 * bias come from the checkpoint; without it the scale is a constant 1 (ONNX LayerNormalization requires one).
 */
export function layerNorm(ctx: BuildContext, x: string, dim: number, eps: number, prefix: string | null): string {
  const { g } = ctx
  const scale = prefix ? ctx.weight(`${prefix}.weight`, [dim]) : g.constant({ dataType: DataType.FLOAT, dims: [dim], data: new Float32Array(dim).fill(1) })
  const inputs = prefix ? [x, scale, ctx.weight(`${prefix}.bias`, [dim])] : [x, scale]
  return g.op('LayerNormalization', inputs, { axis: attr.int(-1), epsilon: attr.float(eps) })
}

/**
 * torch GroupNorm(groups, channels, eps, affine=True) on (B, C, H, W): statistics per sample and group over
 * (C/G)·H·W values. Runs as InstanceNormalization over a (B, G, C/G·H·W) view, then the per-channel affine.
 */
export function groupNorm(ctx: BuildContext, prefix: string, x: string, groups: number, channels: number, eps: number): string {
  const { g } = ctx
  const grouped = g.op('Reshape', [x, g.int64s([0, groups, -1])])
  const ones = g.constant({ dataType: DataType.FLOAT, dims: [groups], data: new Float32Array(groups).fill(1) })
  const zeros = g.constant({ dataType: DataType.FLOAT, dims: [groups], data: new Float32Array(groups) })
  const normed = g.op('InstanceNormalization', [grouped, ones, zeros], { epsilon: attr.float(eps) })
  const restored = g.op('Reshape', [normed, g.op('Shape', [x])])
  const weight = g.op('Reshape', [ctx.weight(`${prefix}.weight`, [channels]), g.int64s([channels, 1, 1])])
  const bias = g.op('Reshape', [ctx.weight(`${prefix}.bias`, [channels]), g.int64s([channels, 1, 1])])
  return g.op('Add', [g.op('Mul', [restored, weight]), bias])
}

/** normed · (1 + scale) + shift, the modulation every adaptive norm applies. */
export function modulate(ctx: BuildContext, normed: string, scale: string, shift: string): string {
  const { g } = ctx
  return g.op('Add', [g.op('Mul', [normed, g.op('Add', [scale, g.scalarFloat(1)])]), shift])
}

/**
 * AdaLayerNorm (norm_type "ada_norm", VQ-Diffusion): a per-step embedding table. `timestep` is a 0-d int64 index
 * shared by the batch; the (2·D) projection is chunked along its only axis: scale first, then shift.
 */
export function adaLayerNorm(ctx: BuildContext, prefix: string, x: string, timestep: string, dim: number, numEmbeddings: number): string {
  const { g } = ctx
  const emb = g.op('Gather', [ctx.weight(`${prefix}.emb.weight`, [numEmbeddings, dim]), timestep])
  const projected = linear(ctx, `${prefix}.linear`, silu(g, emb), dim, 2 * dim)
  const [scale, shift] = g.opMulti('Split', [projected, g.int64s([dim, dim])], 2, { axis: attr.int(0) })
  return modulate(ctx, layerNorm(ctx, x, dim, 1e-5, null), scale, shift)
}

export interface AdaLayerNormZeroOutput {
  normed: string
  gateMsa: string
  shiftMlp: string
  scaleMlp: string
  gateMlp: string
}

/**
 * AdaLayerNormZero (norm_type "ada_norm_zero", DiT): timestep + class-label conditioning projected to six
 * (B, 1, D) chunks in the order shift_msa, scale_msa, gate_msa, shift_mlp, scale_mlp, gate_mlp.
 */
export function adaLayerNormZero(ctx: BuildContext, prefix: string, x: string, timestep: string, classLabels: string, dim: number, numClasses: number): AdaLayerNormZeroOutput {
  const { g } = ctx
  const emb = combinedTimestepLabelEmbeddings(ctx, `${prefix}.emb`, timestep, classLabels, numClasses, dim)
  const projected = linear(ctx, `${prefix}.linear`, silu(g, emb), dim, 6 * dim)
  const chunks = g.opMulti('Split', [projected, g.int64s(Array(6).fill(dim))], 6, { axis: attr.int(1) })
  const [shiftMsa, scaleMsa, gateMsa, shiftMlp, scaleMlp, gateMlp] = chunks.map((c) => g.op('Unsqueeze', [c, g.int64s([1])]))
  return { normed: modulate(ctx, layerNorm(ctx, x, dim, 1e-6, null), scaleMsa, shiftMsa), gateMsa, shiftMlp, scaleMlp, gateMlp }
}

export interface AdaLayerNormSingleOutput {
  /** (B, 6·D): per-block modulation, added to each block's scale_shift_table. */
  modulation: string
  /** (B, D): the embedded timestep, used again by the output head. */
  embeddedTimestep: string
}

/** AdaLayerNormSingle (norm_type "ada_norm_single", PixArt-α): one conditioning MLP shared by all blocks. */
export function adaLayerNormSingle(ctx: BuildContext, prefix: string, conditioning: PixArtConditioning): AdaLayerNormSingleOutput {
  const { g } = ctx
  const { dim } = conditioning
  const emb = pixArtCombinedTimestepSizeEmbeddings(ctx, `${prefix}.emb`, conditioning)
  return { modulation: linear(ctx, `${prefix}.linear`, silu(g, emb), dim, 6 * dim), embeddedTimestep: emb }
}
