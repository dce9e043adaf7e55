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
  const q = linear(ctx, `${prefix}.to_q`, x, spec.queryDim, inner, spec.qkvBias)
  const k = linear(ctx, `${prefix}.to_k`, keyValues, spec.kvDim, inner, spec.qkvBias)
  const v = linear(ctx, `${prefix}.to_v`, keyValues, spec.kvDim, inner, spec.qkvBias)
  const context = bias ? biasedAttention(ctx, spec, q, k, v, bias) : fusedAttention(ctx, spec, q, k, v)
  return linear(ctx, `${prefix}.to_out.0`, context, inner, spec.queryDim)
}

/**
 * Without a bias: ONNX Runtime's fused MultiHeadAttention (com.microsoft), which streams over the keys instead of
 * materializing the (B, H, Nq, S) scores: same softmax(d^-½·q·kᵀ)·v, several times less memory traffic.
 */
function fusedAttention(ctx: BuildContext, spec: AttentionSpec, q: string, k: string, v: string): string {
  return ctx.g.op('MultiHeadAttention', [q, k, v], { num_heads: attr.int(spec.heads), scale: attr.float(spec.headDim ** -0.5) }, 'com.microsoft')
}

/**
 * With a bias: the classic score path, written out so the bias is added exactly where diffusers adds it. One head
 * at a time (diffusers' attention slicing): a head's (B, 1, Nq, S) scores are freed before the next head's are
 * made, which bounds peak memory at 1/H of the full score tensor.
 */
function biasedAttention(ctx: BuildContext, spec: AttentionSpec, q: string, k: string, v: string, bias: string): string {
  const { g } = ctx
  const headsView = g.int64s([0, 0, spec.heads, spec.headDim])
  const split = (t: string, perm: number[]) => {
    const heads = g.op('Transpose', [g.op('Reshape', [t, headsView])], { perm: attr.ints(perm) })
    return spec.heads === 1 ? [heads] : g.opMulti('Split', [heads, g.int64s(Array(spec.heads).fill(1))], spec.heads, { axis: attr.int(1) })
  }
  const [qs, ks, vs] = [split(q, [0, 2, 1, 3]), split(k, [0, 2, 3, 1]), split(v, [0, 2, 1, 3])] // (B,1,Nq,d), (B,1,d,S), (B,1,S,d)
  const scoreBias = g.op('Unsqueeze', [bias, g.int64s([1])])
  const heads = qs.map((qh, h) => {
    const scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [qh, ks[h]]), g.scalarFloat(spec.headDim ** -0.5)]), scoreBias])
    return g.op('MatMul', [g.op('Softmax', [scores], { axis: attr.int(-1) }), vs[h]])
  })
  const context = heads.length === 1 ? heads[0] : g.op('Concat', heads, { axis: attr.int(1) })
  return g.op('Reshape', [g.op('Transpose', [context], { perm: attr.ints([0, 2, 1, 3]) }), g.int64s([0, 0, spec.heads * spec.headDim])])
}
