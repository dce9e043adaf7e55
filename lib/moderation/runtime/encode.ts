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
  return encodeWithPairs(tokenizer, text, [pair], maxLength)[0]!
}

/** A text whose tokens mark where the first text goes in a sequence's template of special tokens. */
const PLACEHOLDER = 'a'

/**
 * encodeForModel of `text` with each of `pairs`, the text tokenized once. A tokenizer encodes the two
 * texts of a pair each on its own and then adds the special tokens around them (its post-processor),
 * so the text's tokens are the same in every pair: each pair's sequence is the template around a
 * placeholder, with the text's tokens in its place. Zero-shot classification pairs one text with a
 * hypothesis per label; tokenizing 50,000 characters twice per label took 11 s for 64 labels.
 */
export function encodeWithPairs(tokenizer: PreTrainedTokenizer, text: string, pairs: (string | null)[], maxLength: number): number[][] {
  const first = tokenizer.encode(text, { add_special_tokens: false })
  const placeholder = tokenizer.encode(PLACEHOLDER, { add_special_tokens: false })
  return pairs.map((pair) => {
    const template = tokenizer.encode(PLACEHOLDER, { text_pair: pair })
    const at = indexOfRun(template, placeholder)
    const [before, after] = at < 0 ? [[], []] : [template.slice(0, at), template.slice(at + placeholder.length)]
    const full = at < 0 ? tokenizer.encode(text, { text_pair: pair }) : [...before, ...first, ...after]
    const excess = full.length - maxLength
    if (excess <= 0) return full
    if (at < 0 || excess > first.length) return full.slice(0, maxLength)
    return [...before, ...first.slice(0, first.length - excess), ...after]
  })
}

function indexOfRun(haystack: number[], needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}
