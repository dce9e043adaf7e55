/**
 * CMU Sphinx's general US English language model (Debian `pocketsphinx-en-us`, BSD-2): 72,547 words and 2,051,547
 * bigrams with their conditional probabilities, estimated by CMU from a large body of general English. The gibberish
 * engine's own language models learn from about two million words of fortunes, definitions and READMEs, too few to
 * have seen the word pairs of everyday sentences ("keeps freezing", "too many", "water the"), so plain sentences read
 * as word salad to them; this model's pairs are what they lack (TUNING-issue18 runs 140 and up).
 *
 * The package ships the model in sphinxbase's binary trie format, read here directly:
 *   "Trie Language Model", the order (uint8), the n-gram counts (uint32 each), a uint32 left unused, the quantisation
 *   tables (per middle order 65,536 probability and 65,536 back-off float centres, then 65,536 for the highest order),
 *   the unigrams ({float prob, float backoff, uint32 first child} x (count + 1)), the bit-packed middle and highest
 *   orders (per entry: word id, then 16 bits of back-off code and 16 of probability code, then the child pointer; every
 *   field little-endian at a bit offset), and the vocabulary as NUL-terminated strings after an int32 length.
 * Probabilities are stored in sphinxbase's log base 1.0001; they are returned here as log10. The trie is stored from
 * the last word back: the children of unigram `b` are the words `a` of the bigrams "a b".
 */
import fs from 'node:fs'

export type SphinxLanguageModel = {
  /** log10 P(word) of every word of the vocabulary. */
  unigrams: Map<string, number>
  /** log10 P(b | a) by "a b"; the text's edges are the words `<s>` and `</s>`. */
  bigrams: Map<string, number>
}

const HEADER = 'Trie Language Model'
const QUANT_BINS = 65536
const LOG10_OF_BASE = Math.log10(1.0001)

/** Bits needed to write numbers up to `max` (sphinxbase's bitarr_required_bits). */
const requiredBits = (max: number) => (max > 0 ? Math.floor(Math.log2(max)) + 1 : 0)

export function readSphinxLanguageModel(file: string): SphinxLanguageModel {
  const bytes = fs.readFileSync(file)
  if (bytes.toString('latin1', 0, HEADER.length) !== HEADER) throw new Error(`${file}: not a sphinxbase trie language model`)
  let at = HEADER.length
  const order = bytes[at++]
  if (order < 2) throw new Error(`${file}: a language model of order ${order} has no bigrams`)
  const counts = Array.from({ length: order }, (_, i) => bytes.readUInt32LE(at + 4 * i))
  at += 4 * order + 4
  const quantisation = at
  at += ((order - 2) * 2 + 1) * QUANT_BINS * 4
  const unigramsAt = at
  at += 12 * (counts[0] + 1)
  const wordBits = requiredBits(counts[0])
  const middleBits = wordBits + 32 + requiredBits(order > 2 ? counts[2] : 0)
  const middleAt = at
  // Each packed array has one entry more (the end pointer) and 8 bytes of padding.
  const packedSize = (entries: number, bits: number) => Math.floor(((entries + 1) * bits + 7) / 8) + 8
  for (let n = 2; n < order; n++) at += packedSize(counts[n - 1], wordBits + 32 + requiredBits(counts[n]))
  at += packedSize(counts[order - 1], wordBits + 16)
  const vocabularyLength = bytes.readInt32LE(at)
  const words = bytes.toString('latin1', at + 4, at + 4 + vocabularyLength).split('\0').slice(0, counts[0])
  if (words.length !== counts[0] || at + 4 + vocabularyLength !== bytes.length) throw new Error(`${file}: unexpected layout`)

  const field = (bitOffset: number, length: number) => Number((bytes.readBigUInt64LE(middleAt + Math.floor(bitOffset / 8)) >> BigInt(bitOffset % 8)) & ((1n << BigInt(length)) - 1n))
  const unigrams = new Map<string, number>()
  const bigrams = new Map<string, number>()
  for (let b = 0; b < counts[0]; b++) {
    unigrams.set(words[b], bytes.readFloatLE(unigramsAt + 12 * b) * LOG10_OF_BASE)
    const first = bytes.readUInt32LE(unigramsAt + 12 * b + 8)
    const end = bytes.readUInt32LE(unigramsAt + 12 * (b + 1) + 8)
    for (let entry = first; entry < end; entry++) {
      const offset = entry * middleBits
      const a = words[field(offset, wordBits)]
      const probabilityCode = field(offset + wordBits + 16, 16)
      bigrams.set(`${a} ${words[b]}`, bytes.readFloatLE(quantisation + 4 * probabilityCode) * LOG10_OF_BASE)
    }
  }
  return { unigrams, bigrams }
}
