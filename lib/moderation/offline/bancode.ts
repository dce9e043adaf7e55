import { hashBucket } from './hashing'
import { SparseFeatures, type GraphRunner } from './graph-io'

/**
 * Code-vs-prose classifier: hashed character 1-4-grams, whitespace tokens and 2-5-grams of
 * character shapes, logistic regression in `bancode.onnx` (output `probability` of code). Case
 * is kept: camelCase and `;{}` are the signal. Shapes map every letter to `a`/`A` and digit to
 * `0`, so prose in scripts the training prose lacks (Cyrillic, Devanagari, CJK) still looks
 * like words separated by spaces and punctuation.
 */
export const BANCODE_GRAPH = 'bancode.onnx'
export const BANCODE_HASH_BITS = 17
/** Longer texts are judged on their beginning; enough to see whether they are code. */
export const BANCODE_MAX_CHARS = 2000
/** P(code) at or above which the answer is CODE. */
export const BANCODE_THRESHOLD = 0.5

export function bancodeFeatures(text: string): SparseFeatures {
  const features = new SparseFeatures()
  const counts = new Map<string, number>()
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1)
  const padded = ` ${text.slice(0, BANCODE_MAX_CHARS).replace(/\s+/g, ' ').trim()} `
  for (let n = 1; n <= 4; n++) for (let i = 0; i + n <= padded.length; i++) count(`c${n}:${padded.slice(i, i + n)}`)
  for (const token of padded.trim().split(' ')) if (token) count(`w:${token}`)
  const shapes = characterShapes(padded)
  for (let n = 2; n <= 5; n++) for (let i = 0; i + n <= shapes.length; i++) count(`s${n}:${shapes.slice(i, i + n)}`)
  for (const [key, value] of counts) features.add(hashBucket(key, BANCODE_HASH_BITS), Math.log1p(value))
  return features.normalize()
}

function characterShapes(text: string): string {
  return text.replace(/\p{Lu}/gu, 'A').replace(/\p{L}|\p{M}/gu, 'a').replace(/\p{N}/gu, '0')
}

export type BanCodeAnswer = { label: 'CODE' | 'NL'; score: number }

/** The label and the probability of that label. */
export function bancodeAnswer(probabilityOfCode: number): BanCodeAnswer {
  return probabilityOfCode >= BANCODE_THRESHOLD
    ? { label: 'CODE', score: probabilityOfCode }
    : { label: 'NL', score: 1 - probabilityOfCode }
}

export async function classifyCode(run: GraphRunner, text: string): Promise<{ answer: BanCodeAnswer; probabilityOfCode: number }> {
  const outputs = await run(BANCODE_GRAPH, bancodeFeatures(text).toFeeds())
  const probabilityOfCode = outputs.probability[0]
  return { answer: bancodeAnswer(probabilityOfCode), probabilityOfCode }
}
