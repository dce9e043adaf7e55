import type { ActivationFn } from '../config'
import { activationProjection } from './activations'
import type { BuildContext } from './context'
import { linear } from './linear'

/** diffusers FeedForward(dim, mult=4): net = [activation projection, Dropout (inactive), Linear(4·dim → dim)]. */
export function feedForward(ctx: BuildContext, prefix: string, x: string, dim: number, fn: ActivationFn): string {
  const innerDim = 4 * dim
  const hidden = activationProjection(ctx, `${prefix}.net.0`, x, dim, innerDim, fn)
  return linear(ctx, `${prefix}.net.2`, hidden, innerDim, dim)
}
