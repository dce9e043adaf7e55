import type { ForwardArgs } from '@/lib/transformer2d'
import type { Transformer2DConfig } from '@/lib/transformer2d'

/** Seeded uniform values in [-1, 1): the demo's inputs are the same on every run and every device. */
function seeded(length: number, seed: number): Float32Array {
  let state = seed >>> 0
  return Float32Array.from({ length }, () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 31 - 1))
}

/** Forward arguments for a demo model: a noise image (continuous) or random latent-pixel classes (discrete). */
export function demoInputs(config: Transformer2DConfig, size: number): ForwardArgs {
  const cross = config.cross_attention_dim
  const encoder = cross ? { encoder_hidden_states: { data: seeded(8 * cross, 2), dims: [1, 8, cross] } } : {}
  if (config.num_vector_embeds !== null) {
    const pixels = size * size
    const classes = BigInt64Array.from(seeded(pixels, 3), (v) => BigInt(Math.floor(((v + 1) / 2) * config.num_vector_embeds!)))
    return { hidden_states: { data: classes, dims: [1, pixels] }, timestep: 0, ...encoder }
  }
  const channels = config.in_channels!
  return { hidden_states: { data: seeded(channels * size * size, 1), dims: [1, channels, size, size] }, ...encoder }
}
