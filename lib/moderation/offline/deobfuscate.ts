/**
 * Undoing the obfuscations people use to slip words past filters, before the offline toxicity
 * and prompt-injection engines look at a text. Runs the same in Node and the browser.
 *
 * `normalizeObfuscation` rewrites the surface: compatibility forms (full-width, ligatures,
 * mathematical letters) by NFKC, invisible format characters removed, look-alike Cyrillic and
 * Greek letters inside Latin words mapped to Latin, letters spaced or dotted apart joined,
 * leetspeak digits and symbols inside words mapped to letters, and masked or respelled swear words
 * ("f***", "sh!t", "a$$hole", "dckhead", "fuuuck", "phuck", "fvck") restored. Text hidden in an encoding is found by
 * hidden-payloads.ts.
 */

import { ADDRESSES } from './addresses'
import { wordKey } from './word-presence'

/** Cyrillic and Greek letters drawn like Latin ones (Unicode confusables, lowercase and uppercase). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ӏ: 'l', ԛ: 'q', ԝ: 'w', ɡ: 'g',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S',
  α: 'a', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
}
/** Any letter of HOMOGLYPHS: a text without one has no look-alike to map. */
const HOMOGLYPH = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'u')
/** Digits and symbols written for letters in leetspeak. */
export const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i', '|': 'l', '€': 'e' }

/** Swear words people mask; each letter after the first may be masked by a symbol, vowels may be dropped. */
const MASKED_WORDS = ['fuck', 'fucking', 'fucker', 'fucked', 'shit', 'shitty', 'shithead', 'bullshit', 'bitch', 'asshole', 'bastard', 'cunt', 'dick', 'dickhead', 'whore', 'slut', 'pussy', 'cock', 'motherfucker', 'nigger', 'faggot', 'retard', 'idiot', 'moron', 'loser', 'stupid', 'die', 'kill', 'twat', 'wanker', 'prick', 'dumbass', 'jackass']
const MASK = '[*#@$%!_.\\-]'
const maskedPattern = (word: string) =>
  [...word].map((c, i) => (i === 0 ? c : /[aeiou]/.test(c) ? `(?:${c}|${MASK}+)?` : `(?:${c}|${MASK}+)`)).join('')
const MASKED = new RegExp(`(?<![\\p{L}\\p{N}])(?:${MASKED_WORDS.map(maskedPattern).join('|')})(?![\\p{L}\\p{N}])`, 'giu')
const MASKED_EACH = MASKED_WORDS.map((word) => [word, new RegExp(`^${maskedPattern(word)}$`, 'iu')] as const)

/** The ways a masked word is written in letters alone: each vowel after the first letter kept or dropped ("fck", "fuck"). */
function spellings(word: string): string[] {
  return [...word].reduce<string[]>((written, c, i) => written.flatMap((w) => (i > 0 && /[aeiou]/.test(c) ? [w + c, w] : [w + c])), [''])
}
/**
 * The masked words by the keys of their spellings (word-presence.ts: a word of letters alone that a pattern matches is
 * one of its spellings letter for letter by key), in MASKED_WORDS' order: a respelled word is tried against the few
 * patterns that can match it, not all of them.
 */
const MASKED_BY_SPELLING = new Map<string, (typeof MASKED_EACH)[number][]>()
for (const masked of MASKED_EACH) {
  for (const key of new Set(spellings(masked[0]).map(wordKey))) MASKED_BY_SPELLING.set(key, [...(MASKED_BY_SPELLING.get(key) ?? []), masked])
}

/**
 * Typographic quotes as a keyboard types them: phones and word processors turn "don't" into "don’t"
 * and "quoted" into “quoted”, and the engines' word lists and patterns are written with the plain forms.
 */
const TYPOGRAPHIC_QUOTES: Record<string, string> = { '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u02bc': "'", '\u2032': "'", '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"' }
const TYPOGRAPHIC_QUOTE = new RegExp(`[${Object.keys(TYPOGRAPHIC_QUOTES).join('')}]`, 'g')

/**
 * Compatibility forms folded, typographic quotes made plain, invisible format characters removed,
 * look-alike letters inside Latin words made Latin.
 */
export function normalizeCharacters(input: string): string {
  const text = input
    .normalize('NFKC')
    .replace(/[\p{Cf}\u034f\u115f\u1160\u3164\uffa0]/gu, '')
    .replace(TYPOGRAPHIC_QUOTE, (quote) => TYPOGRAPHIC_QUOTES[quote]!)
  if (!HOMOGLYPH.test(text)) return text
  // Look-alikes only inside words that also hold Latin letters, so Russian or Greek text stays itself.
  return text.replace(/[\p{L}\p{M}]+/gu, (word) => (/[a-z]/i.test(word) && /[^\p{Script=Latin}]/u.test(word) ? [...word].map((c) => HOMOGLYPHS[c] ?? c).join('') : word))
}

/**
 * Spellings that sound or look like a masked word: letters drawn out ("fuuuuck", "diiie"), "ph" for "f"
 * ("phuck"), "v" or "oo" for "u" ("fvck", "stoopid"). A variant counts only when it is one of the masked words, so "phone"
 * and "cooool" stay as they are.
 */
const RESPELLABLE = /(\p{L})\1{2}|ph|v|oo/u

function respelled(word: string): string {
  const lower = word.toLowerCase()
  // Most words have none of what a respelling changes: every variant below would be the word itself.
  if (!RESPELLABLE.test(lower)) return word
  const collapsed = [lower.replace(/(\p{L})\1{2,}/gu, '$1'), lower.replace(/(\p{L})\1{2,}/gu, '$1$1')]
  const variants = collapsed.flatMap((w) => [w, w.replace(/ph/g, 'f'), w.replace(/v/g, 'u'), w.replace(/ph/g, 'f').replace(/v/g, 'u'), w.replace(/oo/g, 'u')])
  for (const variant of variants) {
    if (variant === lower) continue
    const found = MASKED_BY_SPELLING.get(wordKey(variant))?.find(([, pattern]) => pattern.test(variant))
    if (found) return found[0]
  }
  return word
}

/** Spellings of a masked word without its vowels that are words or abbreviations of their own ("cnt" for count). */
const EVERYDAY_SPELLINGS = new Set(['cnt', 'morn'])

/**
 * The masked word a match of MASKED stands for, or the match as it is where it is no masking: a full stop after it ends
 * a sentence or an abbreviation and masks no letter ("Mr." is no "moron"), and a spelling in letters alone needs three
 * of them and not to be a word of its own ("d" and "de" are no "die", "cnt" is no insult).
 */
function unmasked(masked: string): string {
  // One full stop; two or more dots stay a mask ("f...", "sh..").
  const word = masked.replace(/(?<!\.)\.$/, '')
  if (/^\p{L}*$/u.test(word) && (word.length < 3 || EVERYDAY_SPELLINGS.has(word.toLowerCase()))) return masked
  const found = MASKED_EACH.find(([, pattern]) => pattern.test(word))
  return found ? found[0] + masked.slice(word.length) : masked
}

const LEET_CHARACTER = /[0134578@$!|€]/

function unmask(piece: string): string {
  // "f u c k", "f.u.c.k", "k-i-l-l": three or more single letters with one separator kind between them
  // (a leading "a" or "I" stays a word: "you are a f u c k i n g ...").
  let text = piece.replace(/(?<![\p{L}\p{N}])\p{L}(?:[ .\-_*] ?\p{L}(?![\p{L}\p{N}])){2,}/gu, (run) => {
    const joined = run.replace(/[ .\-_*]/g, '')
    return /^[aAiI] /.test(run) && joined.length >= 5 ? `${run[0]} ${joined.slice(1)}` : joined
  })
  text = text.replace(MASKED, unmasked)
  // Leetspeak inside word-like tokens with few digits (so hashes, versions and times stay as they are).
  const unleeted = text.replace(/[\p{L}\p{N}@$!|€]+/gu, (token) => {
    // Most tokens hold none of the characters read as letters.
    if (!LEET_CHARACTER.test(token)) return token
    const letters = (token.match(/\p{L}/gu) ?? []).length
    const others = token.length - letters
    if (letters < 2 || others > Math.max(2, letters / 2) || /^\p{N}/u.test(token) && /\p{N}{2}/u.test(token)) return token
    return token.replace(/(?<=\p{L})[0134578@$!|€]+(?=\p{L})|(?<=\p{L}{3})[0134578$|€](?![\p{L}\p{N}])|(?<![\p{L}\p{N}])[0134578@$|€](?=\p{L}{3})/gu, (run) =>
      [...run].map((c) => LEET[c] ?? c).join(''),
    )
  })
  return unleeted.replace(/\p{L}{3,}/gu, respelled)
}

let lastInput: string | undefined
let lastOutput = ''

/**
 * The input with every obfuscation above undone. The last input's answer is kept: the engines ask for the same text
 * more than once (toxicity's features and n-grams; prompt injection's phrase features and its spelled-out reading).
 */
export function normalizeObfuscation(input: string): string {
  if (input !== lastInput) {
    lastOutput = undoObfuscation(input)
    lastInput = input
  }
  return lastOutput
}

function undoObfuscation(input: string): string {
  const text = normalizeCharacters(input)
  let result = ''
  let last = 0
  // E-mail addresses and links keep their "@", dots and digits: they are left as they are.
  for (const address of text.matchAll(ADDRESSES)) {
    result += unmask(text.slice(last, address.index)) + address[0]
    last = address.index + address[0].length
  }
  return result + unmask(text.slice(last))
}
