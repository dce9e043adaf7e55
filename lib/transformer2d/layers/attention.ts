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
  const project = (name: string, input: string, width: number, perm: number[]) =>
    g.op('Transpose', [g.op('Reshape', [linear(ctx, `${prefix}.${name}`, input, width, inner, spec.qkvBias), headsView])], { perm: attr.ints(perm) })
  const q = project('to_q', x, spec.queryDim, [0, 2, 1, 3]) // (B, H, Nq, d)
  const kT = project('to_k', keyValues, spec.kvDim, [0, 2, 3, 1]) // (B, H, d, S)
  const v = project('to_v', keyValues, spec.kvDim, [0, 2, 1, 3]) // (B, H, S, d)
  const scoreBias = bias ? g.op('Unsqueeze', [bias, g.int64s([1])]) : null

  // One head at a time (diffusers' attention slicing): the (B, 1, Nq, S) scores of a head are freed before the
  // next head's are made, which bounds peak memory at 1/H of the full (B, H, Nq, S) tensor. Same math per head.
  const perHead = (t: string) => (spec.heads === 1 ? [t] : g.opMulti('Split', [t, g.int64s(Array(spec.heads).fill(1))], spec.heads, { axis: attr.int(1) }))
  const [qs, ks, vs] = [perHead(q), perHead(kT), perHead(v)]
  const heads = qs.map((qh, h) => {
    let scores = g.op('Mul', [g.op('MatMul', [qh, ks[h]]), g.scalarFloat(spec.headDim ** -0.5)])
    if (scoreBias) scores = g.op('Add', [scores, scoreBias])
    return g.op('MatMul', [g.op('Softmax', [scores], { axis: attr.int(-1) }), vs[h]])
  })
  const context = heads.length === 1 ? heads[0] : g.op('Concat', heads, { axis: attr.int(1) })
  const merged = g.op('Reshape', [g.op('Transpose', [context], { perm: attr.ints([0, 2, 1, 3]) }), g.int64s([0, 0, inner])])
  return linear(ctx, `${prefix}.to_out.0`, merged, inner, spec.queryDim)
}
