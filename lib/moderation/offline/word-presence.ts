/**
 * Whether a list of words can occur in a text as whole words, asked of the text's set of words instead of a regular
 * expression. The word lists of the prompt-injection features (29 languages, some 400 lists) were each a
 * case-insensitive regular expression tried at every position of every text: most of the engine's time on a text of
 * a few hundred characters. The answer here is a superset of the expression's: a list that "may occur" is then read by
 * its expression as before, so no answer changes; one that cannot occur costs a set lookup.
 *
 * Sound because a word that a case-insensitive Unicode expression ('iu': simple case folding, letter by letter) takes
 * for a listed word has the same key, letter for letter (`letterKey`; tests/unit/offline-engines/word-presence.test.ts
 * checks every letter of every list against every code point), and a listed word's first run of letters stands
 * between non-letters in any text it is found in (the lists' expressions ask for word boundaries).
 */

const LETTERS = /[\p{L}\p{M}]+/gu
const ASCII = /^[\x00-\x7f]*$/

const letterKeys = new Map<string, string>()

/**
 * One code point's key: the lower case of its upper case ("ς", "Σ" and "σ" are all "σ"; the Kelvin sign is "k"),
 * where each is one code point; else its own lower case; else itself ("İ"). Keys may join letters that the
 * expressions keep apart ("ı" and "i"): that only lets more lists through to their expressions.
 */
export function letterKey(letter: string): string {
  let key = letterKeys.get(letter)
  if (key === undefined) {
    const one = (s: string) => s.length === 1 || (s.length === 2 && s.codePointAt(0)! > 0xffff)
    const upper = letter.toUpperCase()
    const lower = (one(upper) ? upper : letter).toLowerCase()
    key = one(lower) ? lower : one(letter.toLowerCase()) ? letter.toLowerCase() : letter
    letterKeys.set(letter, key)
  }
  return key
}

/** A run of letters' key: each letter's key. */
export function wordKey(word: string): string {
  if (ASCII.test(word)) return word.toLowerCase()
  let key = ''
  for (const letter of word) key += letterKey(letter)
  return key
}

/** The keys of a text's runs of letters (and combining marks). */
export type TextWords = { keys: ReadonlySet<string> }

let lastText: string | undefined
let lastWords: TextWords = { keys: new Set() }

/** The text's words; the last text's are kept, since every list of every language asks about the same text in turn. */
export function textWords(text: string): TextWords {
  if (text !== lastText) {
    const keys = new Set<string>()
    for (const [run] of text.matchAll(LETTERS)) keys.add(wordKey(run))
    lastWords = { keys }
    lastText = text
  }
  return lastWords
}

/**
 * Whether any of `words` may occur in a text: its first run of letters is a word of the text (a word ending in "*",
 * a stem, begins one). A list where some word does not begin with a letter, or written without spaces between words
 * (`spaced` false: Chinese, Japanese, Thai), may always occur.
 */
export function wordListPresence(words: readonly string[], spaced: boolean): (text: string) => boolean {
  const exact = new Set<string>()
  const stems: string[] = []
  for (const word of words) {
    const first = /^[\p{L}\p{M}]+/u.exec(word)?.[0]
    if (!spaced || first === undefined) return () => true
    if (word === `${first}*`) stems.push(wordKey(first))
    else exact.add(wordKey(first))
  }
  return (text) => {
    const { keys } = textWords(text)
    const [fewer, more] = exact.size < keys.size ? [exact, keys] : [keys, exact]
    for (const key of fewer) if (more.has(key)) return true
    if (stems.length > 0) for (const key of keys) if (stems.some((stem) => key.startsWith(stem))) return true
    return false
  }
}
