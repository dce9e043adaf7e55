import { describe, expect, it } from 'vitest'
import { Transformer2DError, type ForwardArgs, type TensorLike } from '@/lib/transformer2d'
import { nodeRuntime, Transformer2DModel } from '@/lib/transformer2d/node'
import { errorProbes } from './golden'
import { randomWeights } from './random-weights'

const float = (dims: number[]): TensorLike => ({ data: new Float32Array(dims.reduce((a, b) => a * b, 1)).fill(0.5), dims })
const int64 = (dims: number[], value = 1): TensorLike => ({ data: new BigInt64Array(dims.reduce((a, b) => a * b, 1)).fill(BigInt(value)), dims })
const bool = (dims: number[]): TensorLike => ({ data: new Uint8Array(dims.reduce((a, b) => a * b, 1)).fill(1), dims, type: 'bool' })

/**
 * For every probe in errors.json: the error we expect (a pattern of its message) and, for forward-stage probes,
 * the call that triggers it. Configs diffusers accepts but cannot run are rejected at construction here, so a
 * forward-stage probe may fail at either step; both count as raising.
 */
const PROBES: Record<string, { message: RegExp; kind?: Transformer2DError['kind']; call?: ForwardArgs }> = {
  no_input_kind: { message: /Has to define `in_channels`: None, `num_vector_embeds`: None, or patch_size: None/ },
  in_channels_and_num_vector_embeds: { message: /Cannot define both `in_channels`: 8 and `num_vector_embeds`: 9/ },
  num_vector_embeds_and_patch_size: { message: /Cannot define both `num_vector_embeds`: 9 and `patch_size`: 2/ },
  patch_with_layer_norm: { message: /not implemented when `patch_size` is not None and `norm_type` is 'layer_norm'/ },
  patch_ada_norm_zero_without_num_embeds: { message: /\(ada_norm_zero\), `num_embeds_ada_norm` cannot be None/ },
  patch_without_sample_size: { message: /over patched input must provide sample_size/ },
  vectorized_without_sample_size: { message: /over discrete input must provide sample_size/ },
  ada_norm_without_num_embeds: { message: /`norm_type` is set to ada_norm, but `num_embeds_ada_norm` is not defined/ },
  groupnorm_not_divisible: { message: /in_channels \(8\) to be a multiple of norm_num_groups \(3\)/ },
  unknown_activation: { message: /Unknown activation_fn 'relu'/ },
  ada_norm_continuous_unsupported: { message: /'ada_norm_continuous' is not supported/ },
  sincos_odd_embed_dim: { message: /inner_dim \(6\).*must be a multiple of 4/ },
  ada_norm_timestep_1d_batch2: {
    kind: 'input',
    message: /timestep for norm_type ada_norm must be a 0-d integer tensor.*got dims \[2\]/,
    call: { hidden_states: int64([2, 16]), encoder_hidden_states: float([2, 7, 12]), timestep: int64([2]) },
  },
  ada_norm_timestep_1d_batch1: {
    kind: 'input',
    message: /must be a 0-d integer tensor.*got dims \[1\]/,
    call: { hidden_states: int64([1, 16]), encoder_hidden_states: float([1, 7, 12]), timestep: int64([1]) },
  },
  ada_norm_timestep_none: {
    kind: 'input',
    message: /timestep is required for norm_type ada_norm/,
    call: { hidden_states: int64([2, 16]), encoder_hidden_states: float([2, 7, 12]) },
  },
  vectorized_seq_longer_than_sample_size_sq: {
    kind: 'input',
    message: /20 latent pixels but the model has position embeddings for sample_size² = 16/,
    call: { hidden_states: int64([2, 20]), encoder_hidden_states: float([2, 7, 12]), timestep: int64([], 3) },
  },
  encoder_mask_shorter_than_sequence: {
    kind: 'input',
    message: /encoder_attention_mask covers 4 keys but the attention has 5 keys/,
    call: { hidden_states: float([2, 8, 3, 5]), encoder_hidden_states: float([2, 5, 12]), encoder_attention_mask: bool([2, 4]) },
  },
  cross_attention_configured_but_no_encoder_states: {
    kind: 'input',
    message: /encoder_hidden_states is required: .*12-wide encoder states/,
    call: { hidden_states: float([2, 8, 3, 5]) },
  },
  linear_projection_out_channels_ne_in_channels: { message: /out_channels \(4\) must equal in_channels \(8\)/ },
  conv_projection_out_channels_ne_in_channels: { message: /out_channels \(4\) must equal in_channels \(8\)/ },
  unknown_norm_type_forward: { message: /Incorrect norm used: unknown norm_type 'foo'/ },
  layer_norm_i2vgen_forward: { message: /'layer_norm_i2vgen' cannot run/ },
  ada_norm_zero_timestep_0d: {
    kind: 'input',
    message: /Timesteps should be a 1d-array/,
    call: { hidden_states: float([2, 4, 8, 8]), timestep: 5, class_labels: int64([2]) },
  },
  ada_norm_zero_no_class_labels: {
    kind: 'input',
    message: /class_labels is required for norm_type ada_norm_zero/,
    call: { hidden_states: float([2, 4, 8, 8]), timestep: int64([2], 5) },
  },
  ada_norm_zero_nonsquare_input_silently_wrong: {
    kind: 'input',
    message: /need a square patch grid; got 4×6 patches/,
    call: { hidden_states: float([2, 4, 8, 12]), timestep: int64([2], 5), class_labels: int64([2]) },
  },
  patched_ada_norm_forward: { message: /'ada_norm' cannot run with patched input/ },
  ada_norm_single_additional_conditions_missing: {
    kind: 'input',
    message: /`added_cond_kwargs` cannot be None when using additional conditions for `adaln_single`/,
    call: { hidden_states: float([2, 4, 8, 8]), timestep: float([2]) },
  },
  ada_norm_single_timestep_0d: {
    kind: 'input',
    message: /Timesteps should be a 1d-array/,
    call: { hidden_states: float([2, 4, 8, 8]), timestep: 10, added_cond_kwargs: { resolution: float([2, 2]), aspect_ratio: float([2, 1]) } },
  },
  ada_norm_single_addcond_inner_dim_not_div_by_3: { message: /inner_dim \(16\) must be divisible by 3/ },
}

describe('errors.json: every invalid config or input raises a clear Transformer2DError', () => {
  const probes = errorProbes()

  it('covers every probe in errors.json', () => {
    expect(Object.keys(PROBES).sort()).toEqual(probes.map((p) => p.case).sort())
  })

  for (const probe of probes) {
    it(`${probe.stage}: ${probe.case}`, async () => {
      const expected = PROBES[probe.case]
      const run = async () => {
        const model = await Transformer2DModel.fromConfig(probe.kwargs, randomWeights(), nodeRuntime({ threads: 1 }))
        try {
          if (!expected.call) throw new Error('construction was expected to fail')
          await model.forward(expected.call)
        } finally {
          await model.dispose()
        }
      }
      const error = await run().then(
        () => null,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(Transformer2DError)
      expect((error as Error).message).toMatch(expected.message)
      expect((error as Transformer2DError).kind).toBe(expected.kind ?? 'config')
    })
  }
})
