// What each neural check does with a loaded model: encode, forward, post-process. Written once over
// `NeuralModel`, which the Node runtime (onnxruntime-node through transformers.js) and the browser
// runner (onnxruntime-web) each implement, so the server and the playground answer alike.
// Browser-safe: no node: modules, no onnxruntime.
import type { PreTrainedTokenizer } from '@huggingface/transformers'
import { encodeForModel, encodeWithPairs } from './encode'
import type { ModelEntry } from './manifest'
import { labelIndex, postProcessing } from './model-config'
import { argmax, cleanForCodeDetection, entailmentIndexes, entailmentScore, meanRows, sigmoid, softmax, tokenWindows } from './postprocess'

export interface NeuralModel {
  entry: ModelEntry
  tokenizer: PreTrainedTokenizer
  id2label: Record<number, string>
  /** One output row per sequence: the logits, or the first token's hidden state. */
  forward(sequences: number[][]): Promise<Float32Array[]>
}

/** A batch of token sequences as the graphs take it: right-padded ids and the attention mask. */
export function paddedBatch(sequences: number[][], padId: number): { width: number; inputIds: BigInt64Array; attentionMask: BigInt64Array } {
  const width = Math.max(...sequences.map((s) => s.length))
  const inputIds = new BigInt64Array(sequences.length * width).fill(BigInt(padId))
  const attentionMask = new BigInt64Array(sequences.length * width)
  sequences.forEach((row, r) => {
    for (let i = 0; i < row.length; i++) {
      inputIds[r * width + i] = BigInt(row[i]!)
      attentionMask[r * width + i] = 1n
    }
  })
  return { width, inputIds, attentionMask }
}

/** The graph output a model's entry names, one row per sequence (logits, or the first token's hidden state). */
export function outputRows(entry: ModelEntry, data: Float32Array, dims: readonly number[]): Float32Array[] {
  const [batch] = dims
  if (entry.output === 'logits') {
    const labels = dims[1]!
    return Array.from({ length: batch! }, (_, b) => data.slice(b * labels, (b + 1) * labels))
  }
  const [, length, hidden] = dims as [number, number, number]
  return Array.from({ length: batch! }, (_, b) => data.slice(b * length * hidden, b * length * hidden + hidden))
}

/**
 * The model's metrics, in its post-processing's order. Texts longer than the window are cut into
 * windows of token ids, each decoded back to text and scored on its own, and the metrics are
 * averaged over the windows, as the toolkit's detoxify service does.
 */
export async function windowedSigmoidScores(model: NeuralModel, text: string): Promise<number[]> {
  const { metrics, windowTokens } = postProcessing(model, 'windowedSigmoid')
  const ids = model.tokenizer.encode(text, { add_special_tokens: false })
  const texts = ids.length > windowTokens ? tokenWindows(ids, windowTokens).map((w) => model.tokenizer.decode(w)) : [text]
  const rows = await model.forward(texts.map((t) => encodeForModel(model.tokenizer, t, null, model.entry.maxLength)))
  const mean = meanRows(rows.map((row) => Array.from(row, sigmoid)))
  return metrics.map((name) => mean[labelIndex(model, name)]!)
}

/** Softmax classification (after codenlbert's clean-up where configured): the top label, its probability, every probability. */
export async function softmaxClassify(model: NeuralModel, text: string): Promise<{ label: string; score: number; probabilities: number[] }> {
  const { textCleanup } = postProcessing(model, 'softmax')
  const input = textCleanup === 'codenlbert' ? cleanForCodeDetection(text) : text
  const [logits] = await model.forward([encodeForModel(model.tokenizer, input, null, model.entry.maxLength)])
  const probabilities = softmax(logits!)
  const top = argmax(probabilities)
  return { label: model.id2label[top]!, score: probabilities[top]!, probabilities }
}

/** Softmax classification into one of `labels`: the model's top label (an error when the model has another) and its probability. */
export async function classifyAs<Label extends string>(model: NeuralModel, text: string, labels: readonly Label[]): Promise<{ label: Label; score: number }> {
  const { label, score } = await softmaxClassify(model, text)
  if (!(labels as readonly string[]).includes(label)) throw new Error(`${model.entry.id} answered the unexpected label "${label}"`)
  return { label: label as Label, score }
}

/** Multi-label zero-shot: one independent entailment score per label, in the labels' order. */
export async function zeroShotScores(model: NeuralModel, text: string, labels: string[]): Promise<number[]> {
  const { hypothesisTemplate } = postProcessing(model, 'zeroShotEntailment')
  const indexes = entailmentIndexes(model.id2label)
  const pairs = encodeWithPairs(model.tokenizer, text, labels.map((label) => hypothesisTemplate.replace('{}', label)), model.entry.maxLength)
  return (await model.forward(pairs)).map((row) => entailmentScore(row, indexes))
}

/** Raw (unnormalised) CLS embeddings, one per text, in input order. */
export async function clsEmbeddings(model: NeuralModel, texts: string[]): Promise<number[][]> {
  postProcessing(model, 'clsPooling')
  const rows = await model.forward(texts.map((t) => encodeForModel(model.tokenizer, t, null, model.entry.maxLength)))
  return rows.map((row) => Array.from(row))
}
