import { attr } from '@/lib/onnx'
import type { BuildContext } from './context'
import { linear } from './linear'

export interface AttentionSpec {
  heads: number
  headDim: number
  queryDim: number
  /** Width of the key/value input (cross_attention_dim, or queryDim for self-attention). */
  kvDim: number
  /** Bias on to_q/to_k/to_v (`attention_bias`); to_out.0 always has one. */
  qkvBias: boolean
}

/**
 * diffusers Attention with AttnProcessor: softmax(d^-½·q·kᵀ + bias)·v per head, then to_out.0.
 * `keyValues` is the key/value source (encoder states for cross-attention, else the queries' own input).
 * `bias` is an additive (B, 1 or Nq, S) score bias; masks reach it already converted to −10000 biases, so a fully
 * masked row behaves like the reference (shifted, not NaN). `upcast_attention` only changes half-precision
 * runs; this graph computes in float32, where it is a no-op.
 */
export function attention(ctx: BuildContext, prefix: string, spec: AttentionSpec, x: string, keyValues: string, bias: string | null): string {
  const { g } = ctx
  const inner = spec.heads * spec.headDim
  const headsView = g.int64s([0, 0, spec.heads, spec.headDim])
  const q = g.op('Transpose', [g.op('Reshape', [linear(ctx, `${prefix}.to_q`, x, spec.queryDim, inner, spec.qkvBias), headsView])], { perm: attr.ints([0, 2, 1, 3]) })
  const kT = g.op('Transpose', [g.op('Reshape', [linear(ctx, `${prefix}.to_k`, keyValues, spec.kvDim, inner, spec.qkvBias), headsView])], { perm: attr.ints([0, 2, 3, 1]) })
  const v = g.op('Transpose', [g.op('Reshape', [linear(ctx, `${prefix}.to_v`, keyValues, spec.kvDim, inner, spec.qkvBias), headsView])], { perm: attr.ints([0, 2, 1, 3]) })
  let scores = g.op('Mul', [g.op('MatMul', [q, kT]), g.scalarFloat(spec.headDim ** -0.5)])
  if (bias) scores = g.op('Add', [scores, g.op('Unsqueeze', [bias, g.int64s([1])])])
  const context = g.op('MatMul', [g.op('Softmax', [scores], { axis: attr.int(-1) }), v])
  const merged = g.op('Reshape', [g.op('Transpose', [context], { perm: attr.ints([0, 2, 1, 3]) }), g.int64s([0, 0, inner])])
  return linear(ctx, `${prefix}.to_out.0`, merged, inner, spec.queryDim)
}
