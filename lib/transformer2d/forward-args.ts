import type { TensorLike } from './tensor'

/**
 * The arguments of Transformer2DModel.forward, named as in diffusers. Tensors are dense row-major arrays
 * (ONNX Runtime tensors fit); a 0-d timestep may be given as a plain number.
 */
export interface ForwardArgs {
  /** (B, C, H, W) float for continuous and patched input; (B, L) integer classes for discrete input. */
  hidden_states: TensorLike
  /** (B, S, cross_attention_dim), or (B, S, caption_channels) for PixArt. */
  encoder_hidden_states?: TensorLike | null
  /** ada_norm: a 0-d integer step below num_embeds_ada_norm. ada_norm_zero / ada_norm_single: (B,) steps. */
  timestep?: TensorLike | number | null
  /** PixArt additional conditions: resolution (B, 2) and aspect_ratio (B, 1). */
  added_cond_kwargs?: { resolution?: TensorLike | null; aspect_ratio?: TensorLike | null } | null
  /** ada_norm_zero: (B,) class indices; num_embeds_ada_norm is the classifier-free-guidance null class. */
  class_labels?: TensorLike | null
  /** `scale` is accepted and ignored with a warning, as in diffusers; GLIGEN (`gligen`) is not supported. */
  cross_attention_kwargs?: Record<string, unknown> | null
  /** attn1 keys: (B, S) mask (1 keeps, 0 discards) or a (B, 1 | Nq, S) additive bias. */
  attention_mask?: TensorLike | null
  /** attn2 keys: (B, S) mask (true keeps) or a (B, 1 | Nq, S) additive bias (0 keeps, −10000 discards). */
  encoder_attention_mask?: TensorLike | null
  /** true (default): `{ sample }`; false: `[sample]`. */
  return_dict?: boolean
}
