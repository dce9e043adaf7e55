/**
 * Token encoding shared by the server runtime (./models, onnxruntime-node) and the browser
 * (lib/moderation/browser/neural, onnxruntime-web). Browser-safe: no node: modules, and only a
 * type import from transformers.js, so importing this pulls in no runtime.
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers'

/**
 * Builds `[specials] A [specials] (B [specials])` capped at `maxLength` tokens the way the
 * Python tokenizers truncate ("only_first" / longest-first for one text): only the first text
 * loses tokens, from its end, and the special tokens and the second text stay. (transformers.js's
 * own truncation cuts the joined sequence, which would drop the final separator and, for pairs,
 * the hypothesis.)
 */
export function encodeForModel(tokenizer: PreTrainedTokenizer, text: string, pair: string | null, maxLength: number): number[] {
  const full = tokenizer.encode(text, { text_pair: pair })
  const excess = full.length - maxLength
  if (excess <= 0) return full
  const first = tokenizer.encode(text, { add_special_tokens: false })
  const start = indexOfRun(full, first)
  if (start < 0 || excess > first.length) return full.slice(0, maxLength)
  return [...full.slice(0, start), ...first.slice(0, first.length - excess), ...full.slice(start + first.length)]
}

function indexOfRun(haystack: number[], needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}
