/** Names of the ONNX graph's inputs and output; the runtime feeds and reads them by these names. */
export const GraphInput = {
  hiddenStates: 'hidden_states',
  encoderHiddenStates: 'encoder_hidden_states',
  timestep: 'timestep',
  classLabels: 'class_labels',
  resolution: 'resolution',
  aspectRatio: 'aspect_ratio',
  posEmbed: 'pos_embed',
  attentionBias: 'attention_bias',
  encoderAttentionBias: 'encoder_attention_bias',
} as const

export const GRAPH_OUTPUT = 'sample'
