import { BANCODE_GRAPH, BANCODE_HASH_BITS, BANCODE_MAX_CHARS, BANCODE_THRESHOLD, bancodeFeatures } from '@/lib/moderation/offline/bancode'
import { contactProse } from './contact-prose'
import { codeChunks, codeFiles, readmeCodeBlocks, proseChunks, sentences } from './corpora'
import { sparseLogisticGraph } from './graphs'
import { log, writeModel } from './output'
import { seededRandom, shuffle } from './random'
import { trainSparseLogistic, type SparseRow } from './sparse-logistic'

export async function trainBancode(): Promise<void> {
  log('bancode: collecting code and prose')
  const files = codeFiles()
  const code = [...codeChunks(files, 6, 11), ...readmeCodeBlocks().map((text) => ({ text, language: 'readme' }))]
  const plainProse = proseChunks(code.length, 12)
  // One prose text in six carries phone numbers, e-mail addresses, card numbers, prices or dates.
  const prose = [...plainProse, ...contactProse(plainProse.flatMap(sentences), Math.round(plainProse.length / 5), 15)]
  const byLanguage: Record<string, number> = {}
  for (const c of code) byLanguage[c.language] = (byLanguage[c.language] ?? 0) + 1
  log(`  ${files.length} code files -> ${code.length} chunks ${JSON.stringify(byLanguage)}; ${prose.length} prose chunks`)
  const rows: SparseRow[] = shuffle(
    [
      ...code.map((c): SparseRow => ({ features: bancodeFeatures(c.text).entries(), label: 1 })),
      ...prose.map((text): SparseRow => ({ features: bancodeFeatures(text).entries(), label: 0 })),
    ],
    seededRandom(13),
  )
  log(`bancode: training logistic regression on ${rows.length} chunks`)
  const weights = trainSparseLogistic(rows, { dimensions: 2 ** BANCODE_HASH_BITS, epochs: 6, learningRate: 0.3, l2: 1e-6, seed: 14, log })
  const metadata = {
    check: 'bancode',
    engine: 'offline:bancode-ngram-lr',
    graph: BANCODE_GRAPH,
    features: `hashed (FNV-1a, ${BANCODE_HASH_BITS} bits) character 1-4-grams, whitespace tokens and character-shape 2-5-grams, log(1+count), L2-normalised`,
    maxChars: BANCODE_MAX_CHARS,
    hashBits: BANCODE_HASH_BITS,
    threshold: BANCODE_THRESHOLD,
    training: { codeChunks: code.length, proseChunks: prose.length, codeByLanguage: byLanguage, codeFiles: files.length },
  }
  writeModel(BANCODE_GRAPH, sparseLogisticGraph('bancode', weights, { check: 'bancode' }), metadata)
}
