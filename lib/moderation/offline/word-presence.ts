/**
 * Whether a list of words can occur in a text as whole words, asked of the text's words instead of a regular
 * expression. The word lists of the prompt-injection features (29 languages, hundreds of lists) were each a
 * case-insensitive regular expression tried at every position of every text: about 40% of the engine's time on a
 * text of a few hundred characters. The answer here is a superset of the expression's: a list that "may occur" is
 * then read by its expression as before, so no answer changes; one that cannot occur costs one flag. The text's words
 * are looked up once for every list (listsIn).
 *
 * Sound because a word that a case-insensitive Unicode expression ('iu': simple case folding, letter by letter) takes
 * for a listed word has the same key, letter for letter, and is letters too (`letterKey`;
 * tests/unit/offline-engines/word-presence.test.ts checks every letter of every list, and every ASCII letter, against
 * every code point), and a listed word's first run of letters stands between non-letters in any text it is found in
 * (the lists' expressions ask for word boundaries).
 */

const LETTERS = /[\p{L}\p{M}]+/gu
const ASCII = /^[\x00-\x7f]*$/

const letterKeys = new Map<string, string>()
/**
 * Letters that simple case folding joins but whose upper and lower cases do not (they have no one-letter upper case):
 * each to its partner's key.
 */
const FOLDED_TOGETHER: Record<string, string> = { '\u1fd3': '\u0390', '\u1fe3': '\u03b0', '\ufb05': '\ufb06' }

/**
 * One code point's key: the lower case of its upper case ("ς", "Σ" and "σ" are all "σ"; the Kelvin sign is "k"),
 * where each is one code point; else its own lower case; else itself ("İ"). Keys may join letters that the
 * expressions keep apart ("ı" and "i"): that only lets more lists through to their expressions. Bounded: one entry
 * per code point met.
 */
export function letterKey(letter: string): string {
  let key = letterKeys.get(letter)
  if (key === undefined) {
    const folded = FOLDED_TOGETHER[letter] ?? letter
    const upper = folded.toUpperCase()
    const lower = (oneCodePoint(upper) ? upper : folded).toLowerCase()
    key = oneCodePoint(lower) ? lower : oneCodePoint(folded.toLowerCase()) ? folded.toLowerCase() : folded
    letterKeys.set(letter, key)
  }
  return key
}

const oneCodePoint = (s: string) => s.length === 1 || (s.length === 2 && s.codePointAt(0)! > 0xffff)

/** A run of letters' key (or any text's, character by character): each letter's key. */
export function wordKey(word: string): string {
  if (ASCII.test(word)) return word.toLowerCase()
  let key = ''
  for (const letter of word) key += letterKey(letter)
  return key
}

/**
 * Every list's words by key, each with the lists it begins a word of: a text's words are looked up once, and then
 * whether a list may occur in it is one flag.
 */
const listsByKey = new Map<string, number[]>()
/** Lists' stems ("nutzer*"): a text's word that begins with one marks its list. */
const stems: { stem: string; list: number }[] = []
let lists = 0

let lastText: string | undefined
let lastLists = 0
let present = new Uint8Array(0)

/** Which lists may occur in the text; the last text's answer is kept, since every list asks about the same text in turn. */
function listsIn(text: string): Uint8Array {
  if (text !== lastText || lastLists !== lists) {
    present = new Uint8Array(lists)
    const keys = new Set<string>()
    for (const [run] of text.matchAll(LETTERS)) keys.add(wordKey(run))
    for (const key of keys) {
      for (const list of listsByKey.get(key) ?? []) present[list] = 1
      for (const { stem, list } of stems) if (key.startsWith(stem)) present[list] = 1
    }
    lastText = text
    lastLists = lists
  }
  return present
}

/**
 * Whether any of `words` may occur in a text: its first run of letters is a word of the text (a word ending in "*",
 * a stem, begins one). A list where some word does not begin with a letter, or written without spaces between words
 * (`spaced` false: Chinese, Japanese, Thai), may always occur.
 */
export function wordListPresence(words: readonly string[], spaced: boolean): (text: string) => boolean {
  const firsts = words.map((word) => /^[\p{L}\p{M}]+/u.exec(word)?.[0])
  if (!spaced || firsts.some((first) => first === undefined)) return () => true
  const list = lists++
  words.forEach((word, i) => {
    const first = firsts[i]!
    if (word === `${first}*`) stems.push({ stem: wordKey(first), list })
    else {
      const key = wordKey(first)
      const known = listsByKey.get(key)
      if (!known) listsByKey.set(key, [list])
      else if (known.at(-1) !== list) known.push(list)
    }
  })
  return (text) => listsIn(text)[list] === 1
}
