import { attr, DataType } from '@/lib/onnx'
import { geluTanh, silu } from './activations'
import type { BuildContext } from './context'
import { conv2d, linear } from './linear'

const TIMESTEP_CHANNELS = 256

/**
 * The frequencies of diffusers' get_timestep_embedding, rounded as torch computes them in float32:
 * exp((−ln(10000)·k) / (half − shift)).
 */
function timestepFrequencies(half: number, downscaleFreqShift: number): Float32Array {
  const minusLogPeriod = Math.fround(-Math.log(10000))
  return Float32Array.from({ length: half }, (_, k) => Math.exp(Math.fround(Math.fround(minusLogPeriod * k) / (half - downscaleFreqShift))))
}

/**
 * Timesteps(num_channels, flip_sin_to_cos, downscale_freq_shift): sinusoidal features of a (B,) float timestep,
 * computed in float32 like diffusers. With flip_sin_to_cos the cosines come first.
 */
export function timestepProjection(ctx: BuildContext, timestep: string, flipSinToCos: boolean, downscaleFreqShift: number): string {
  const { g } = ctx
  const half = TIMESTEP_CHANNELS / 2
  const freqs = g.constant({ dataType: DataType.FLOAT, dims: [half], data: timestepFrequencies(half, downscaleFreqShift) })
  const args = g.op('Mul', [g.op('Unsqueeze', [timestep, g.int64s([1])]), freqs])
  const sin = g.op('Sin', [args])
  const cos = g.op('Cos', [args])
  return g.op('Concat', flipSinToCos ? [cos, sin] : [sin, cos], { axis: attr.int(-1) })
}

/** TimestepEmbedding: linear_1 → SiLU → linear_2. */
export function timestepEmbedding(ctx: BuildContext, prefix: string, x: string, inChannels: number, dim: number): string {
  const hidden = silu(ctx.g, linear(ctx, `${prefix}.linear_1`, x, inChannels, dim))
  return linear(ctx, `${prefix}.linear_2`, hidden, dim, dim)
}

/**
 * CombinedTimestepLabelEmbeddings (DiT): timestep MLP on Timesteps(256, flip, shift 1) plus a label table with
 * num_classes + 1 rows (the last row is the classifier-free-guidance null class).
 */
export function combinedTimestepLabelEmbeddings(ctx: BuildContext, prefix: string, timestep: string, classLabels: string, numClasses: number, dim: number): string {
  return ctx.once(prefix, () => {
    const { g } = ctx
    const t = timestepEmbedding(ctx, `${prefix}.timestep_embedder`, timestepProjection(ctx, timestep, true, 1), TIMESTEP_CHANNELS, dim)
    const labels = g.op('Gather', [ctx.weight(`${prefix}.class_embedder.embedding_table.weight`, [numClasses + 1, dim]), classLabels])
    return g.op('Add', [t, labels])
  })
}

/**
 * PixArtAlphaCombinedTimestepSizeEmbeddings: timestep MLP on Timesteps(256, flip, shift 0); with additional
 * conditions, plus [resolution (B, 2·D/3) | aspect ratio (B, D/3)] embedded the same way.
 */
/** PixArt's conditioning inputs: the timestep, the optional size conditions, and the model width they are embedded to. */
export type PixArtConditioning = { timestep: string; sizeConditions: { resolution: string; aspectRatio: string } | null; dim: number }

export function pixArtCombinedTimestepSizeEmbeddings(ctx: BuildContext, prefix: string, { timestep, sizeConditions, dim }: PixArtConditioning): string {
  const { g } = ctx
  const embedded = timestepEmbedding(ctx, `${prefix}.timestep_embedder`, timestepProjection(ctx, timestep, true, 0), TIMESTEP_CHANNELS, dim)
  if (!sizeConditions) return embedded
  const sizeDim = Math.floor(dim / 3)
  const embedSize = (name: string, input: string, perSample: number): string => {
    const flat = g.op('Reshape', [input, g.int64s([-1])])
    const e = timestepEmbedding(ctx, `${prefix}.${name}`, timestepProjection(ctx, flat, true, 0), TIMESTEP_CHANNELS, sizeDim)
    return g.op('Reshape', [e, g.int64s([-1, perSample * sizeDim])])
  }
  const resolution = embedSize('resolution_embedder', sizeConditions.resolution, 2)
  const aspectRatio = embedSize('aspect_ratio_embedder', sizeConditions.aspectRatio, 1)
  return g.op('Add', [embedded, g.op('Concat', [resolution, aspectRatio], { axis: attr.int(1) })])
}

/** PixArtAlphaTextProjection: linear_1 → GELU(tanh) → linear_2, caption width → inner_dim. */
export function pixArtTextProjection(ctx: BuildContext, prefix: string, x: string, inFeatures: number, hidden: number): string {
  const h = geluTanh(ctx.g, linear(ctx, `${prefix}.linear_1`, x, inFeatures, hidden))
  return linear(ctx, `${prefix}.linear_2`, h, hidden, hidden)
}

/**
 * ImagePositionalEmbeddings (VQ-Diffusion): class embedding of each latent pixel plus height and width
 * embeddings of its row-major position; a sequence of L ≤ H·W pixels takes the first L positions.
 */
export function imagePositionalEmbeddings(ctx: BuildContext, prefix: string, x: string, numEmbed: number, height: number, width: number, dim: number): string {
  const { g } = ctx
  const emb = g.op('Gather', [ctx.weight(`${prefix}.emb.weight`, [numEmbed, dim]), x])
  const rows = g.op('Unsqueeze', [ctx.weight(`${prefix}.height_emb.weight`, [height, dim]), g.int64s([1])])
  const cols = g.op('Unsqueeze', [ctx.weight(`${prefix}.width_emb.weight`, [width, dim]), g.int64s([0])])
  const positions = g.op('Reshape', [g.op('Add', [rows, cols]), g.int64s([height * width, dim])])
  const length = g.op('Shape', [x], { start: attr.int(1), end: attr.int(2) })
  const used = g.op('Slice', [positions, g.int64s([0]), length, g.int64s([0])])
  return g.op('Add', [emb, used])
}

/**
 * PatchEmbed: p×p conv with stride p, flattened row-major over patches, plus the 2-D sin/cos table. The table is
 * a graph input (`posEmbed`, (1, h·w, D)) because it depends on the input size and is computed in float64
 * (see sincos.ts). Returns the tokens and the patch grid shape [h, w].
 */
export function patchEmbed(ctx: BuildContext, prefix: string, x: string, inChannels: number, dim: number, patchSize: number, posEmbed: string): { tokens: string; grid: string } {
  const { g } = ctx
  const patches = conv2d(ctx, `${prefix}.proj`, x, inChannels, dim, patchSize)
  const grid = g.op('Shape', [patches], { start: attr.int(2) })
  const tokens = g.op('Transpose', [g.op('Reshape', [patches, g.int64s([0, dim, -1])])], { perm: attr.ints([0, 2, 1]) })
  return { tokens: g.op('Add', [tokens, posEmbed]), grid }
}
