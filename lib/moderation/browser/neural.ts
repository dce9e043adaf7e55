/**
 * The neural models in the browser: the manifest's models (MODEL_MANIFEST) from the hub's model
 * repos (their /resolve/ URLs, see catalog.ts), tokenised by transformers.js's tokenizer classes and run by onnxruntime-web. Each
 * check's steps are the server's own (lib/moderation/runtime/neural-steps), over this model.
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers'
import type * as Ort from 'onnxruntime-web'
import { MODEL_MANIFEST, type NeuralCheck } from '@/lib/moderation/runtime/manifest'
import { outputRows, paddedBatch, type NeuralModel } from '@/lib/moderation/runtime/neural-steps'
import type { NeuralModelFiles } from './catalog'
import { fetchModelFile, fetchModelJson, type ProgressListener } from './model-files'
import { createGraphSession, type BrowserDevice, type GraphSession } from './onnx'

/** `engine`: what answers name it, as the server does: `neural:<repo>@<revision>`. */
export type BrowserNeuralModel = NeuralModel & { session: GraphSession; engine: string }

type TokenizerConstructor = new (tokenizerJson: object, tokenizerConfig: object) => PreTrainedTokenizer

/** The tokenizer class transformers.js's AutoTokenizer would pick from `tokenizer_class`. */
async function tokenizerFor(tokenizerJson: object, tokenizerConfig: { tokenizer_class?: string }): Promise<PreTrainedTokenizer> {
  const transformers = (await import('@huggingface/transformers')) as unknown as Record<string, unknown>
  const name = tokenizerConfig.tokenizer_class?.replace(/Fast$/, '')
  const named = name ? transformers[name] : undefined
  const TokenizerClass = (typeof named === 'function' ? named : transformers.PreTrainedTokenizer) as TokenizerConstructor
  return new TokenizerClass(tokenizerJson, tokenizerConfig)
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
    engine: `neural:${files.id}@${files.revision}`,
    tokenizer,
    id2label,
    session,
    async forward(sequences) {
      if (sequences.length === 0) return []
      const { width, inputIds, attentionMask } = paddedBatch(sequences, padId)
      const dims = [sequences.length, width]
      const feeds = {
        input_ids: { type: 'int64' as const, data: inputIds, dims },
        attention_mask: { type: 'int64' as const, data: attentionMask, dims },
        // As on the server: one segment, so zeros, for graphs that declare the input.
        ...(session.inputNames.includes('token_type_ids') ? { token_type_ids: { type: 'int64' as const, data: new BigInt64Array(inputIds.length), dims } } : {}),
      }
      const output = (await session.run(feeds))[entry.output]
      if (!output) throw new Error(`${entry.id}: the graph has no output "${entry.output}"`)
      return outputRows(entry, output.data, output.dims)
    },
  }
}
