import { sigmoid } from '@/lib/moderation/runtime/postprocess'
import { LINK_SOURCE } from './addresses'
import { hashBucket } from './hashing'
import { BIAS_FEATURE_ID, SparseFeatures } from './graph-io'

/**
 * A classifier of whole texts stacked on an engine's own score: per label, a logistic regression over the hashed
 * words, word pairs and character 3-5-grams of the text, and sigmoid(a * logit(engine score) + b * text logit + c).
 * The engine reads word lists, patterns and averaged word vectors; the classifier, trained on texts written for the
 * check, reads what those miss (an attack described by its means, another language, a label's word in another sense),
 * and the stacking, fitted on logits of writers the classifier was not trained on, says how far to trust each.
 *
 * The file (JSON, so that no graph run is paid for a sum of a few hundred weights): weights quantized to a byte,
 * `(q - 128) * scale`, `labels.length` bytes a hash bucket, base64; the classifier's bias is folded into c.
 */
export type StackedTextClassifierFile = {
  labels: string[]
  hashBits: number
  scale: number
  weights: string
  /** The stacking per label, for texts in English (`textLanguage`), and for all texts where `otherLanguages` is absent. */
  a: number[]
  b: number[]
  c: number[]
  /**
   * How texts in other languages are read: the engines' word lists and patterns are English (prompt injection's few
   * lists of other languages aside), so on other languages their score says little and the classifier has to carry the
   * answer, while on English the engine earns more trust than one fit over both would give it. Its own stacking per
   * label, and, where present, its own weights (a classifier trained on more writers than the English one).
   */
  otherLanguages?: { a: number[]; b: number[]; c: number[]; scale?: number; weights?: string }
}

export const TEXT_CLASSIFIER_HASH_BITS = 16
/**
 * A text is read sentence by sentence (a sentence longer than this is cut at spaces), and each label takes its highest
 * sentence: a sentence is read alone, as the written texts were. Packing neighbours into one window let a friendly
 * sentence dilute an insult and filler dilute a planted order (reviews of the twenty-sixth and twenty-seventh rounds).
 */
export const TEXT_CLASSIFIER_WINDOW_CHARS = 200

/**
 * Names of faiths, peoples, origins, colours of skin, orientations and gender identities carry no weight: in written
 * attack and abuse texts they stand beside the attack, and a classifier of words learns them as its evidence ("Muslim
 * families at the mosque open day" read as terrorism). Left out of the words, word pairs and n-grams alike, in the
 * forms listed; what is said of the group is still read.
 */
const UNREAD_WORDS = new Set(
  (
    'muslim muslims islam islamic mosque mosques imam imams ramadan eid halal quran koran allah arab arabs arabic ' +
    'jew jews jewish judaism synagogue synagogues rabbi rabbis christian christians christianity church churches ' +
    'catholic catholics protestant protestants priest priests pastor hindu hindus hinduism temple temples sikh sikhs ' +
    'gurdwara buddhist buddhists buddhism monk monks atheist atheists ' +
    'palestinian palestinians israeli israelis kurd kurds kurdish chechen chechens basque basques irish afghan afghans ' +
    'pakistani pakistanis iraqi iraqis syrian syrians somali somalis nigerian nigerians iranian iranians saudi yemeni ' +
    'lebanese libyan egyptian turkish turks russian russians ukrainian ukrainians chinese indian indians african ' +
    'africans asian asians immigrant immigrants refugee refugees migrant migrants moslem moslems mexican mexicans ' +
    'latino latinos latina latinas hispanic hispanics black blacks white whites gay gays lesbian lesbians bisexual ' +
    'trans transgender queer disabled'
  ).split(' '),
)

/** Arabic vowel and recitation marks: written on some texts and not others, they would split one word into many. */
const ARABIC_MARKS = /[\u064B-\u065F\u0670\u06D6-\u06ED]/g

/** Curled apostrophes (a phone's "don’t") read as the plain one. */
const TYPOGRAPHIC_APOSTROPHES = /[\u2018\u2019\u02BC]/g

/** Words as the classifier reads them: letters with their combining marks (Hindi, Bengali, Thai vowel signs), digits. */
export function classifierWords(text: string): string[] {
  return textWords(text)
    .map((word) => word.toLowerCase())
    .filter((word) => !UNREAD_WORDS.has(word))
}

/** The words of a text after NFKC, in their own case (`textLanguage` reads capitals). */
function textWords(text: string): string[] {
  return text.normalize('NFKC').replace(ARABIC_MARKS, '').replace(TYPOGRAPHIC_APOSTROPHES, "'").match(/[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}]+)*/gu) ?? []
}

/** Log counts of the words, word pairs and edge-marked character 3-5-grams, unit length (bias at id 0). */
export function textClassifierFeatures(text: string): SparseFeatures {
  const counts = new Map<number, number>()
  const add = (key: string) => {
    const bucket = hashBucket(key, TEXT_CLASSIFIER_HASH_BITS)
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1)
  }
  const words = classifierWords(text)
  for (let i = 0; i < words.length; i++) {
    add(`w:${words[i]}`)
    if (i + 1 < words.length) add(`b:${words[i]} ${words[i + 1]}`)
    const marked = `<${words[i]}>`
    for (let n = 3; n <= 5; n++) for (let j = 0; j + n <= marked.length; j++) add(`c${n}:${marked.slice(j, j + n)}`)
  }
  const features = new SparseFeatures()
  for (const [bucket, count] of counts) features.add(bucket, Math.log1p(count))
  return features.normalize()
}

/** The text's sentences (one cut at spaces where it is longer than TEXT_CLASSIFIER_WINDOW_CHARS); an empty text is one empty window. */
export function textClassifierWindows(text: string): string[] {
  const windows = text.split(/(?<=[.!?۔؟।])\s+|(?<=[。！？])|\n+/u).flatMap((sentence) => {
    const pieces: string[] = []
    let rest = sentence.trim()
    while (rest.length > TEXT_CLASSIFIER_WINDOW_CHARS) {
      const cut = rest.lastIndexOf(' ', TEXT_CLASSIFIER_WINDOW_CHARS)
      const at = cut > TEXT_CLASSIFIER_WINDOW_CHARS / 2 ? cut : TEXT_CLASSIFIER_WINDOW_CHARS
      pieces.push(rest.slice(0, at))
      rest = rest.slice(at).trim()
    }
    if (rest) pieces.push(rest)
    return pieces
  })
  return windows.length ? windows : ['']
}

/** Frequent English words that are not words of the languages below ("a", "in", "no", "to" are). */
const ENGLISH_MARKERS = new Set(
  (
    "the and of you your are were this that with from have has not it they what which would should could there their been just about " +
    "because but my we she him them our these those who when where why how if or be than then very some any don't i'm it's can't " +
    "you're that's isn't didn't won't"
  ).split(' '),
)

/**
 * Frequent words of languages written in Latin letters (Spanish, Portuguese, French, German, Italian, Dutch, the
 * Scandinavian languages, Finnish, Polish, Czech, Slovak, Hungarian, Romanian, Turkish, Indonesian and Malay, Swahili,
 * Tagalog, Vietnamese, Croatian), less those that are also English words or names ("die", "den", "per", "van", "dan",
 * "com", "os", "mit", "ale", "jest", "pour", "til", "med", "on", "er", "at", "u", "ya") and single letters ("y", "o",
 * "w" are also English spelled out: "s o   e x c i t e d").
 */
const OTHER_LANGUAGE_MARKERS = new Set(
  (
    'de la que el en los las por con para una un del se es lo como pero más muy está este esta ' +
    'não uma na mais mas ao ela você ' +
    'le les des est une pas dans sur qui avec vous nous ce cette sont je il elle ' +
    'der und ist das nicht ich sie zu auf für sich ein eine des auch du nur wir mich dich bitte sind wird noch oder wenn ' +
    'di che sono della gli questo anche il nel dei alla delle degli non ' +
    'het een niet zijn voor ook maar jij wij wordt naar deze bij ik mijn ' +
    'och det att som på är jag inte jeg og ikke har för alla eller ska bara skal ' +
    'ja ei että hän tämä kun jos mutta ole olen sinä minä kaikki nyt ' +
    'w nie na się że jak tak proszę wszystkie mnie czy jestem ' +
    'je že ne jako sa jsem jsi není prosím všechny nebo ' +
    'az és hogy nem egy kérlek minden meg már csak ' +
    'și în nu că cu este ' +
    've bir bu için da ile çok ne değil olarak ben sen siz lütfen gibi daha şey ' +
    'yang di ini itu untuk dengan tidak dari ke akan ada saya anda kamu tolong sudah bisa juga atau kami kita boleh sila ' +
    'na wa kwa ni za katika hii wako yako tafadhali kwenye sana hapa wewe mimi ' +
    'ang ng sa mga ay hindi ko ' +
    'của và là có không được những một tôi bạn này các người với để trong cũng đã sẽ'
  ).split(' '),
)

/** Letters, and Latin letters among them (the rest are Cyrillic, Greek, Arabic, Hebrew, Indic, Thai, Chinese, Japanese, Korean). */
const LETTER = /\p{L}/u
const LATIN_LETTER = /\p{Script=Latin}/u
/** A Latin letter outside English's alphabet (é, ñ, ş, ř, ă, ư): a word in English has one only when borrowed ("café"). */
const ACCENTED = /[\u00C0-\u024F\u1E00-\u1EFF]/u
/**
 * Links, and every word with an "@" in it (an e-mail address, a handle, a word masked with it: "c@ralho"): their words
 * ("/es/", "el.example") are no evidence of a language.
 */
// The word with an "@" starts only where a run of non-spaces starts (the lookbehind): tried from
// every character, a run of 50,000 without an "@" took 50,000 scans to its end (quadratic, 1.3 s
// for 40,000 characters of CJK or one long word, holding the event loop).
const NOT_LANGUAGE = new RegExp(String.raw`${LINK_SOURCE}|(?<!\S)\S+@\S+`, 'giu')

/** The language of a text as the stacking reads it: English, another language, or both (a mixed text). */
export type TextLanguage = 'english' | 'other' | 'mixed'

/**
 * Another language shows in another script (30% of letters), in accented Latin letters (one word in seven), or in two
 * frequent words of a listed language, more than of English; names do not count (a capitalised word: "Zoë", "José",
 * "El Niño"), nor links. A text with that evidence and an English word of the list is mixed; without the evidence it
 * is English, whatever else it is (a link, a badge, code, a log line: the engines' patterns read those). Read after
 * NFKC, so letters in mathematical or full-width forms are the Latin letters they stand for. Of the texts written for
 * the classifiers in 42 other languages, 95% show the evidence (the rest: short texts without accents or two listed
 * words, and Indonesian, Malay, Swahili or Tagalog without listed words); no English text among them reads otherwise.
 * (The gibberish engine's function words of 56 languages answer another question, whether its language models know a
 * text, from a model file of their own; this reading needs nothing beside the classifier's file.)
 */
export function textLanguage(text: string): TextLanguage {
  const normalized = text.normalize('NFKC').replace(NOT_LANGUAGE, ' ')
  let letters = 0
  let otherScript = 0
  for (const char of normalized) {
    if (!LETTER.test(char)) continue
    letters++
    if (!LATIN_LETTER.test(char)) otherScript++
  }
  const words = textWords(normalized)
  let english = 0
  let foreign = 0
  let accented = 0
  for (const word of words) {
    const lower = word.toLowerCase()
    if (ENGLISH_MARKERS.has(lower)) english++
    if (word !== lower && word[0] !== lower[0]) continue // a capitalised word: a name, or the first word of a sentence
    if (OTHER_LANGUAGE_MARKERS.has(lower)) foreign++
    if (ACCENTED.test(lower)) accented++
  }
  const otherEvidence = (letters > 0 && otherScript / letters >= 0.3) || (words.length > 0 && accented / words.length >= 0.15) || (foreign >= 2 && foreign > english)
  if (!otherEvidence) return 'english'
  return english > 0 ? 'mixed' : 'other'
}

/** One way of reading: a table of weights with its scale, and the stacking on its logits. */
type Reading = { scale: number; weights: Uint8Array; a: number[]; b: number[]; c: number[] }
type Readings = { english: Reading; other?: Reading }
const decoded = new WeakMap<StackedTextClassifierFile, Readings>()
/** The file's readings, decoded and checked once: a malformed file fails loudly, never with NaN scores. */
function readings(file: StackedTextClassifierFile): Readings {
  let found = decoded.get(file)
  if (found) return found
  if (file.hashBits !== TEXT_CLASSIFIER_HASH_BITS) throw new Error(`a text classifier of ${file.hashBits} hash bits; this engine reads ${TEXT_CLASSIFIER_HASH_BITS}`)
  const table = (base64: string, scale: number) => {
    const weights = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    if (weights.length !== 2 ** TEXT_CLASSIFIER_HASH_BITS * file.labels.length) throw new Error(`a text classifier with ${weights.length} weights for ${file.labels.length} labels`)
    if (!(scale > 0)) throw new Error(`a text classifier's weights with scale ${scale}`)
    return { scale, weights }
  }
  const stacking = ({ a, b, c }: { a: number[]; b: number[]; c: number[] }) => {
    if (![a, b, c].every((list) => list.length === file.labels.length && list.every(Number.isFinite))) throw new Error(`a text classifier's stacking is not one finite a, b and c per label`)
    return { a, b, c }
  }
  const english = { ...table(file.weights, file.scale), ...stacking(file) }
  const other = file.otherLanguages
  if (other && !other.weights && other.scale !== undefined) throw new Error("a text classifier's other-language scale without weights")
  found = { english, other: other && { ...(other.weights ? table(other.weights, other.scale ?? NaN) : english), ...stacking(other) } }
  decoded.set(file, found)
  return found
}

/** The classifier's logit of one window for each of its labels, without its bias (c holds it). */
function windowLogits({ scale, weights }: Reading, labels: number, window: string): number[] {
  const logits = new Array<number>(labels).fill(0)
  for (const [bucket, value] of textClassifierFeatures(window).entries()) {
    if (bucket === BIAS_FEATURE_ID) continue
    for (let l = 0; l < labels; l++) logits[l]! += (weights[bucket * labels + l]! - 128) * scale * value
  }
  return logits
}

/** One reading of a text: per label, the highest logit of its windows, and the stacking that goes with it. */
export type TextReading = { logits: number[]; a: number[]; b: number[]; c: number[] }

/**
 * Reads the whole text (the cost grows with its length only): as English, as another language, or, for a mixed text,
 * both ways, so that words of another language added to an English attack (or English added to another language's)
 * cannot move it to the stacking that trusts its evidence less. A file without `otherLanguages` reads every text one way.
 */
export function readText(file: StackedTextClassifierFile, text: string): TextReading[] {
  const { english, other } = readings(file)
  const language = other ? textLanguage(text) : 'english'
  const ways = language === 'english' ? [english] : language === 'other' ? [other!] : [english, other!]
  const windows = textClassifierWindows(text)
  const read = new Map<Uint8Array, number[]>() // two ways with one table (toxicity's) read the text once
  return ways.map((reading) => {
    let logits = read.get(reading.weights)
    if (!logits) {
      logits = new Array<number>(file.labels.length).fill(-Infinity)
      for (const window of windows) windowLogits(reading, file.labels.length, window).forEach((logit, l) => (logits![l] = Math.max(logits![l]!, logit)))
      read.set(reading.weights, logits)
    }
    return { logits, a: reading.a, b: reading.b, c: reading.c }
  })
}

export function logit(probability: number): number {
  const p = Math.min(Math.max(probability, 1e-6), 1 - 1e-6)
  return Math.log(p / (1 - p))
}

/** The stacked probability of label `l` from the engine's own probability and the text's readings: the highest. */
export function stackedProbability(l: number, engineProbability: number, readings: TextReading[]): number {
  return Math.max(...readings.map(({ logits, a, b, c }) => sigmoid(a[l]! * logit(engineProbability) + b[l]! * logits[l]! + c[l]!)))
}
