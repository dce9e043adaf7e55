import { attr } from '@/lib/onnx'
import type { BuildContext } from './context'

/** torch.nn.Linear over the last axis: x·Wᵀ (+ b). */
export function linear(ctx: BuildContext, prefix: string, x: string, inFeatures: number, outFeatures: number, bias = true): string {
  const y = ctx.matMul(x, ctx.linearWeight(`${prefix}.weight`, outFeatures, inFeatures))
  return bias ? ctx.g.op('Add', [y, ctx.weight(`${prefix}.bias`, [outFeatures])]) : y
}

/**
 * Rows [start, end) of a torch.nn.Linear: the part of a fused projection that one chunk of its output needs
 * (GEGLU/SwiGLU value and gate halves).
 */
export function linearRows(ctx: BuildContext, prefix: string, x: string, inFeatures: number, outFeatures: number, start: number, end: number, label: string): string {
  const w = ctx.linearWeight(`${prefix}.weight`, outFeatures, inFeatures, start, end, `${prefix}.weight[${label}]`)
  const b = ctx.weightSlice(`${prefix}.bias`, outFeatures, start, end, `${prefix}.bias[${label}]`)
  return ctx.g.op('Add', [ctx.matMul(x, w), b])
}

/** torch.nn.Conv2d with kernel = stride (1×1 projections and patch embedding), no padding, with bias. */
export function conv2d(ctx: BuildContext, prefix: string, x: string, inChannels: number, outChannels: number, kernel: number): string {
  const w = ctx.weight(`${prefix}.weight`, [outChannels, inChannels, kernel, kernel])
  const b = ctx.weight(`${prefix}.bias`, [outChannels])
  return ctx.g.op('Conv', [x, w, b], { kernel_shape: attr.ints([kernel, kernel]), strides: attr.ints([kernel, kernel]) })
}
