import type { ResolvedConfig } from './config'

/**
 * Which optional forward arguments a graph takes. Each combination is its own ONNX graph, so a call without masks
 * pays for no mask arithmetic. Mode-specific inputs (timestep, class labels, size conditions, position table)
 * follow from the config alone.
 */
export interface GraphSignature {
  encoderHiddenStates: boolean
  attentionMask: boolean
  encoderAttentionMask: boolean
}

export function signatureKey(s: GraphSignature): string {
  return `${+s.encoderHiddenStates}${+s.attentionMask}${+s.encoderAttentionMask}`
}

/**
 * Whether a forward call must pass encoder_hidden_states: when something projects them (PixArt caption
 * projection) or when an attention's key/value width differs from inner_dim, so it cannot fall back to attending
 * to its own input.
 */
export function requiresEncoderHiddenStates(r: ResolvedConfig): boolean {
  const c = r.config
  if (r.mode === 'patched' && c.caption_channels !== null) return true
  if (c.only_cross_attention && r.attn1KvDim !== r.innerDim) return true
  return r.hasAttn2 && r.attn2KvDim !== r.innerDim
}

/** Whether the model reads encoder_hidden_states at all (otherwise they are ignored, as in diffusers). */
export function usesEncoderHiddenStates(r: ResolvedConfig): boolean {
  return r.hasAttn2 || r.config.only_cross_attention || (r.mode === 'patched' && r.config.caption_channels !== null)
}

/** The graph an exporter writes when not told otherwise: encoder states if the model reads them, no masks. */
export function defaultSignature(r: ResolvedConfig): GraphSignature {
  return { encoderHiddenStates: usesEncoderHiddenStates(r), attentionMask: false, encoderAttentionMask: false }
}
