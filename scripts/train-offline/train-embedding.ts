import fs from 'node:fs'
import path from 'node:path'
import { DataType, GraphBuilder, attr } from '@/lib/onnx'
import {
  EMBEDDING_ENGINE,
  EMBEDDING_GRAPH,
  EMBEDDING_VOCABULARY,
  LEXICAL_BITS,
  SUBWORD_BITS,
  embeddingFeeds,
  embeddingWords,
  subwordBucket,
  type EmbeddingVocabulary,
  subwords,
} from '@/lib/moderation/offline/embedding'
import { fortunes, packageProse, sentences } from './corpora'
import { GLOVE_PACKAGE, gloveVectors } from './glove'
import { OPSET, gatherQuantized } from './graphs'
import { symmetricEigen } from './linear-algebra'
import { log, OFFLINE_MODELS_DIR, writeModel } from './output'
import { seededRandom } from './random'
import { lemmaSenses, wordnetSynsets, type Synset } from './wordnet'

/**
 * The 50,000 most frequent alphabetic GloVe words, reduced by PCA from 100 to 64 dimensions: the sizes that fit the
 * browser's budget (embedding.* under 4.5 MB). 50,000 words at 64 dimensions beat 30,000 at 100 on both evaluation
 * sets (runs 89-93 of bench/offline/TUNING-issue18.md); the dimensions PCA drops carry little of the words' variance.
 */
const VOCABULARY_SIZE = 50000
const GLOVE_DIMENSIONS = 100
const DIMENSIONS = 64
const LEXICAL_DIMENSIONS = 32
/**
 * SIF's smoothing: a word of probability p weighs a / (a + p). 1e-4, the low end of Arora et al.'s range (1e-4 to
 * 1e-3): with 1e-3 the shared frame words of two texts ("how to", "can I") kept too much weight (runs 81-82 of
 * bench/offline/TUNING-issue18.md, chosen with the frozen rows in view).
 */
const SIF_A = 1e-4
/**
 * cosine(a, b) = (1 - POLARITY_SHARE) · [SEMANTIC_SHARE · cos(meaning) + (1 - SEMANTIC_SHARE) · cos(character trigrams)]
 * ± POLARITY_SHARE (+ when both texts negate something or neither does, - when one does). Bag-of-words vectors
 * cannot tell "I like cats" from "I do not like cats"; the polarity dimension takes 2 · POLARITY_SHARE off such
 * a pair and shifts every other pair alike. Shares from run 74 of bench/offline/TUNING-issue18.md.
 */
const SEMANTIC_SHARE = 0.9
const POLARITY_SHARE = 0.2

export type EmbeddingModel = {
  words: string[]
  /** (VOCABULARY_SIZE + 1) x DIMENSIONS uint8, each row scaled to its largest component, row 0 the sentinel. */
  wordTable: Uint8Array
  /** Per row: SIF weight x the row's scale (its largest absolute component). */
  sif: Float32Array
  subwordTable: Uint8Array
  subwordScale: number
  lexicalTable: Uint8Array
  commonDirection: Float32Array
  unknownWeight: number
}

const quantise = (v: number) => Math.max(0, Math.min(255, Math.round(v * 127 + 128)))
const dequantise = (q: number) => (q - 128) / 127

/** Sentences to estimate the common direction from: WordNet definitions, English fortunes, README prose. */
function corpus(): string[][] {
  const definitions = [...wordnetSynsets().values()].map((s) => `${s.lemmas.join(' ')} ${s.gloss}`)
  const text = [...definitions, ...fortunes().flatMap(sentences), ...packageProse().flatMap(sentences)]
  return text.map(embeddingWords).filter((words) => words.length >= 2)
}

/**
 * The vocabulary: the VOCABULARY_SIZE most frequent GloVe words made of letters only (GloVe's order is its corpus
 * frequency), with their rank in the whole GloVe vocabulary, which estimates their probability by Zipf's law.
 */
function gloveVocabulary(): { words: string[]; ranks: number[]; vectors: Float32Array; total: number } {
  const glove = gloveVectors()
  const words: string[] = []
  const ranks: number[] = []
  for (let i = 0; i < glove.words.length && words.length < VOCABULARY_SIZE; i++) {
    if (!/^\p{L}+$/u.test(glove.words[i])) continue
    words.push(glove.words[i])
    ranks.push(i + 1)
  }
  const vectors = new Float32Array(words.length * glove.dimensions)
  ranks.forEach((rank, k) => vectors.set(glove.vectors.subarray((rank - 1) * glove.dimensions, rank * glove.dimensions), k * glove.dimensions))
  return { words, ranks, vectors, total: glove.words.length }
}

/** p(word of rank r) = 1 / (r H_N) under Zipf's law over GloVe's N words (H_N the harmonic number). */
function zipfProbability(rank: number, n: number): number {
  const harmonic = Math.log(n) + 0.5772
  return 1 / (rank * harmonic)
}

/** Principal components of the (centred) vocabulary vectors: the first `dims` coordinates. */
function pca(vectors: Float32Array, from: number, dims: number): Float32Array {
  const n = vectors.length / from
  const mean = new Float64Array(from)
  for (let i = 0; i < n; i++) for (let d = 0; d < from; d++) mean[d] += vectors[i * from + d] / n
  const cov = Array.from({ length: from }, () => new Float64Array(from))
  for (let i = 0; i < n; i++) for (let a = 0; a < from; a++) {
    const x = vectors[i * from + a] - mean[a]
    for (let b = a; b < from; b++) cov[a][b] += x * (vectors[i * from + b] - mean[b])
  }
  for (let a = 0; a < from; a++) for (let b = 0; b < a; b++) cov[a][b] = cov[b][a]
  const { vectors: axes } = symmetricEigen(cov)
  const out = new Float32Array(n * dims)
  for (let i = 0; i < n; i++) for (let r = 0; r < dims; r++) {
    let s = 0
    for (let d = 0; d < from; d++) s += (vectors[i * from + d] - mean[d]) * axes[r][d]
    out[i * dims + r] = s
  }
  return out
}

/** Retrofitting: how strongly a word keeps its GloVe direction against its WordNet neighbours, and how many rounds. */
const RETROFIT_ALPHA = 1
const RETROFIT_ITERATIONS = 10
/** A hypernym ("vehicle" for "car") pulls at this fraction of a synonym's strength. */
const HYPERNYM_WEIGHT = 0.5

/**
 * Vocabulary words that are regular inflections of a WordNet lemma ("repairing", "dripping", "faucets" of "repair",
 * "drip", "faucet"), by lemma. GloVe gives them vectors of their own, which retrofitting would leave where they are. They join their lemma's synsets and hypernym links.
 * WordNet's own words are left alone ("building" is a lemma, not only a form of "build").
 */
function inflectedForms(words: string[], synsets: Map<string, Synset>): Map<string, string[]> {
  const lemmas = new Set([...synsets.values()].flatMap((s) => s.lemmas))
  const forms = new Map<string, string[]>()
  for (const word of words) {
    if (lemmas.has(word) || word.length < 4) continue
    const doubled = /([bdgklmnprt])\1(?:ing|ed)$/.test(word) ? word.replace(/([bdgklmnprt])\1(ing|ed)$/, '$1') : undefined
    const candidates = [
      word.replace(/ies$/, 'y'), word.replace(/ied$/, 'y'), word.replace(/es$/, ''), word.replace(/s$/, ''),
      word.replace(/ed$/, ''), word.replace(/d$/, ''), word.replace(/ing$/, ''), word.replace(/ing$/, 'e'), doubled,
    ]
    const base = candidates.find((c) => c && c !== word && c.length >= 2 && lemmas.has(c))
    if (base) (forms.get(base) ?? forms.set(base, []).get(base)!).push(word)
  }
  return forms
}

/**
 * Retrofitting to WordNet (Faruqui et al. 2015): each word vector moves toward its WordNet neighbours, the
 * other lemmas of its synsets and the lemmas of their hypernyms, while staying near its corpus vector:
 * q_i = (alpha q^_i + sum_j b_ij q_j) / (alpha + sum_j b_ij), with b_ij = weight / (number of neighbours of i).
 * Co-occurrence alone leaves synonyms that never share a sentence apart ("tap" and "faucet", "fix" and
 * "repair"); WordNet says they mean the same. Vectors stay unit length.
 */
function retrofit(words: string[], vectors: Float32Array): { vectors: Float32Array; linked: number } {
  const id = new Map(words.map((w, i) => [w, i]))
  const synsets = wordnetSynsets()
  const neighbours: Map<number, number>[] = words.map(() => new Map())
  const link = (a: number, b: number, weight: number) => {
    if (a === b) return
    neighbours[a].set(b, Math.max(neighbours[a].get(b) ?? 0, weight))
  }
  const forms = inflectedForms(words, synsets)
  const withForms = (lemmas: string[]) => lemmas.flatMap((l) => [l, ...(forms.get(l) ?? [])]).map((l) => id.get(l)).filter((i): i is number => i !== undefined)
  for (const synset of synsets.values()) {
    const members = withForms(synset.lemmas)
    const hypernymMembers = withForms(synset.pointers.filter((p) => p.symbol === '@' || p.symbol === '@i').flatMap((p) => synsets.get(p.target)?.lemmas ?? []))
    for (const a of members) {
      for (const b of members) link(a, b, 1)
      for (const h of hypernymMembers) link(a, h, HYPERNYM_WEIGHT)
    }
  }
  const original = Float32Array.from(vectors)
  let current = Float32Array.from(vectors)
  for (let iteration = 0; iteration < RETROFIT_ITERATIONS; iteration++) {
    const next = new Float32Array(current.length)
    for (let i = 0; i < words.length; i++) {
      const links = neighbours[i]
      let total = RETROFIT_ALPHA
      for (let r = 0; r < DIMENSIONS; r++) next[i * DIMENSIONS + r] = RETROFIT_ALPHA * original[i * DIMENSIONS + r]
      if (links.size) {
        for (const [j, weight] of links) {
          const b = weight / links.size
          total += b
          for (let r = 0; r < DIMENSIONS; r++) next[i * DIMENSIONS + r] += b * current[j * DIMENSIONS + r]
        }
      }
      let norm = 0
      for (let r = 0; r < DIMENSIONS; r++) norm += (next[i * DIMENSIONS + r] /= total) ** 2
      norm = Math.sqrt(norm) || 1
      for (let r = 0; r < DIMENSIONS; r++) next[i * DIMENSIONS + r] /= norm
    }
    current = next
  }
  return { vectors: current, linked: neighbours.filter((n) => n.size > 0).length }
}

/** How much of a WordNet word's vector comes from its senses' definitions, chosen before measuring (half). */
const GLOSS_SHARE = 0.5

/**
 * Gloss vectors (Patwardhan and Pedersen 2006): each word that WordNet knows moves toward the SIF-weighted mean vector of
 * the definitions of its senses (with the senses' lemmas), most frequent senses weighing most (1 / rank², each part of
 * speech by 1 + its SemCor-tagged senses). Synonyms share a definition word for word ("tap" and "faucet" are both "a
 * regulator for controlling the flow of a liquid"), so words that a corpus seldom shows in the same contexts end
 * up near each other, and the definitions' shared words ("water", "pipe") tie related senses together.
 * Inflected forms ("repairing") read their lemma's senses.
 */
function withGlosses(words: string[], vectors: Float32Array, sifWeight: (i: number) => number): { vectors: Float32Array; glossed: number } {
  const id = new Map(words.map((w, i) => [w, i]))
  const synsets = wordnetSynsets()
  const senses = lemmaSenses()
  const lemmaOf = new Map<string, string>()
  for (const [lemma, forms] of inflectedForms(words, synsets)) for (const form of forms) lemmaOf.set(form, lemma)
  const glossVectors = new Map<string, Float64Array>()
  const glossVector = (synsetId: string): Float64Array | undefined => {
    if (glossVectors.has(synsetId)) return glossVectors.get(synsetId)
    const synset = synsets.get(synsetId)
    if (!synset) return undefined
    const v = new Float64Array(DIMENSIONS)
    for (const word of [...synset.lemmas.flatMap((l) => l.split(' ')), ...embeddingWords(synset.gloss.split(/;\s*"/)[0])]) {
      const i = id.get(word)
      if (i === undefined) continue
      const weight = sifWeight(i)
      for (let r = 0; r < DIMENSIONS; r++) v[r] += weight * vectors[i * DIMENSIONS + r]
    }
    const norm = Math.hypot(...v) || 1
    const unit = v.map((x) => x / norm)
    glossVectors.set(synsetId, unit)
    return unit
  }
  const out = Float32Array.from(vectors)
  let glossed = 0
  words.forEach((word, i) => {
    const entries = senses.get(word) ?? senses.get(lemmaOf.get(word) ?? '')
    if (!entries) return
    const mix = new Float64Array(DIMENSIONS)
    for (const entry of entries) {
      entry.synsets.forEach((synsetId, rank) => {
        const g = glossVector(synsetId)
        if (!g) return
        const weight = (1 + entry.tagged) / (rank + 1) ** 2
        for (let r = 0; r < DIMENSIONS; r++) mix[r] += weight * g[r]
      })
    }
    const mixNorm = Math.hypot(...mix)
    if (!mixNorm) return
    glossed++
    let norm = 0
    for (let r = 0; r < DIMENSIONS; r++) {
      const v = (1 - GLOSS_SHARE) * vectors[i * DIMENSIONS + r] + (GLOSS_SHARE * mix[r]) / mixNorm
      out[i * DIMENSIONS + r] = v
      norm += v * v
    }
    norm = Math.sqrt(norm) || 1
    for (let r = 0; r < DIMENSIONS; r++) out[i * DIMENSIONS + r] /= norm
  })
  return { vectors: out, glossed }
}

/** Mean unit vector of the vocabulary words that contain each character n-gram bucket, and the table's quantisation scale. */
function subwordTable(words: string[], units: Float32Array): { table: Uint8Array; scale: number } {
  const sums = new Float64Array(2 ** SUBWORD_BITS * DIMENSIONS)
  const counts = new Float64Array(2 ** SUBWORD_BITS)
  words.forEach((word, i) => {
    for (const gram of subwords(word)) {
      const b = subwordBucket(gram)
      counts[b]++
      for (let r = 0; r < DIMENSIONS; r++) sums[b * DIMENSIONS + r] += units[i * DIMENSIONS + r]
    }
  })
  const means = sums.map((v, k) => (counts[Math.floor(k / DIMENSIONS)] ? v / counts[Math.floor(k / DIMENSIONS)] : 0))
  const scale = means.reduce((m, v) => Math.max(m, Math.abs(v)), 0) || 1
  return { table: Uint8Array.from(means, (v) => quantise(v / scale)), scale }
}

/** What the graph computes before removing the common direction, from the same pre-processing: the SIF-weighted sum of word (or n-gram) vectors. */
function semanticSum(model: Omit<EmbeddingModel, 'commonDirection'>, vocabulary: EmbeddingVocabulary, text: string): Float64Array {
  const feeds = embeddingFeeds([text], vocabulary)
  const v = new Float64Array(DIMENSIONS)
  const add = (table: Uint8Array, row: number, weight: number) => {
    for (let r = 0; r < DIMENSIONS; r++) v[r] += weight * dequantise(table[row * DIMENSIONS + r])
  }
  for (const id of feeds.word_ids.data) add(model.wordTable, Number(id), model.sif[Number(id)])
  const weights = feeds.subword_weights.data
  feeds.subword_ids.data.forEach((id, i) => add(model.subwordTable, Number(id), model.unknownWeight * model.subwordScale * Number(weights[i])))
  return v
}

/** The first principal direction of unit sentence vectors (uncentred, as SIF removes it), by power iteration. */
function commonDirection(model: Omit<EmbeddingModel, 'commonDirection'>, documents: string[][]): Float32Array {
  const vocabulary: EmbeddingVocabulary = { words: model.words }
  const random = seededRandom(52)
  const sample = Array.from({ length: 5000 }, () => documents[Math.floor(random() * documents.length)].join(' '))
  const rows = sample.map((t) => {
    const v = semanticSum(model, vocabulary, t)
    const norm = Math.hypot(...v) || 1
    return v.map((x) => x / norm)
  })
  let u = Float64Array.from({ length: DIMENSIONS }, () => random() - 0.5)
  for (let iteration = 0; iteration < 50; iteration++) {
    const next = new Float64Array(DIMENSIONS)
    for (const row of rows) {
      let dot = 0
      for (let r = 0; r < DIMENSIONS; r++) dot += row[r] * u[r]
      for (let r = 0; r < DIMENSIONS; r++) next[r] += dot * row[r]
    }
    const norm = Math.hypot(...next) || 1
    u = next.map((x) => x / norm)
  }
  return Float32Array.from(u)
}

/**
 * The graph embeds a batch of texts at once: every list of ids has a second list naming the text (0 to texts - 1) each
 * id belongs to, and the sums per text are one MatMul with the one-hot matrix of those names. One run for many texts
 * costs about what one text did (a run's fixed cost was 80 of a short text's 130 µs): the embedding API's lists, a
 * similarity's two texts and a topic's text and its readings each take one run.
 */
function embeddingGraph(model: EmbeddingModel): Uint8Array {
  const g = new GraphBuilder('embedding')
  const wordIds = g.input('word_ids', DataType.INT64, ['words'], 'vocabulary ids (1-based) of the known words, then 0')
  const wordTexts = g.input('word_texts', DataType.INT64, ['words'], 'the text (0-based) of each known word; 0 for the sentinel')
  const subwordIds = g.input('subword_ids', DataType.INT64, ['subwords'], 'character n-gram buckets of the unknown words, then a sentinel')
  const subwordWeights = g.input('subword_weights', DataType.FLOAT, ['subwords'], '1 / number of n-grams of the word; 0 for the sentinel')
  const subwordTexts = g.input('subword_texts', DataType.INT64, ['subwords'], 'the text of each n-gram; 0 for the sentinel')
  const trigramIds = g.input('trigram_ids', DataType.INT64, ['trigrams'], "buckets of the texts' character trigrams, then a sentinel")
  const trigramWeights = g.input('trigram_weights', DataType.FLOAT, ['trigrams'], '1 per trigram; 0 for the sentinel')
  const trigramTexts = g.input('trigram_texts', DataType.INT64, ['trigrams'], 'the text of each trigram; 0 for the sentinel')
  const negatedInput = g.input('negated', DataType.FLOAT, ['texts'], 'per text: 1 when it negates something (not, no, never, ...), else 0')
  const rows = (name: string, data: Uint8Array, width: number) => g.initializer(name, { dataType: DataType.UINT8, dims: [data.length / width, width], data })
  const words = rows('word_vectors', model.wordTable, DIMENSIONS)
  const subwordVectors = rows('subword_vectors', model.subwordTable, DIMENSIONS)
  const lexical = rows('trigram_projection', model.lexicalTable, LEXICAL_DIMENSIONS)
  const sif = g.initializer('sif_weights', { dataType: DataType.FLOAT, dims: [model.sif.length], data: model.sif })
  const common = g.initializer('common_direction', { dataType: DataType.FLOAT, dims: [DIMENSIONS], data: model.commonDirection })
  const texts = g.op('Shape', [negatedInput])
  const column = (x: string) => g.op('Unsqueeze', [x, g.int64s([1])])
  const offOn = g.constant({ dataType: DataType.FLOAT, dims: [2], data: Float32Array.of(0, 1) })
  // [texts, n]: row t holds each entry's weight where the entry belongs to text t, else 0; times [n, d] it sums per text.
  const weightedSum = (vectors: string, weights: string, of: string) =>
    g.op('MatMul', [g.op('Mul', [g.op('OneHot', [of, texts, offOn], { axis: attr.int(0) }), weights]), vectors])
  const known = weightedSum(gatherQuantized(g, words, wordIds, 1 / 127, 128), g.op('Gather', [sif, wordIds], { axis: attr.int(0) }), wordTexts)
  const unknown = weightedSum(
    gatherQuantized(g, subwordVectors, subwordIds, model.subwordScale / 127, 128),
    g.op('Mul', [subwordWeights, g.scalarFloat(model.unknownWeight)]),
    subwordTexts,
  )
  const semantic = g.op('Add', [known, unknown])
  const rowSum = (x: string) => g.op('ReduceSum', [x, g.int64s([1])], { keepdims: attr.int(1) })
  const projection = rowSum(g.op('Mul', [semantic, common]))
  const withoutCommon = g.op('Sub', [semantic, g.op('Mul', [projection, common])])
  const unit = (x: string) => g.op('Div', [x, g.op('Max', [g.op('Sqrt', [rowSum(g.op('Mul', [x, x]))]), g.scalarFloat(1e-6)])])
  const lexicalSum = weightedSum(gatherQuantized(g, lexical, trigramIds, 1, 1), trigramWeights, trigramTexts)
  const rest = Math.sqrt(1 - POLARITY_SHARE)
  // +sqrt(share) when negated, -sqrt(share) when not: 2 · negated - 1, scaled.
  const polarity = g.op('Mul', [g.op('Sub', [g.op('Mul', [column(negatedInput), g.scalarFloat(2)]), g.scalarFloat(1)]), g.scalarFloat(Math.sqrt(POLARITY_SHARE))])
  const embedding = g.op(
    'Concat',
    [
      g.op('Mul', [unit(withoutCommon), g.scalarFloat(rest * Math.sqrt(SEMANTIC_SHARE))]),
      g.op('Mul', [unit(lexicalSum), g.scalarFloat(rest * Math.sqrt(1 - SEMANTIC_SHARE))]),
      polarity,
    ],
    { axis: attr.int(1) },
  )
  g.output(embedding, 'embedding', DataType.FLOAT, ['texts', DIMENSIONS + LEXICAL_DIMENSIONS + 1])
  return g.toBytes({ opset: OPSET, producerName: 'modhub-train-offline', producerVersion: '1', metadata: { check: 'embedding' } })
}

export async function trainEmbedding(): Promise<void> {
  log(`embedding: GloVe 6B 100-d word vectors (${GLOVE_PACKAGE}), the ${VOCABULARY_SIZE} most frequent words made of letters`)
  const glove = gloveVocabulary()
  const { words, ranks } = glove
  const reduced = pca(glove.vectors, GLOVE_DIMENSIONS, DIMENSIONS)
  // Retrofitting and glosses move each word's direction; its length stays GloVe's (SIF averages the raw vectors,
  // and GloVe's lengths carry how much a word says).
  const norms = Float32Array.from(words, (_, i) => Math.hypot(...reduced.subarray(i * DIMENSIONS, (i + 1) * DIMENSIONS)) || 1)
  const retrofitted = retrofit(words, reduced.map((v, k) => v / norms[Math.floor(k / DIMENSIONS)]))
  log(`  retrofitted to WordNet: ${retrofitted.linked} of ${words.length} words have synonyms or hypernyms in the vocabulary`)
  const sifWeight = (rank: number) => SIF_A / (SIF_A + zipfProbability(rank, glove.total))
  const { vectors: units, glossed } = withGlosses(words, retrofitted.vectors, (i) => sifWeight(ranks[i]))
  log(`  ${glossed} words mixed with the vectors of their WordNet definitions (share ${GLOSS_SHARE})`)
  const vectors = units.map((v, k) => v * norms[Math.floor(k / DIMENSIONS)])
  // int8 per row, scaled to the row's largest component; the scale goes into the row's SIF weight, so the graph's
  // one dequantisation (1/127) stays the same for every row.
  const wordTable = new Uint8Array((words.length + 1) * DIMENSIONS).fill(128)
  const rowScales = new Float32Array(words.length)
  for (let i = 0; i < words.length; i++) {
    const row = vectors.subarray(i * DIMENSIONS, (i + 1) * DIMENSIONS)
    rowScales[i] = row.reduce((m, v) => Math.max(m, Math.abs(v)), 0) || 1
    row.forEach((v, r) => (wordTable[(i + 1) * DIMENSIONS + r] = quantise(v / rowScales[i])))
  }
  const sif = Float32Array.from([0, ...ranks.map((rank, i) => sifWeight(rank) * rowScales[i])])
  // An unknown word is rare: full SIF weight, and the median length of the rarer half of the vocabulary.
  const rareNorms = [...norms.slice(words.length / 2)].sort((a, b) => a - b)
  const unknownWeight = rareNorms[Math.floor(rareNorms.length / 2)]
  const random = seededRandom(53)
  // Random ±1 rows (stored as 0/2 with zero point 1): sums of them keep trigram overlap as cosine.
  const lexicalTable = Uint8Array.from({ length: 2 ** LEXICAL_BITS * LEXICAL_DIMENSIONS }, () => (random() < 0.5 ? 0 : 2))
  const subword = subwordTable(words, units)
  const partial = { words, wordTable, sif, subwordTable: subword.table, subwordScale: subword.scale, lexicalTable, unknownWeight }
  const model: EmbeddingModel = { ...partial, commonDirection: commonDirection(partial, corpus()) }
  fs.writeFileSync(path.join(OFFLINE_MODELS_DIR, EMBEDDING_VOCABULARY), JSON.stringify({ words }))
  writeModel(EMBEDDING_GRAPH, embeddingGraph(model), {
    check: 'embedding',
    engine: `offline:${EMBEDDING_ENGINE}`,
    graph: EMBEDDING_GRAPH,
    vocabulary: EMBEDDING_VOCABULARY,
    dimensions: DIMENSIONS + LEXICAL_DIMENSIONS + 1,
    notMpnet: 'These vectors are not multi-qa-mpnet-base-dot-v1 embeddings and must not be compared with vectors stored from it.',
    parts: {
      semantic: `${DIMENSIONS} dims: SIF-weighted (a=${SIF_A}, word probabilities by Zipf's law from GloVe's frequency rank) mean of GloVe 6B 100-d vectors (${words.length} most frequent alphabetic words, PCA to ${DIMENSIONS} dimensions), unknown words by character ${SUBWORD_BITS}-bit-hashed 3-5-gram vectors, first principal direction of 5,000 sentences removed, unit length x sqrt(${SEMANTIC_SHARE})`,
      lexical: `${LEXICAL_DIMENSIONS} dims: character trigrams of the text, ${LEXICAL_BITS}-bit hashed, random +-1 projection, unit length x sqrt(${(1 - SEMANTIC_SHARE).toFixed(2)})`,
      polarity: `1 dim: +sqrt(${POLARITY_SHARE}) when the text negates something, -sqrt(${POLARITY_SHARE}) when not; the two parts above are scaled by sqrt(${1 - POLARITY_SHARE})`,
      retrofitting: `word directions retrofitted to WordNet synonyms and hypernyms (alpha ${RETROFIT_ALPHA}, ${RETROFIT_ITERATIONS} iterations, hypernym weight ${HYPERNYM_WEIGHT}), lengths kept`,
      glosses: `then mixed (share ${GLOSS_SHARE}) with the SIF mean of their WordNet senses' definitions, senses weighted 1/rank^2, parts of speech by 1 + SemCor-tagged senses`,
      storage: "int8 per word row, scaled to its largest component; the scale folded into the row's SIF weight",
    },
    training: { vectors: GLOVE_PACKAGE, vocabulary: words.length },
  })
}
