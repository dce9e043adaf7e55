/**
 * Undoing the obfuscations people use to slip words past filters, before the offline toxicity
 * and prompt-injection engines look at a text. Runs the same in Node and the browser (no
 * Buffer: `atob` exists in both).
 *
 * `normalizeObfuscation` rewrites the surface: compatibility forms (full-width, ligatures,
 * mathematical letters) by NFKC, invisible format characters removed, look-alike Cyrillic and
 * Greek letters inside Latin words mapped to Latin, letters spaced or dotted apart joined,
 * leetspeak digits and symbols inside words mapped to letters, and masked or respelled swear words
 * ("f***", "sh!t", "a$$hole", "dckhead", "fuuuck", "phuck", "fvck") restored. `decodedPayloads` finds text hidden in an
 * encoding (base64, hex, ROT13, reversed, Morse) and returns what it decodes to.
 */

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
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i', '|': 'l', '€': 'e' }

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

/** E-mail addresses and URLs keep their "@", dots and digits: they are left as they are. */
const ADDRESS = /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?:https?:\/\/|www\.)\S+/giu

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

const LEET_CHARACTER = /[0134578@$!|€]/

function unmask(piece: string): string {
  // "f u c k", "f.u.c.k", "k-i-l-l": three or more single letters with one separator kind between them
  // (a leading "a" or "I" stays a word: "you are a f u c k i n g ...").
  let text = piece.replace(/(?<![\p{L}\p{N}])\p{L}(?:[ .\-_*] ?\p{L}(?![\p{L}\p{N}])){2,}/gu, (run) => {
    const joined = run.replace(/[ .\-_*]/g, '')
    return /^[aAiI] /.test(run) && joined.length >= 5 ? `${run[0]} ${joined.slice(1)}` : joined
  })
  text = text.replace(MASKED, (masked) => MASKED_EACH.find(([, pattern]) => pattern.test(masked))?.[0] ?? masked)
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

export function normalizeObfuscation(input: string): string {
  const text = normalizeCharacters(input)
  let result = ''
  let last = 0
  for (const address of text.matchAll(ADDRESS)) {
    result += unmask(text.slice(last, address.index)) + address[0]
    last = address.index + address[0].length
  }
  return result + unmask(text.slice(last))
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{Zs}\p{S}\n\r\t]+$/u

function readable(decoded: string): boolean {
  return decoded.length >= 8 && PRINTABLE.test(decoded) && (decoded.match(/\p{L}/gu) ?? []).length >= decoded.length * 0.6
}

function utf8(bytes: number[]): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes))
  } catch {
    return undefined
  }
}

function fromBase64(run: string): string | undefined {
  try {
    const binary = atob(run.replace(/=+$/, '').padEnd(Math.ceil(run.replace(/=+$/, '').length / 4) * 4, '='))
    return utf8([...binary].map((c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
}

function rot13(text: string): string {
  return text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base)
  })
}

const MORSE: Record<string, string> = {
  '.-': 'a', '-...': 'b', '-.-.': 'c', '-..': 'd', '.': 'e', '..-.': 'f', '--.': 'g', '....': 'h', '..': 'i', '.---': 'j', '-.-': 'k', '.-..': 'l', '--': 'm',
  '-.': 'n', '---': 'o', '.--.': 'p', '--.-': 'q', '.-.': 'r', '...': 's', '-': 't', '..-': 'u', '...-': 'v', '.--': 'w', '-..-': 'x', '-.--': 'y', '--..': 'z',
}

/** English words common in instructions: a decoding that yields several of them is text, not chance. */
const COMMON_WORDS = /\b(?:the|and|you|your|all|to|of|a|is|are|ignore|previous|instructions?|system|prompt|reveal|print|say|tell|me|password|secret|key|rules|now|and|with|for|output|show)\b/giu

function englishEnough(text: string): boolean {
  const words = text.match(/\p{L}+/gu) ?? []
  return words.length >= 3 && (text.match(COMMON_WORDS) ?? []).length >= Math.max(2, words.length * 0.25)
}

/** Texts hidden in the input by an encoding, decoded; empty when there are none. */
export function decodedPayloads(text: string): string[] {
  const found: string[] = []
  for (const run of text.match(/[A-Za-z0-9+/]{16,}={0,2}/g) ?? []) {
    const decoded = fromBase64(run)
    if (decoded && readable(decoded)) found.push(decoded)
  }
  for (const run of text.match(/(?:[0-9a-f]{2}[\s:]?){8,}/gi) ?? []) {
    const bytes = run.replace(/[\s:]/g, '').match(/../g)!.map((h) => parseInt(h, 16))
    const decoded = utf8(bytes)
    if (decoded && readable(decoded)) found.push(decoded)
  }
  const morse = text.match(/(?:[.-]{1,5}[ /]+){5,}[.-]{1,5}/g)
  for (const run of morse ?? []) found.push(run.split(/\s*\/\s*|\s{2,}/).map((word) => word.trim().split(/\s+/).map((code) => MORSE[code] ?? '').join('')).join(' '))
  // ROT13 and reversal hide a clause, often after a colon or in quotes: try each clause on its own.
  for (const clause of text.split(/[:\n"“”\u202a-\u202e\u2066-\u2069]+/u).map((c) => c.replace(/\p{Cf}/gu, ''))) {
    if (englishEnough(clause)) continue
    const rotated = rot13(clause)
    if (englishEnough(rotated)) found.push(rotated)
    const reversed = [...clause].reverse().join('')
    if (englishEnough(reversed)) found.push(reversed)
  }
  return found
}
