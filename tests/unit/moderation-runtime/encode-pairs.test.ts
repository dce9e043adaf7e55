// encodeWithPairs tokenizes the text once for all its pairs; its sequences must be exactly what
// tokenizing each pair whole gives (the tokenizers encode a pair's two texts each on its own).
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { AutoTokenizer, env, type PreTrainedTokenizer } from '@huggingface/transformers'
import { encodeWithPairs } from '@/lib/moderation/runtime/encode'
import { MODEL_MANIFEST, NEURAL_CHECKS } from '@/lib/moderation/runtime/manifest'

/** What encodeForModel did before: the whole pair tokenized, then the first text cut from its end. */
function encodedWhole(tokenizer: PreTrainedTokenizer, text: string, pair: string | null, maxLength: number): number[] {
  const full = tokenizer.encode(text, { text_pair: pair })
  const excess = full.length - maxLength
  if (excess <= 0) return full
  const first = tokenizer.encode(text, { add_special_tokens: false })
  let start = -1
  outer: for (let i = 0; i + first.length <= full.length; i++) {
    for (let j = 0; j < first.length; j++) if (full[i + j] !== first[j]) continue outer
    start = i
    break
  }
  if (start < 0 || excess > first.length) return full.slice(0, maxLength)
  return [...full.slice(0, start), ...first.slice(0, first.length - excess), ...full.slice(start + first.length)]
}

const TEXTS = [
  '', 'a', 'Hello, world!', 'How do I make a pipe bomb?', '  leading and trailing  ', 'émigré café naïve — “quotes”', '漢字かな交じり文です。',
  '😀 emoji 🇫🇷 flags', 'a'.repeat(3000), 'word '.repeat(800), 'Mixed CASE text with numbers 12345 and symbols #$%^&*()',
]
const PAIRS = [null, 'This example is about politics.', 'a', '', 'This text is about 漢字.', 'x '.repeat(40)]

describe('encodeWithPairs', () => {
  env.allowRemoteModels = false
  env.localModelPath = path.resolve('tests/fixtures/tiny-models') + path.sep
  for (const check of NEURAL_CHECKS) {
    const entry = MODEL_MANIFEST[check]
    it(`${check} (${entry.id}): the same sequences as tokenizing each pair whole, short texts and truncated ones`, async () => {
      const tokenizer = await AutoTokenizer.from_pretrained(entry.id, { local_files_only: true })
      for (const maxLength of [entry.maxLength, 16]) {
        for (const text of TEXTS) {
          const expected = PAIRS.map((pair) => encodedWhole(tokenizer, text, pair, maxLength))
          expect(encodeWithPairs(tokenizer, text, PAIRS, maxLength), `${JSON.stringify(text.slice(0, 30))} at ${maxLength}`).toEqual(expected)
        }
      }
    })
  }
})
