import { embedTexts, embeddingWords, type EmbeddingVocabulary } from './embedding'
import { cosineSimilarity } from '@/lib/moderation/vectors'
import type { GraphRunner } from './graph-io'
import { readText, stackedProbability, type StackedTextClassifierFile } from './stacked-text-classifier'

/**
 * Restricted topics for any label list, without an NLI model: each label is expanded into
 * weighted terms (for the labels in `topic.expansions.json`, WordNet synonyms, hyponyms, topic
 * domain members, related forms and gloss words of the label's own senses, plus a seed list of
 * current usage; for any other label, its own words) and described by a prototype text. Text
 * words meet terms singular, and an inflected verb as its base form (`termKeys`).
 * A matched term counts only where the sentence uses it in the label's sense (`inLabelSense`: WordNet
 * phrases of other senses, an ambiguous adjective before an abstract noun, "X is a T" where X is
 * not the kind of thing T names in the label's sense); words used in another sense are left out
 * of the embeddings too. Per label, the text's best and total term matches, the cosine between
 * the text's and the prototype's offline embeddings, and the same cosine for the text without
 * its matched terms go through a calibrated logistic layer in `topic.onnx`; labels are scored
 * independently (multi-label), in [0, 1]. The default labels (and their other names) are then read once more by a
 * classifier of the text's words and character n-grams trained on texts written for them (`topic.texts.json`), which
 * is stacked on that score: word lists and embeddings miss attacks described by their means, other languages and
 * other senses that a learned reading of whole texts catches.
 */
export const TOPIC_GRAPH = 'topic.onnx'
export const TOPIC_EXPANSIONS = 'topic.expansions.json'
export const TOPIC_THRESHOLD = 0.5
export const DEFAULT_TOPIC_LABELS = ['Terrorism', 'Explosives'] as const
/** The text classifier stacked on the default labels' scores (stacked-text-classifier.ts). */
export const TOPIC_TEXT_CLASSIFIER = 'topic.texts.json'
/** Longest term (in words) the matcher looks for. */
export const TOPIC_MAX_TERM_WORDS = 3

/** What a noun names, by its WordNet senses weighted 1 / rank²: a person, another physical thing, or an abstraction. */
export type NounKind = 'person' | 'physical' | 'abstract'
export const NOUN_KINDS: readonly NounKind[] = ['person', 'physical', 'abstract']

/** What tells, in a sentence, whether a label's term is used in the label's sense (all read off WordNet by the trainer). */
export type TopicSenses = {
  /** WordNet phrases containing one of the label's words only in other senses ("holy terror", "bomb calorimeter"). */
  otherSensePhrases?: string[]
  /** Terms that are also adjectives of other senses ("explosive": "an explosive issue"); before an abstract noun they are in those. */
  ambiguousAdjectives?: string[]
  /** The kinds of thing a noun term names in the label's sense: in "X is a T", T has that sense only when X is of one of them. */
  kinds?: Record<string, NounKind[]>
  /** Seed words in other languages and the English term each stands for; also found inflected or inside compounds ("Rohrbombe"). */
  translations?: Record<string, string>
}

/**
 * An act and what it is done to, each a list of words or two-word phrases, found anywhere in one text: together they
 * name the label's topic where neither does alone ("ram the truck into the parade crowd": an attack on a crowd).
 */
export type TopicCue = { weight: number; acts: string[]; objects: string[] }
export type TopicExpansion = { prototype: string; terms: Record<string, number>; senses?: TopicSenses; cues?: TopicCue[] }
/** Expansions by normalised label (see `labelKey`). */
export type TopicExpansions = Record<string, TopicExpansion>
/** `topic.expansions.json`: the expansions, and the kind of each vocabulary noun (space-separated words per kind). */
export type TopicExpansionsFile = { labels: TopicExpansions; nouns: Record<NounKind, string> }

export const TOPIC_FEATURES = ['best term weight', 'log total term weight', 'prototype cosine', 'expanded label', 'log word count', 'context cosine'] as const

/** "Explosives", "explosive" and " EXPLOSIVES " share one expansion. */
export function labelKey(label: string): string {
  return embeddingWords(label)
    .map((w) => singular(w))
    .join(' ')
}

/** Plural to singular for matching terms against text ("bombs" finds "bomb"). */
export function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.length > 4 && /(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2)
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1)
  return word
}

/**
 * Other names callers give the shipped topics (a guardrail's list says "guns", "medical advice", "self-harm" as often as
 * "Weapons", "Medicine", "Suicide"): each names the same topic or a part of it that its expansion covers, so it is read
 * through that expansion. Without this, such a label is expanded from its own words only, and "medical advice" is
 * found only in texts that say "medical" or "advice". A topic broader than any shipped one ("hate speech" is more than
 * racism) has no alias.
 */
export const TOPIC_LABEL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  Terrorism: ['terror', 'terrorist', 'terrorist attacks', 'terror attacks', 'acts of terrorism'],
  Explosives: ['bomb', 'bombs', 'bomb making', 'explosive devices', 'IEDs'],
  Nudity: ['nude', 'nudes', 'naked'],
  Cruelty: ['animal cruelty', 'animal abuse', 'cruelty to animals'],
  Cheating: ['infidelity', 'plagiarism', 'academic dishonesty'],
  Fraud: ['scam', 'scams', 'fraudulent', 'financial fraud'],
  Crime: ['criminal', 'criminal activity', 'criminal offences'],
  Hacking: ['hacker', 'hackers', 'cybercrime', 'cyber attacks', 'cyberattacks', 'malware', 'computer hacking'],
  Illegal: ['illegal activity', 'illegal activities', 'unlawful'],
  Immoral: ['immorality'],
  Unethical: ['unethical behavior', 'unethical behaviour'],
  Robbery: ['theft', 'stealing', 'burglary'],
  Forgery: ['counterfeit', 'counterfeiting', 'fake documents'],
  Misinformation: ['disinformation', 'fake news', 'hoaxes', 'propaganda'],
  Weapons: ['guns', 'firearms', 'weaponry'],
  Violence: ['violent', 'violent content'],
  Drugs: ['illegal drugs', 'narcotics', 'drug use', 'drug abuse', 'substance abuse'],
  Gambling: ['betting', 'gambling addiction'],
  Suicide: ['self-harm', 'self harm', 'suicide and self-harm'],
  Pornography: ['porn', 'sexual content', 'adult content', 'explicit content', 'sexually explicit content', 'NSFW'],
  Racism: ['racist', 'racist content', 'racial discrimination', 'racial slurs'],
  Extremism: ['extremist', 'extremists', 'violent extremism', 'radicalization', 'radicalisation'],
  Politics: ['political', 'elections', 'political content', 'political opinions'],
  Religion: ['religious', 'religious content', 'faith'],
  Medicine: ['medical', 'medical advice', 'health', 'healthcare', 'health advice', 'medication', 'medical information'],
  Finance: ['financial', 'financial advice', 'investing', 'investment advice', 'money', 'banking'],
  Alcohol: ['alcoholic drinks', 'alcoholic beverages', 'drinking', 'booze'],
  Piracy: ['copyright infringement', 'pirated content', 'software piracy', 'illegal downloads'],
  Harassment: ['bullying', 'cyberbullying', 'stalking'],
  Abuse: ['child abuse', 'domestic abuse', 'domestic violence', 'maltreatment'],
}

const aliasTargets = new Map(Object.entries(TOPIC_LABEL_ALIASES).flatMap(([label, aliases]) => aliases.map((alias) => [labelKey(alias), labelKey(label)] as const)))

/** The shipped expansion's key a label names, directly or by an alias; undefined for a label the model does not ship. */
export function shippedLabelKey(label: string, expansions: TopicExpansions): string | undefined {
  const key = labelKey(label)
  if (Object.hasOwn(expansions, key)) return key
  const target = aliasTargets.get(key)
  return target !== undefined && Object.hasOwn(expansions, target) ? target : undefined
}

/** The expansion of a label: the shipped one (named directly or by an alias), or the label's own words. */
export function expansionOf(label: string, expansions: TopicExpansions): { expansion: TopicExpansion; expanded: boolean } {
  const shipped = shippedLabelKey(label, expansions)
  if (shipped !== undefined) return { expansion: expansions[shipped], expanded: true }
  const key = labelKey(label)
  // No prototype: labels such as "constructor" or "__proto__" are ordinary words here.
  const terms: Record<string, number> = Object.create(null)
  if (key) terms[key] = 1
  for (const word of key.split(' ')) if (word.length > 3) terms[word] = Math.max(terms[word] ?? 0, 0.6)
  return { expansion: { prototype: label, terms }, expanded: false }
}

export function termFeatures(keys: Set<string>, terms: Record<string, number>): { best: number; total: number; matched: string[] } {
  let best = 0
  let total = 0
  const matched: string[] = []
  for (const key of keys) {
    if (!Object.hasOwn(terms, key)) continue
    best = Math.max(best, terms[key])
    total += terms[key]
    matched.push(key)
  }
  return { best, total, matched }
}

const nounKindCache = new WeakMap<TopicExpansionsFile, Map<string, NounKind>>()
function nounKindsOf(file: TopicExpansionsFile): Map<string, NounKind> {
  let kinds = nounKindCache.get(file)
  if (!kinds) {
    kinds = new Map()
    for (const kind of NOUN_KINDS) for (const word of (file.nouns?.[kind] ?? '').split(' ')) if (word) kinds.set(word, kind)
    nounKindCache.set(file, kinds)
  }
  return kinds
}

const vocabularyCache = new WeakMap<EmbeddingVocabulary, Set<string>>()
function vocabularySet(vocabulary: EmbeddingVocabulary): Set<string> {
  let words = vocabularyCache.get(vocabulary)
  if (!words) vocabularyCache.set(vocabulary, (words = new Set(vocabulary.words)))
  return words
}

/** Linking verbs: in "X is a T" the noun T names what X is. */
const COPULAS = new Set(['is', 'was', 'are', 'were', 'be', 'been', 'being', 'become', 'becomes', 'became', 'remain', 'remains', 'remained', 'seem', 'seems', 'seemed'])
/** Subject pronouns that name people ("he's" is "he is"). */
const PERSON_PRONOUNS = new Set(['i', 'you', 'he', 'she', 'we', 'they'])
/**
 * Subjects read as people besides those: "who" is not the World Health Organization, nor "someone" an abstraction,
 * as WordNet's nouns would have it.
 */
const PERSON_SUBJECTS = new Set([...PERSON_PRONOUNS, 'who', 'whom', 'someone', 'somebody', 'everyone', 'everybody', 'anyone', 'anybody', 'nobody'])
/** Subjects that say nothing of what they stand for ("it" is not information technology, "us" not the United States). */
const KINDLESS_SUBJECTS = new Set(['it', 'this', 'that', 'these', 'those', 'there', 'here', 'what', 'which', 'one', 'something', 'everything', 'anything', 'nothing', 'me', 'us', 'him', 'her', 'them'])
/** Words after which T is no longer the predicate noun ("is a part of the bomb", "was the man who ..."). */
const PREDICATE_BREAKS = new Set(['of', 'for', 'with', 'to', 'in', 'on', 'at', 'from', 'by', 'about', 'and', 'or', 'but', 'that', 'which', 'who', 'if', 'when', 'than'])
/** Words the predicate noun may stand this far after the linking verb ("is a ticking time bomb"). */
const PREDICATE_REACH = 4

/** The kind of the subject of a linking verb at `copula`, when the sentence tells it. */
function subjectKind(words: string[], copula: number, nouns: Map<string, NounKind>): NounKind | undefined {
  const verb = words[copula]
  const contracted = /^(\p{L}+)['’]s$/u.exec(verb)
  if (contracted) return PERSON_PRONOUNS.has(contracted[1]) ? 'person' : undefined
  const subject = words[copula - 1]
  if (subject === undefined) return undefined
  if (PERSON_SUBJECTS.has(subject)) return 'person'
  if (KINDLESS_SUBJECTS.has(subject)) return undefined
  return nouns.get(subject) ?? nouns.get(singular(subject))
}

/** Where a linking verb stands before the word at `start` with T as its predicate noun, or -1. */
function copulaBefore(words: string[], start: number): number {
  for (let j = start - 1; j >= Math.max(0, start - PREDICATE_REACH); j--) {
    if (COPULAS.has(words[j]) || (/^(\p{L}+)['’]s$/u.test(words[j]) && PERSON_PRONOUNS.has(words[j].slice(0, -2)))) return j
    if (PREDICATE_BREAKS.has(words[j])) return -1
  }
  return -1
}

/**
 * Is the occurrence of `term` at words[start, end) in the label's sense? Three readings of the sentence, each from
 * WordNet data the trainer shipped: inside a longer WordNet phrase of another sense ("a holy terror") it is not; an
 * ambiguous adjective before an abstract noun ("an explosive quarter": quarter names a time, not a thing) is in its
 * other sense; and as the predicate of "X is a T", T names what X is, so a person ("that striker is a real terror") or
 * an abstraction ("the situation is a time bomb") cannot be T in a sense that names an act or a device.
 */
export function inLabelSense(words: string[], start: number, end: number, term: string, senses: TopicSenses, nouns: Map<string, NounKind>, otherSenseSpans: [number, number][]): boolean {
  if (otherSenseSpans.some(([a, b]) => a <= start && end <= b && b - a > end - start)) return false
  if (end - start === 1 && senses.ambiguousAdjectives?.includes(term) && end < words.length && nouns.get(words[end]) === 'abstract') return false
  const kinds = senses.kinds?.[term]
  if (kinds) {
    const copula = copulaBefore(words, start)
    const subject = copula >= 0 ? subjectKind(words, copula, nouns) : undefined
    if (subject && !kinds.includes(subject)) return false
  }
  return true
}

/**
 * Seed words of other languages read as their English terms, also inflected or inside a compound when the English
 * vocabulary does not know the word: "Rohrbombe" ends with "bombe", "Bomben" and "bombas" begin with its stem.
 */
export function translated(words: string[], translations: Record<string, string> | undefined, english: Set<string>): string[] {
  if (!translations) return words
  const seeds = Object.keys(translations)
  const seedOf = (word: string): string | undefined => {
    for (const form of [word, singular(word)]) if (Object.hasOwn(translations, form)) return form
    if (english.has(word)) return undefined
    return seeds.find((seed) => {
      if (seed.includes(' ')) return false
      const stem = stemOf(seed)
      return (seed.length >= 5 && word.endsWith(seed)) || (stem !== undefined && word.startsWith(stem))
    })
  }
  return words.flatMap((word) => {
    const seed = seedOf(word)
    return seed === undefined ? [word] : translations[seed].split(' ')
  })
}

/** A seed word without a final vowel ("bomba" -> "bomb"), at least four letters: the part its inflections share. */
function stemOf(seed: string): string | undefined {
  const stem = /[aeiouyаеиоуыэюя]$/u.test(seed) ? seed.slice(0, -1) : seed
  return stem.length >= 4 ? stem : undefined
}

/**
 * The base forms a verb's inflection may stand for, most likely first: "stabbed" -> "stab", "starved" -> "starve",
 * "carried" -> "carry", "hacking" -> "hack". Only tried against a label's own term words (`termWordsOf`), so a
 * wrong candidate ("indeed" -> "inde", "string" -> "str") finds nothing; a stem under three letters is none ("bed").
 */
export function verbBaseForms(word: string): string[] {
  if (word.length > 4 && word.endsWith('ied')) return [`${word.slice(0, -3)}y`]
  const ending = word.endsWith('ed') ? 2 : word.endsWith('ing') ? 3 : 0
  const stem = word.slice(0, word.length - ending)
  if (!ending || stem.length < 3) return []
  const forms = [stem, `${stem}e`]
  if (/([b-df-hj-np-tv-z])\1$/.test(stem)) forms.push(stem.slice(0, -1))
  return forms
}

const termWordsCache = new WeakMap<Record<string, number>, Set<string>>()
/** Every word of a label's terms ("stab", "beat", "up" for "stab" and "beat up"). */
function termWordsOf(terms: Record<string, number>): Set<string> {
  let words = termWordsCache.get(terms)
  if (!words) termWordsCache.set(terms, (words = new Set(Object.keys(terms).flatMap((t) => t.split(' ')))))
  return words
}

/**
 * The text's words as the label's terms are written: plurals singular, and an inflected verb as its base form when
 * that is a word of the label's terms and the inflection is not ("she was stabbed" finds "stab", "they stalked her"
 * finds "stalk"; "killed", a term of its own, stays).
 */
export function termKeys(words: string[], terms: Record<string, number>): string[] {
  const termWords = termWordsOf(terms)
  return words.map((word) => {
    const key = singular(word)
    if (termWords.has(key)) return key
    return verbBaseForms(word).find((form) => termWords.has(form)) ?? key
  })
}

/** The label's terms the text uses in the label's sense, and the words of the text as the label reads them. */
export function labelMatches(words: string[], expansion: TopicExpansion, nouns: Map<string, NounKind>, english: Set<string>): { best: number; total: number; matched: string[]; read: string[] } {
  const senses = expansion.senses ?? {}
  const inEnglish = translated(words, senses.translations, english)
  const keys = termKeys(inEnglish, expansion.terms)
  // A verb read as its base form is embedded as that form too, and left out of the context with its term.
  const read = inEnglish.map((word, i) => (keys[i] !== singular(word) ? keys[i] : word))
  const phrases = new Set(senses.otherSensePhrases ?? [])
  const otherSenseSpans: [number, number][] = []
  const occurrences: { term: string; start: number; end: number }[] = []
  for (let n = 1; n <= TOPIC_MAX_TERM_WORDS; n++) {
    for (let i = 0; i + n <= keys.length; i++) {
      const key = keys.slice(i, i + n).join(' ')
      if (phrases.has(key)) otherSenseSpans.push([i, i + n])
      if (Object.hasOwn(expansion.terms, key)) occurrences.push({ term: key, start: i, end: i + n })
    }
  }
  const kept = occurrences.filter((o) => inLabelSense(read, o.start, o.end, o.term, senses, nouns, otherSenseSpans))
  const positions = (o: { start: number; end: number }) => Array.from({ length: o.end - o.start }, (_, k) => o.start + k)
  const keptWords = new Set(kept.flatMap(positions))
  const dropped = new Set(occurrences.filter((o) => !kept.includes(o)).flatMap(positions).filter((i) => !keptWords.has(i)))
  const terms = termFeatures(new Set(kept.map((o) => o.term)), expansion.terms)
  let { best, total } = terms
  const matched = [...terms.matched]
  for (const cue of expansion.cues ?? []) {
    const found = cueMatch(read, cue)
    if (!found) continue
    best = Math.max(best, cue.weight)
    total += cue.weight
    matched.push(found)
  }
  return { best, total, matched, read: read.filter((_, i) => !dropped.has(i)) }
}

const cueSets = new WeakMap<string[], Set<string>>()
/** A cue's list as a set, made once per list of the loaded expansions. */
function cueSet(list: string[]): Set<string> {
  let set = cueSets.get(list)
  if (!set) cueSets.set(list, (set = new Set(list)))
  return set
}

/** The forms a word may be listed under: itself, singular, and the base forms of a verb's inflection. */
function cueForms(word: string): string[] {
  return [word, singular(word), ...verbBaseForms(word)]
}

/**
 * The text's words that make a cue (an act and an object anywhere in the text), or undefined. An act whose object is
 * "it" names no victim ("she killed it on stage", "they nailed it"), so it is no act here.
 */
export function cueMatch(words: string[], cue: TopicCue): string | undefined {
  const find = (list: string[], isAct: boolean): string | undefined => {
    const wanted = cueSet(list)
    for (let i = 0; i < words.length; i++) {
      for (const n of [2, 1]) {
        if (i + n > words.length) continue
        const next = words[i + n]
        if (isAct && next === 'it') continue
        const last = words[i + n - 1]
        const forms = n === 1 ? cueForms(words[i]) : cueForms(words[i]).map((f) => `${f} ${singular(last)}`).concat(`${words[i]} ${last}`)
        if (forms.some((f) => wanted.has(f))) return words.slice(i, i + n).join(' ')
      }
    }
    return undefined
  }
  const act = find(cue.acts, true)
  if (act === undefined) return undefined
  const object = find(cue.objects, false)
  return object === undefined ? undefined : `${act} ${object}`
}

/**
 * The text without the words of the label's matched terms: what the rest of the sentence is about. "Sales had an
 * explosive quarter" keeps "sales had an quarter", far from the Explosives prototype; "pack nails around the
 * charge for shrapnel" keeps words that are still near it. A term alone says a word was used, its context which sense.
 */
export function contextOf(text: string, matched: string[]): string {
  if (!matched.length) return text
  const removed = new Set(matched.flatMap((m) => m.split(' ')))
  return embeddingWords(text)
    .filter((w) => !removed.has(singular(w)))
    .join(' ')
}

/** What scoring a text against labels reads: the graphs, the expansions and vocabulary, and the labels' prototype embeddings (cached by the caller). */
export type TopicTermModel = {
  run: GraphRunner
  expansions: TopicExpansionsFile
  vocabulary: EmbeddingVocabulary
  prototypeEmbedding: (prototype: string) => Promise<number[]>
}
/** ... and the text classifier stacked on the default labels. */
export type TopicModel = TopicTermModel & { textClassifier: StackedTextClassifierFile }

/** Feature rows (label x TOPIC_FEATURES), in label order. */
export async function topicFeatureRows({ run, expansions, vocabulary, prototypeEmbedding }: TopicTermModel, text: string, labels: string[]): Promise<number[][]> {
  const words = embeddingWords(text)
  const nouns = nounKindsOf(expansions)
  const english = vocabularySet(vocabulary)
  // What each label reads: its terms in the text, the text as the label reads it (other-sense words out, seed words of
  // other languages in English; the text itself when that changes nothing) and the context of its terms. Every text
  // any label needs is embedded in one run of the graph.
  const readings = labels.map((label) => {
    const { expansion, expanded } = expansionOf(label, expansions.labels)
    const { best, total, matched, read } = labelMatches(words, expansion, nouns, english)
    const changed = read.length !== words.length || read.some((w, i) => w !== words[i])
    const readWords = read.join(' ')
    return { expansion, expanded, best, total, readText: changed ? readWords : text, contextText: matched.length ? contextOf(readWords, matched) : null }
  })
  const toEmbed = [...new Set(readings.flatMap((r) => (r.contextText === null ? [r.readText] : [r.readText, r.contextText])))]
  const embedded = new Map((await embedTexts(run, toEmbed, vocabulary)).map((vector, i) => [toEmbed[i]!, vector]))
  const rows: number[][] = []
  for (const { expansion, expanded, best, total, readText, contextText } of readings) {
    const prototype = await prototypeEmbedding(expansion.prototype)
    const similarity = cosineSimilarity(embedded.get(readText)!, prototype)
    const context = contextText === null ? similarity : cosineSimilarity(embedded.get(contextText)!, prototype)
    rows.push([best, Math.log1p(total), similarity, expanded ? 1 : 0, Math.log1p(words.length) / 4, context])
  }
  return rows
}

/** The scores of the terms and embeddings alone (`topic.onnx`), one per label in request order: what the text classifier is stacked on. */
export async function termAndEmbeddingScores(model: TopicTermModel, text: string, labels: string[]): Promise<number[]> {
  const rows = await topicFeatureRows(model, text, labels)
  const { scores } = await model.run(TOPIC_GRAPH, {
    label_features: { type: 'float32', data: Float32Array.from(rows.flat()), dims: [rows.length, TOPIC_FEATURES.length] },
  })
  return Array.from(scores)
}

/** One independent score in [0, 1] per label, in request order. */
export async function scoreTopics(model: TopicModel, text: string, labels: string[]): Promise<number[]> {
  const scores = await termAndEmbeddingScores(model, text, labels)
  // The labels the text classifier was trained for, named directly or by another name, get its stacked score.
  const classifier = model.textClassifier
  const own = classifier.labels.map((label) => shippedLabelKey(label, model.expansions.labels))
  const read = labels.map((label) => {
    const key = shippedLabelKey(label, model.expansions.labels)
    return key === undefined ? -1 : own.indexOf(key)
  })
  if (read.every((index) => index < 0)) return scores
  const reading = readText(classifier, text)
  return scores.map((score, i) => (read[i]! < 0 ? score : stackedProbability(read[i]!, score, reading)))
}
