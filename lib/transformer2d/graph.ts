import { DataType, GraphBuilder } from '@/lib/onnx'
import type { BlockConditioning } from './blocks/basic-transformer-block'
import type { ResolvedConfig } from './config'
import { GRAPH_OUTPUT, GraphInput } from './graph-inputs'
import { BuildContext, type WeightBinding, type WeightSlot } from './layers/context'
import { continuousModel } from './modes/continuous'
import { patchedModel } from './modes/patched'
import { vectorizedModel } from './modes/vectorized'
import type { GraphSignature } from './signature'

/** Opset 17: the first with LayerNormalization, and supported by onnxruntime-node and onnxruntime-web alike. */
export const OPSET = 17

/** ONNX Runtime contrib ops (fused MultiHeadAttention), available in onnxruntime-node and onnxruntime-web. */
export const CONTRIB_OPSET = { 'com.microsoft': 1 }

/**
 * Builds the ONNX graph of one Transformer2DModel configuration. `binding` says whether its weights are graph
 * inputs or initializers; `slots` lists them and which checkpoint tensor each is cut from.
 */
export function buildTransformer2DGraph(r: ResolvedConfig, binding: WeightBinding, signature: GraphSignature): { graph: GraphBuilder; slots: WeightSlot[] } {
  const g = new GraphBuilder('Transformer2DModel')
  const ctx = new BuildContext(g, binding)
  const c = r.config
  const D = r.innerDim
  const F = DataType.FLOAT

  const hidden =
    r.mode === 'vectorized'
      ? g.input(GraphInput.hiddenStates, DataType.INT64, ['batch', 'num_latent_pixels'], 'latent pixel classes')
      : g.input(GraphInput.hiddenStates, F, ['batch', c.in_channels!, 'height', 'width'])
  const encoderWidth = r.mode === 'patched' && c.caption_channels !== null ? c.caption_channels : (c.cross_attention_dim ?? D)
  const cond: BlockConditioning = {
    encoderHiddenStates: signature.encoderHiddenStates ? g.input(GraphInput.encoderHiddenStates, F, ['batch', 'encoder_tokens', encoderWidth]) : null,
    timestep: null,
    classLabels: null,
    attentionBias: signature.attentionMask ? g.input(GraphInput.attentionBias, F, ['batch', 'attention_bias_rows', 'attention_keys'], 'additive attn1 score bias') : null,
    encoderAttentionBias: signature.encoderAttentionMask
      ? g.input(GraphInput.encoderAttentionBias, F, ['batch', 'encoder_bias_rows', 'encoder_keys'], 'additive attn2 score bias')
      : null,
  }
  if (r.blockNormType === 'ada_norm') cond.timestep = g.input(GraphInput.timestep, DataType.INT64, [], 'diffusion step index')
  if (r.blockNormType === 'ada_norm_zero' || r.blockNormType === 'ada_norm_single') cond.timestep = g.input(GraphInput.timestep, F, ['batch'])
  if (r.blockNormType === 'ada_norm_zero') cond.classLabels = g.input(GraphInput.classLabels, DataType.INT64, ['batch'])

  let sample: string
  let outputDims: (number | string)[]
  if (r.mode === 'continuous') {
    sample = continuousModel(ctx, r, hidden, cond)
    outputDims = ['batch', r.outChannels, 'height', 'width']
  } else if (r.mode === 'vectorized') {
    sample = vectorizedModel(ctx, r, hidden, cond)
    outputDims = ['batch', c.num_vector_embeds! - 1, 'num_latent_pixels']
  } else {
    const sizeConditions = r.useAdditionalConditions
      ? { resolution: g.input(GraphInput.resolution, F, ['batch', 2]), aspectRatio: g.input(GraphInput.aspectRatio, F, ['batch', 1]) }
      : null
    const posEmbed = g.input(GraphInput.posEmbed, F, [1, 'num_patches', D], '2-D sin/cos position table of the patch grid')
    sample = patchedModel(ctx, r, hidden, { posEmbed, timestep: cond.timestep!, classLabels: cond.classLabels, sizeConditions }, cond)
    outputDims = ['batch', r.outChannels, 'height_out', 'width_out']
  }
  g.output(sample, GRAPH_OUTPUT, F, outputDims)
  return { graph: g, slots: ctx.slots }
}
