import { sigmoid } from '@/lib/moderation/runtime/postprocess'
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
export type StackedTextClassifierFile = { labels: string[]; hashBits: number; scale: number; weights: string; a: number[]; b: number[]; c: number[] }

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
  const words = text.normalize('NFKC').replace(ARABIC_MARKS, '').replace(TYPOGRAPHIC_APOSTROPHES, "'").toLowerCase().match(/[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}]+)*/gu) ?? []
  return words.filter((word) => !UNREAD_WORDS.has(word))
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

type Classifier = Omit<StackedTextClassifierFile, 'weights'> & { weights: Uint8Array }
const decoded = new WeakMap<StackedTextClassifierFile, Classifier>()
function classifier(file: StackedTextClassifierFile): Classifier {
  let found = decoded.get(file)
  if (!found) {
    if (file.hashBits !== TEXT_CLASSIFIER_HASH_BITS) throw new Error(`a text classifier of ${file.hashBits} hash bits; this engine reads ${TEXT_CLASSIFIER_HASH_BITS}`)
    const weights = Uint8Array.from(atob(file.weights), (c) => c.charCodeAt(0))
    if (weights.length !== 2 ** TEXT_CLASSIFIER_HASH_BITS * file.labels.length) throw new Error(`a text classifier with ${weights.length} weights for ${file.labels.length} labels`)
    decoded.set(file, (found = { ...file, weights }))
  }
  return found
}

/** The classifier's logit of one window for each of its labels, without its bias (c holds it). */
function windowLogits({ labels, scale, weights }: Classifier, window: string): number[] {
  const logits = new Array<number>(labels.length).fill(0)
  for (const [bucket, value] of textClassifierFeatures(window).entries()) {
    if (bucket === BIAS_FEATURE_ID) continue
    for (let l = 0; l < labels.length; l++) logits[l]! += (weights[bucket * labels.length + l]! - 128) * scale * value
  }
  return logits
}

/** Per label, the highest logit of the text's windows (the whole text is read: the cost grows with its length only). */
export function textLogits(file: StackedTextClassifierFile, text: string): number[] {
  const model = classifier(file)
  const best = new Array<number>(model.labels.length).fill(-Infinity)
  for (const window of textClassifierWindows(text)) {
    windowLogits(model, window).forEach((logit, l) => (best[l] = Math.max(best[l]!, logit)))
  }
  return best
}

export function logit(probability: number): number {
  const p = Math.min(Math.max(probability, 1e-6), 1 - 1e-6)
  return Math.log(p / (1 - p))
}

/** The stacked probability of label `l` from the engine's own probability and the text's logits. */
export function stackedProbability(file: StackedTextClassifierFile, l: number, engineProbability: number, logits: number[]): number {
  return sigmoid(file.a[l]! * logit(engineProbability) + file.b[l]! * logits[l]! + file.c[l]!)
}
