/**
 * The neural models in the browser: the manifest's models (MODEL_MANIFEST) from the hub's
 * /model-files, tokenised by transformers.js's tokenizer classes and run by onnxruntime-web, with
 * the post-processing the server applies (lib/moderation/runtime/postprocess). The server's
 * runtime module itself is Node-only (it loads through onnxruntime-node), so the per-check
 * steps are written here over the same pure helpers.
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers'
import type * as Ort from 'onnxruntime-web'
import { encodeForModel } from '@/lib/moderation/runtime/encode'
import { labelIndex, postProcessing } from '@/lib/moderation/runtime/model-config'
import { MODEL_MANIFEST, type ModelEntry, type NeuralCheck } from '@/lib/moderation/runtime/manifest'
import {
  argmax,
  cleanForCodeDetection,
  entailmentIndexes,
  entailmentScore,
  meanRows,
  sigmoid,
  softmax,
  tokenWindows,
} from '@/lib/moderation/runtime/postprocess'
import type { NeuralModelFiles } from './catalog'
import { fetchModelFile, fetchModelJson, type ProgressListener } from './model-files'
import { createGraphSession, type BrowserDevice, type GraphSession } from './onnx'

export type BrowserNeuralModel = {
  entry: ModelEntry
  tokenizer: PreTrainedTokenizer
  id2label: Record<number, string>
  session: GraphSession
  /** One output row per sequence: the logits, or the first token's hidden state. */
  forward(sequences: number[][]): Promise<Float32Array[]>
}

type TokenizerConstructor = new (tokenizerJson: object, tokenizerConfig: object) => PreTrainedTokenizer

/** The tokenizer class transformers.js's AutoTokenizer would pick from `tokenizer_class`. */
async function tokenizerFor(tokenizerJson: object, tokenizerConfig: { tokenizer_class?: string }): Promise<PreTrainedTokenizer> {
  const transformers = (await import('@huggingface/transformers')) as unknown as Record<string, unknown>
  const name = tokenizerConfig.tokenizer_class?.replace(/Fast$/, '')
  const named = name ? transformers[name] : undefined
  const TokenizerClass = (typeof named === 'function' ? named : transformers.PreTrainedTokenizer) as TokenizerConstructor
  return new TokenizerClass(tokenizerJson, tokenizerConfig)
}

function int64Matrix(rows: number[][], width: number, value: (row: number[], i: number) => number) {
  const data = new BigInt64Array(rows.length * width)
  rows.forEach((row, r) => {
    for (let i = 0; i < width; i++) data[r * width + i] = BigInt(value(row, i))
  })
  return { type: 'int64' as const, data, dims: [rows.length, width] }
}

export async function loadNeuralModel(
  ort: typeof Ort,
  check: NeuralCheck,
  files: NeuralModelFiles,
  device: BrowserDevice,
  signal: AbortSignal,
  onProgress: ProgressListener,
): Promise<BrowserNeuralModel> {
  const entry = MODEL_MANIFEST[check]
  const [config, tokenizerJson, tokenizerConfig, graph] = await Promise.all([
    fetchModelJson<{ id2label?: Record<string, string> }>(files.config, signal, onProgress),
    fetchModelJson<object>(files.tokenizer, signal, onProgress),
    fetchModelJson<{ tokenizer_class?: string }>(files.tokenizerConfig, signal, onProgress),
    fetchModelFile(files.graph, signal, onProgress),
  ])
  signal.throwIfAborted()
  const tokenizer = await tokenizerFor(tokenizerJson, tokenizerConfig)
  const session = await createGraphSession(ort, graph, device)
  const id2label = Object.fromEntries(Object.entries(config.id2label ?? {}).map(([k, v]) => [Number(k), v]))
  const padId = tokenizer.pad_token_id ?? 0
  return {
    entry,
    tokenizer,
    id2label,
    session,
    async forward(sequences) {
      if (sequences.length === 0) return []
      const width = Math.max(...sequences.map((s) => s.length))
      const feeds = {
        input_ids: int64Matrix(sequences, width, (row, i) => (i < row.length ? row[i] : padId)),
        attention_mask: int64Matrix(sequences, width, (row, i) => (i < row.length ? 1 : 0)),
        // As on the server: one segment, so zeros, for graphs that declare the input.
        ...(session.inputNames.includes('token_type_ids') ? { token_type_ids: int64Matrix(sequences, width, () => 0) } : {}),
      }
      const output = (await session.run(feeds))[entry.output]
      if (!output) throw new Error(`${entry.id}: the graph has no output "${entry.output}"`)
      const [batch] = output.dims
      if (entry.output === 'logits') {
        const labels = output.dims[1]
        return Array.from({ length: batch }, (_, b) => output.data.slice(b * labels, (b + 1) * labels))
      }
      const [, length, hidden] = output.dims
      return Array.from({ length: batch }, (_, b) => output.data.slice(b * length * hidden, b * length * hidden + hidden))
    },
  }
}

/** The seven metrics in the manifest's order; long texts scored per token window and averaged. */
export async function neuralToxicity(model: BrowserNeuralModel, text: string): Promise<number[]> {
  const { metrics, windowTokens } = postProcessing(model, 'windowedSigmoid')
  const ids = model.tokenizer.encode(text, { add_special_tokens: false })
  const texts = ids.length > windowTokens ? tokenWindows(ids, windowTokens).map((w) => model.tokenizer.decode(w)) : [text]
  const rows = await model.forward(texts.map((t) => encodeForModel(model.tokenizer, t, null, model.entry.maxLength)))
  const mean = meanRows(rows.map((row) => Array.from(row, sigmoid)))
  return metrics.map((name) => mean[labelIndex(model, name)])
}

/** Softmax classification: the top label and its probability. */
export async function neuralClassify(model: BrowserNeuralModel, text: string): Promise<{ label: string; score: number }> {
  const { textCleanup } = postProcessing(model, 'softmax')
  const input = textCleanup === 'codenlbert' ? cleanForCodeDetection(text) : text
  const [logits] = await model.forward([encodeForModel(model.tokenizer, input, null, model.entry.maxLength)])
  const probabilities = softmax(logits)
  const top = argmax(probabilities)
  return { label: model.id2label[top], score: probabilities[top] }
}

/** Multi-label zero-shot: one independent score per label, in the labels' order. */
export async function neuralZeroShot(model: BrowserNeuralModel, text: string, labels: string[]): Promise<number[]> {
  const { hypothesisTemplate } = postProcessing(model, 'zeroShotEntailment')
  const indexes = entailmentIndexes(model.id2label)
  const pairs = labels.map((label) => encodeForModel(model.tokenizer, text, hypothesisTemplate.replace('{}', label), model.entry.maxLength))
  return (await model.forward(pairs)).map((row) => entailmentScore(row, indexes))
}

/** Raw CLS embeddings, one per text. */
export async function neuralEmbed(model: BrowserNeuralModel, texts: string[]): Promise<number[][]> {
  postProcessing(model, 'clsPooling')
  const rows = await model.forward(texts.map((t) => encodeForModel(model.tokenizer, t, null, model.entry.maxLength)))
  return rows.map((row) => Array.from(row))
}
