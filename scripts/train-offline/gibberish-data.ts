/**
 * Training texts for the gibberish engine. Clean texts are prose from the packages (fortunes,
 * WordNet examples and glosses, README paragraphs), also as chat would write them (lowercase, no
 * final stop, short fragments, single common words); the other three classes are generated
 * from them: mild gibberish = typos and made-up words in real sentences, word salad = real words
 * in no order, noise = keyboard mash and random characters. The evaluation set is not used.
 */
import { pick, seededRandom, shuffle } from './random'

export type GibberishRow = { text: string; label: 0 | 1 | 2 | 3 }

const KEYBOARD = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm']
const NEIGHBOURS: Record<string, string> = {}
KEYBOARD.forEach((row, r) =>
  [...row].forEach((c, i) => {
    NEIGHBOURS[c] = (row[i - 1] ?? '') + (row[i + 1] ?? '') + (KEYBOARD[r - 1]?.[i] ?? '') + (KEYBOARD[r + 1]?.[i] ?? '')
  }),
)
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
const CONSONANTS = 'bcdfghjklmnprstvwxz'
const VOWELS = 'aeiouy'

/** One realistic slip of the keyboard or of spelling. */
function typo(word: string, random: () => number): string {
  if (word.length < 2) return word + pick([...LETTERS], random)
  const i = Math.floor(random() * word.length)
  const c = word[i].toLowerCase()
  const r = random()
  if (r < 0.25 && i + 1 < word.length) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
  if (r < 0.45) return word.slice(0, i) + word.slice(i + 1)
  if (r < 0.6) return word.slice(0, i) + word[i] + word.slice(i)
  if (r < 0.85 && NEIGHBOURS[c]) return word.slice(0, i) + pick([...NEIGHBOURS[c]], random) + word.slice(i + 1)
  return word.slice(0, i) + pick([...VOWELS], random) + word.slice(i + 1)
}

/** A pronounceable word that is not one ("blorf", "snazzle"). */
function pseudoWord(random: () => number): string {
  let word = ''
  const syllables = 1 + Math.floor(random() * 3)
  for (let s = 0; s < syllables; s++) {
    word += pick([...CONSONANTS], random)
    if (random() < 0.3) word += pick([...'lrhn'], random)
    word += pick([...VOWELS], random)
    if (random() < 0.6) word += pick([...CONSONANTS], random)
  }
  return word
}

function mild(sentence: string, random: () => number): string {
  const words = sentence.split(' ')
  const share = 0.2 + random() * 0.4
  const out = words.map((word) => {
    if (!/\p{L}{2}/u.test(word) || random() > share) return word
    if (random() < 0.2) return pseudoWord(random)
    const once = typo(word, random)
    return random() < 0.3 ? typo(once, random) : once
  })
  if (out.join(' ') === sentence) out[Math.floor(random() * out.length)] = pseudoWord(random)
  return out.join(' ')
}

function salad(sentences: string[], vocabulary: string[], random: () => number): string {
  const r = random()
  let words: string[]
  if (r < 0.4) {
    words = shuffle(pick(sentences, random).replace(/[.!?,;:"]/g, '').split(' ').filter(Boolean), random)
  } else if (r < 0.9) {
    // Drawn by corpus frequency, so function words turn up as often as in prose, only in no order.
    words = Array.from({ length: 3 + Math.floor(random() * 14) }, () => pick(vocabulary, random))
  } else {
    // Real phrases glued in no order: each piece reads fine, the whole does not.
    words = Array.from({ length: 2 + Math.floor(random() * 3) }, () => {
      const w = pick(sentences, random).replace(/[.!?,;:"]/g, '').split(' ')
      const start = Math.floor(random() * Math.max(1, w.length - 2))
      return w.slice(start, start + 2 + Math.floor(random() * 2)).join(' ')
    })
  }
  let text = words.join(' ') || pick(vocabulary, random)
  if (random() < 0.4) text = text[0].toUpperCase() + text.slice(1)
  if (random() < 0.4) text += pick(['.', '!', '?'], random)
  return text
}

function noise(random: () => number): string {
  const r = random()
  const length = 3 + Math.floor(random() * 40)
  if (r < 0.35) {
    // Keyboard mash: runs along one or two rows, spaces now and then.
    const rows = [pick(KEYBOARD, random), pick(KEYBOARD, random)]
    let text = ''
    for (let i = 0; i < length; i++) text += random() < 0.12 ? ' ' : pick([...pick(rows, random)], random)
    return text.trim() || 'asdf'
  }
  if (r < 0.6) {
    let text = ''
    for (let i = 0; i < length; i++) text += random() < 0.15 ? ' ' : pick([...LETTERS], random)
    return text.trim() || 'xq'
  }
  if (r < 0.8) {
    const symbols = `${LETTERS}0123456789!@#$%^&*()_+-=[]{};:,./<>?~ `
    let text = ''
    for (let i = 0; i < length; i++) text += pick([...symbols], random)
    return text.trim() || '#$%'
  }
  if (r < 0.85) {
    const piece = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick([...LETTERS], random)).join('')
    return piece.repeat(2 + Math.floor(random() * 6))
  }
  if (r < 0.92) {
    // Punctuation and symbols alone.
    const piece = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick([...'!?#$%^&*()_+-=[]{}<>@~.'], random)).join('')
    return random() < 0.5 ? piece.repeat(2 + Math.floor(random() * 5)) : Array.from({ length: 3 + Math.floor(random() * 12) }, () => pick([...'!?#$%^&*()_+-=[]{}<>@~.,;:/'], random)).join('')
  }
  return Array.from({ length: 1 + Math.floor(random() * 6) }, () =>
    Array.from({ length: 2 + Math.floor(random() * 7) }, () => pick([...CONSONANTS], random)).join(''),
  ).join(' ')
}

/** Prose as people type it in a chat box. */
function casual(sentence: string, random: () => number): string {
  const r = random()
  if (r < 0.35) return sentence.toLowerCase().replace(/[.!]$/, '')
  if (r < 0.55) {
    const words = sentence.split(' ')
    return words.slice(0, 1 + Math.floor(random() * Math.min(5, words.length))).join(' ')
  }
  return sentence
}

/**
 * `sentences` are the clean texts (drawn uniformly), `commonWords` single-word messages,
 * `vocabulary` words repeated in proportion to their frequency, for salad.
 */
export function gibberishTrainingSet(sentences: string[], commonWords: string[], vocabulary: string[], perClass: number, seed: number): GibberishRow[] {
  const random = seededRandom(seed)
  const rows: GibberishRow[] = []
  for (let i = 0; i < perClass; i++) {
    const sentence = pick(sentences, random)
    rows.push({ text: random() < 0.08 ? pick(commonWords, random) : casual(sentence, random), label: 0 })
    rows.push({ text: mild(casual(pick(sentences, random), random), random), label: 1 })
    rows.push({ text: salad(sentences, vocabulary, random), label: 2 })
    rows.push({ text: noise(random), label: 3 })
  }
  return shuffle(rows, random)
}
