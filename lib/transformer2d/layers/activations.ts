import type { GraphBuilder } from '@/lib/onnx'
import type { ActivationFn } from '../config'
import type { BuildContext } from './context'
import { linear, linearRows } from './linear'

/** GELU with the exact erf form, 0.5·x·(1 + erf(x/√2)) (torch F.gelu default). */
export function gelu(g: GraphBuilder, x: string): string {
  const erf = g.op('Erf', [g.op('Div', [x, g.scalarFloat(Math.SQRT2)])])
  return g.op('Mul', [g.op('Mul', [x, g.op('Add', [erf, g.scalarFloat(1)])]), g.scalarFloat(0.5)])
}

/** GELU, tanh approximation: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) (torch approximate="tanh"). */
export function geluTanh(g: GraphBuilder, x: string): string {
  const cube = g.op('Mul', [g.op('Mul', [x, x]), x])
  const inner = g.op('Add', [x, g.op('Mul', [cube, g.scalarFloat(0.044715)])])
  const t = g.op('Tanh', [g.op('Mul', [inner, g.scalarFloat(Math.sqrt(2 / Math.PI))])])
  return g.op('Mul', [g.op('Mul', [x, g.op('Add', [t, g.scalarFloat(1)])]), g.scalarFloat(0.5)])
}

export function silu(g: GraphBuilder, x: string): string {
  return g.op('Mul', [x, g.op('Sigmoid', [x])])
}

/**
 * The first module of FeedForward (`ff.net.0`): a projection to the inner width followed by the activation.
 * Gated variants (GEGLU, SwiGLU) project to twice the inner width; the first half is the value, the second the gate.
 */
export function activationProjection(ctx: BuildContext, prefix: string, x: string, dim: number, innerDim: number, fn: ActivationFn): string {
  const { g } = ctx
  const proj = `${prefix}.proj`
  switch (fn) {
    case 'gelu':
      return gelu(g, linear(ctx, proj, x, dim, innerDim))
    case 'gelu-approximate':
      return geluTanh(g, linear(ctx, proj, x, dim, innerDim))
    case 'geglu-approximate': {
      // ApproximateGELU: not gated, y·sigmoid(1.702·y).
      const y = linear(ctx, proj, x, dim, innerDim)
      return g.op('Mul', [y, g.op('Sigmoid', [g.op('Mul', [y, g.scalarFloat(1.702)])])])
    }
    case 'linear-silu':
      return silu(g, linear(ctx, proj, x, dim, innerDim))
    case 'geglu':
    case 'swiglu': {
      const value = linearRows(ctx, proj, x, dim, 2 * innerDim, 0, innerDim, 'value')
      const gate = linearRows(ctx, proj, x, dim, 2 * innerDim, innerDim, 2 * innerDim, 'gate')
      return g.op('Mul', [value, fn === 'geglu' ? gelu(g, gate) : silu(g, gate)])
    }
  }
}
