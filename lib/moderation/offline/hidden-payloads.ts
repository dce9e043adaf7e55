/**
 * Text hidden in an input by an encoding, a cipher or a word game, decoded, so that the offline prompt-injection engine
 * can judge what the input says as well as how it looks (an attack in base64 or binary has none of an attack's words).
 * Each decoder reads one family of encodings and gives back only what decodes to readable text; the engine judges every
 * decoding with the same model and keeps the highest score, so a harmless decoding (a percent-encoded search query, a
 * kids' Caesar puzzle) is judged as harmless text. What a decoding reveals is decoded again (base64 inside hex), up to
 * three encodings deep. Runs the same in Node and the browser (no Buffer: `atob` exists in both).
 */

import { LEET, normalizeCharacters, normalizeObfuscation } from './deobfuscate'

/** Characters from codes, without spreading a long list into one call's arguments. */
const fromCodes = (codes: readonly number[]) => codes.map((code) => String.fromCharCode(code)).join('')

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{Zs}\p{S}\n\r\t]+$/u

/** Nothing unprintable: a decoding that may hold another encoding (hex inside base64), worth decoding again. */
const printable = (decoded: string) => decoded.length >= 8 && PRINTABLE.test(decoded)

/** Printable and most of it letters: a decoding worth judging, not bytes that happened to decode. */
function readable(decoded: string): boolean {
  return printable(decoded) && (decoded.match(/\p{L}/gu) ?? []).length >= decoded.length * 0.6
}

function utf8(bytes: number[]): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes))
  } catch {
    return undefined
  }
}

/** English words common in instructions: a decoding that yields several of them is text, not chance. */
const COMMON_WORD_LIST = [
  'the', 'and', 'you', 'your', 'all', 'to', 'of', 'a', 'is', 'are', 'ignore', 'previous', 'instruction', 'instructions', 'system', 'prompt',
  'reveal', 'print', 'say', 'tell', 'me', 'password', 'secret', 'key', 'rules', 'now', 'with', 'for', 'output', 'show',
  // English function words, so that a decoded order without the words above reads as English too.
  'this', 'that', 'it', 'in', 'on', 'at', 'by', 'as', 'an', 'be', 'or', 'not', 'no', 'do', 'if', 'my', 'we', 'from', 'then', 'please',
]
const COMMON_WORDS = new RegExp(`\\b(?:${COMMON_WORD_LIST.join('|')})\\b`, 'giu')

const commonWordCount = (text: string) => (text.match(COMMON_WORDS) ?? []).length

function englishEnough(text: string): boolean {
  const words = text.match(/\p{L}+/gu) ?? []
  return words.length >= 3 && commonWordCount(text) >= Math.max(2, words.length * 0.25)
}

// Encodings of bytes: base64, base32, hex, binary, ascii85.

/** Base64, or base64url ("-" and "_" for "+" and "/"). */
function fromBase64(run: string): string | undefined {
  const body = run.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/')
  try {
    const binary = atob(body.padEnd(Math.ceil(body.length / 4) * 4, '='))
    return utf8([...binary].map((c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** RFC 4648 base32 (upper or lower case); the bits left over at the end are padding. */
function fromBase32(run: string): string | undefined {
  let bits = 0
  let value = 0
  const bytes: number[] = []
  for (const c of run.replace(/=+$/, '').toUpperCase()) {
    value = (value << 5) | BASE32_ALPHABET.indexOf(c)
    bits += 5
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return utf8(bytes)
}

/** Adobe's ascii85 (between "<~" and "~>" or bare): four bytes in five characters from "!" to "u", "z" for four zeros. */
function fromAscii85(run: string): string | undefined {
  const body = run.replace(/^<~|~>$/g, '').replace(/\s+/g, '').replace(/z/g, '!!!!!')
  if (!/^[!-u]+$/.test(body)) return undefined
  const bytes: number[] = []
  for (let i = 0; i < body.length; i += 5) {
    const group = body.slice(i, i + 5)
    const padded = group.padEnd(5, 'u')
    let value = 0
    for (const c of padded) value = value * 85 + (c.charCodeAt(0) - 33)
    if (value > 0xffffffff) return undefined
    const four = [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]
    bytes.push(...four.slice(0, group.length - 1))
  }
  return utf8(bytes)
}

/** Hex bytes decoded; a word of hex letters just before or after the run ("decode", "be") is tried without its byte. */
function fromHex(run: string): string | undefined {
  const bytes = run.replace(/0x|[\s:,]/gi, '').match(/../g)!.map((h) => parseInt(h, 16))
  for (const [start, end] of [[0, bytes.length], [1, bytes.length], [0, bytes.length - 1], [1, bytes.length - 1]] as const) {
    const decoded = utf8(bytes.slice(start, end))
    if (decoded !== undefined) return decoded
  }
  return undefined
}

function byteEncodings(text: string): string[] {
  const decoded: (string | undefined)[] = []
  // A run wrapped over lines (base64 at 76 characters) is read as one.
  const unwrapped = text.replace(/(?<=[A-Za-z0-9+/_-]{16})\r?\n(?=[A-Za-z0-9+/_-]{4})/g, '')
  for (const run of unwrapped.match(/[A-Za-z0-9+/_-]{16,}={0,2}/g) ?? []) decoded.push(fromBase64(run))
  for (const run of unwrapped.match(/\b(?:[A-Z2-7]{16,}|[a-z2-7]{16,})={0,6}/g) ?? []) decoded.push(fromBase32(run))
  // Hex bytes, run together or apart ("69 67", "69:67", "0x69, 0x67"), starting where no word goes on.
  for (const run of text.match(/(?<![0-9a-z])(?:(?:0x)?[0-9a-f]{2}(?:,\s?|[\s:])?){8,}/gi) ?? []) decoded.push(fromHex(run))
  // Bytes in binary, eight bits each, or ASCII in seven bits with a separator after each.
  for (const run of text.match(/(?<![01])(?:[01]{8}[\s,;]*){4,}/g) ?? []) decoded.push(utf8(run.match(/[01]{8}/g)!.map((b) => parseInt(b, 2))))
  for (const run of text.match(/(?<![01])(?:[01]{7}[\s,;]+){4,}[01]{7}(?![01])/g) ?? []) decoded.push(fromCodes(run.match(/[01]{7}/g)!.map((b) => parseInt(b, 2))))
  for (const run of text.match(/<~[\s!-u]{10,}~>|(?<!\S)(?=[!-u]*[^\w\s])[!-u]{20,}(?!\S)/g) ?? []) decoded.push(fromAscii85(run))
  return decoded.filter((d): d is string => d !== undefined && printable(d))
}

// Character codes and escapes: decimal or octal codes, %XX, &#NN;, \uXXXX.

/**
 * A run of eight or more numbers of two to four digits: characters by their codes, in decimal (any script: "1048" is
 * "И") or in octal ("0o151").
 */
function characterCodes(text: string): string[] {
  const decoded: string[] = []
  for (const run of text.match(/(?<![\d.])(?:(?:0o)?\d{2,4}[\s,;]+){7,}(?:0o)?\d{2,4}(?![\d.])/g) ?? []) {
    const numbers = run.split(/[\s,;]+/).map((n) => n.replace(/^0o/, ''))
    for (const base of run.includes('0o') ? [8] : [10, 8]) {
      const codes = numbers.map((n) => parseInt(n, base))
      if (codes.every((code) => code >= 32 && (code < 127 || code > 159))) decoded.push(codes.map((code) => codePoint(code) ?? '\ufffd').join(''))
    }
  }
  return decoded.filter(printable)
}

/** A run of byte escapes (\\x69, \\151) read as UTF-8, or as one character each when it is no UTF-8. */
function escapedBytes(run: string, escape: RegExp, base: number): string {
  const bytes = [...run.matchAll(escape)].map((m) => parseInt(m[1]!, base))
  return utf8(bytes) ?? fromCodes(bytes)
}

// One escape of each kind, its value captured; an escape escaped once more ("\\u0043", as JSON writes a string holding
// one) is one escape.
const PERCENT = /%([0-9a-f]{2})/gi
const ENTITY = /&#(\d{1,7}|x[0-9a-f]{1,6});?/gi
const PERCENT_U = /%u([0-9a-f]{4})/gi
const OCTAL_BYTE = /\\+([0-3][0-7]{2})/g
const HEX_BYTE = /\\+x([0-9a-f]{2})/gi
const CHARACTER_ESCAPE = /\\+(?:u([0-9a-f]{4})|u\{([0-9a-f]{1,6})\})/gi

/** The kinds of escapes, each with its escapes and what undoes them in a text. */
const ESCAPES: { escapes: RegExp[]; decode: (text: string) => string }[] = [
  {
    // Percent-encoding, each run of escapes as UTF-8 bytes; a run that is no UTF-8 ("%FF") is left as it is.
    escapes: [PERCENT],
    decode: (text) =>
      text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
        try {
          return decodeURIComponent(run)
        } catch {
          return run
        }
      }),
  },
  {
    // HTML's numeric character references, decimal or hex, with their semicolon or, as browsers read them, without.
    escapes: [ENTITY],
    decode: (text) => text.replace(ENTITY, (entity, code: string) => codePoint(code[0] === 'x' || code[0] === 'X' ? parseInt(code.slice(1), 16) : parseInt(code, 10)) ?? entity),
  },
  {
    // The old JavaScript escape() form: %u0069.
    escapes: [PERCENT_U],
    decode: (text) => text.replace(PERCENT_U, (escape, code: string) => codePoint(parseInt(code, 16)) ?? escape),
  },
  {
    // C and Python byte escapes, in octal (\151) or hex (\x69): each run as UTF-8 bytes.
    escapes: [OCTAL_BYTE, HEX_BYTE],
    decode: (text) =>
      text
        .replace(/(?:\\+[0-3][0-7]{2})+/g, (run) => escapedBytes(run, OCTAL_BYTE, 8))
        .replace(/(?:\\+x[0-9a-f]{2})+/gi, (run) => escapedBytes(run, HEX_BYTE, 16)),
  },
  {
    // JavaScript, JSON and Python escapes of characters: \u0069, \u{69}.
    escapes: [CHARACTER_ESCAPE],
    decode: (text) => text.replace(CHARACTER_ESCAPE, (escape, u4?: string, braced?: string) => codePoint(parseInt((u4 ?? braced)!, 16)) ?? escape),
  },
]

function codePoint(code: number): string | undefined {
  return code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : undefined
}

/** Four escapes or more in the text, of one kind or mixed ("Ign%6Fre all prev&#105;ous"): the text with all undone. */
function escapedText(text: string): string[] {
  const counts = ESCAPES.map(({ escapes }) => escapes.reduce((count, escape) => count + (text.match(escape) ?? []).length, 0))
  const present = ESCAPES.filter((_, i) => counts[i]! > 0)
  if (counts.reduce((a, b) => a + b, 0) < 4) return []
  const plain = present.reduce((decoded, { decode }) => decode(decoded), text)
  return plain !== text ? [plain] : []
}

// Characters hidden in plain sight: Unicode tag characters, Morse code.

/** Unicode's tag characters (U+E0020-U+E007E) mirror ASCII and show as nothing: text smuggled beside a visible one. */
function tagCharacters(text: string): string[] {
  return (text.match(/[\u{e0020}-\u{e007e}]{4,}/gu) ?? []).map((run) => fromCodes([...run].map((c) => c.codePointAt(0)! - 0xe0000))).filter(printable)
}

const MORSE: Record<string, string> = {
  '.-': 'a', '-...': 'b', '-.-.': 'c', '-..': 'd', '.': 'e', '..-.': 'f', '--.': 'g', '....': 'h', '..': 'i', '.---': 'j', '-.-': 'k', '.-..': 'l', '--': 'm',
  '-.': 'n', '---': 'o', '.--.': 'p', '--.-': 'q', '.-.': 'r', '...': 's', '-': 't', '..-': 'u', '...-': 'v', '.--': 'w', '-..-': 'x', '-.--': 'y', '--..': 'z',
}

function morse(text: string): string[] {
  // Dots and dashes as other marks write them ("·", "−" the minus sign, "_"); dashes of punctuation ("–", "—") stay.
  const marks = /[·•∙−_]/.test(text) ? text.replace(/[·•∙]/g, '.').replace(/[−_]/g, '-') : text
  return (marks.match(/(?:[.-]{1,5}[ /]+){5,}[.-]{1,5}/g) ?? []).map((run) =>
    run.split(/\s*\/\s*|\s{2,}/).map((word) => word.trim().split(/\s+/).map((code) => MORSE[code] ?? '').join('')).join(' '),
  )
}

// Letters rewritten: Caesar shifts (ROT13 among them), atbash, words or clauses spelled backwards.

const shiftLetters = (text: string, shift: number) =>
  text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97
    return String.fromCharCode(((c.charCodeAt(0) - base + shift) % 26) + base)
  })
const atbash = (text: string) => text.replace(/[a-z]/gi, (c) => String.fromCharCode((c <= 'Z' ? 155 : 219) - c.charCodeAt(0)))
const reversed = (text: string) => [...text].reverse().join('')

/** A way of rewriting letters: `hide` as a writer applies it, `decode` to undo it. */
type LetterGame = { hide: (text: string) => string; decode: (text: string) => string }
const LETTER_GAMES: LetterGame[] = [
  ...Array.from({ length: 25 }, (_, i) => ({ hide: (text: string) => shiftLetters(text, i + 1), decode: (text: string) => shiftLetters(text, 25 - i) })),
  { hide: atbash, decode: atbash },
  // The clause reversed, and each word reversed in its place: the words look the same hidden either way.
  { hide: reversed, decode: reversed },
  { hide: reversed, decode: (text) => text.replace(/\S+/gu, reversed) },
]
/**
 * The games that may have hidden each common word of two letters or more, by the word as hidden: a stretch holding two
 * or more words hidden by one game is decoded that way and kept when it reads as English (one lookup per word instead
 * of every game's decoding of every clause; a single letter is any letter under some game, so it is no sign).
 */
const GAMES_BY_HIDDEN_WORD = new Map<string, LetterGame[]>()
const COMMON_WORD_SET = new Set(COMMON_WORD_LIST)
for (const word of COMMON_WORD_LIST.filter((w) => w.length > 1)) {
  for (const game of LETTER_GAMES) {
    const hidden = game.hide(word)
    GAMES_BY_HIDDEN_WORD.set(hidden, [...(GAMES_BY_HIDDEN_WORD.get(hidden) ?? []), game])
  }
}
/** The longest stretch of a clause decoded by a letter game: an attack is a few sentences, and a whole book is not decoded 28 ways. */
const LONGEST_HIDDEN = 2000

function letterGames(text: string): string[] {
  const decoded: string[] = []
  // The hidden clause often follows a colon or sits in quotes: each clause is tried on its own.
  for (const clause of text.split(/[:\n"“”\u202a-\u202e\u2066-\u2069]+/u).map((c) => c.replace(/\p{Cf}/gu, ''))) {
    const votes = new Map<LetterGame, { count: number; first: number; end: number }>()
    for (const word of clause.matchAll(/[a-z]+/gi)) {
      const lower = word[0].toLowerCase()
      // A common word as it stands is plain text, whatever a game would make of it ("be" and "or" are each other in ROT13).
      if (COMMON_WORD_SET.has(lower)) continue
      for (const game of GAMES_BY_HIDDEN_WORD.get(lower) ?? []) {
        const vote = votes.get(game) ?? { count: 0, first: word.index, end: 0 }
        vote.count++
        vote.end = word.index + word[0].length
        votes.set(game, vote)
      }
    }
    for (const game of LETTER_GAMES) {
      const vote = votes.get(game)
      if (!vote || vote.count < 2) continue
      // The whole clause, from its first hidden word on (after a lead-in in plain words), and from its first hidden word to
      // its last (plain words after too); each kept when the decoding reads as English and more so than what it decodes.
      const stretches = new Set([clause, clause.slice(vote.first), clause.slice(vote.first, vote.end)])
      for (const hidden of stretches) {
        if (hidden.length > LONGEST_HIDDEN) continue
        const plain = game.decode(hidden)
        if (englishEnough(plain) && commonWordCount(plain) > commonWordCount(hidden)) decoded.push(plain)
      }
    }
  }
  return decoded
}

/** Letters written one by one with the same separator between each: "I g n o r e", "n.o", "p-r-i-n-t". */
const SPELLED_RUN = /(?<![\p{L}\p{N}])\p{L}([ .\-_*|])\p{L}(?![\p{L}\p{N}])(?:\1\p{L}(?![\p{L}\p{N}]))*/gu
/** What is left between two words so spelled, on one line: separators and a wider space ("e   a", "e. .a"). */
const SPELLED_GAP = /^[.\-_*,|]*[ \t]+[.\-_*,|]*$/

/** Runs of letters written one by one joined into words, and the gap between two such words made one space. */
function joinSpelledRuns(text: string): string {
  let joined = ''
  let last = 0
  let lastWasRun = false
  for (const run of text.matchAll(SPELLED_RUN)) {
    const between = text.slice(last, run.index)
    joined += lastWasRun && SPELLED_GAP.test(between) ? ' ' : between
    joined += run[0].replace(/[ .\-_*|]/g, '')
    last = run.index + run[0].length
    lastWasRun = true
  }
  return joined + text.slice(last)
}

/** The characters of LEET as a character class's body. */
const leetClass = (keep: (c: string) => boolean) =>
  Object.keys(LEET)
    .filter(keep)
    .map((c) => c.replace(/[\]\\^-]/g, '\\$&'))
    .join('')
const LEET_DIGIT = new RegExp(`[${leetClass((c) => /\d/.test(c))}]`)
const LEET_SYMBOL_INSIDE = new RegExp(`(?<=[\\p{L}\\p{N}])[${leetClass((c) => !/\d/.test(c))}](?=[\\p{L}\\p{N}])`, 'u')
const LEET_ANY = new RegExp(`[${leetClass(() => true)}]`, 'gu')
/** A token of letters, digits and the symbols read as letters. */
const LEET_TOKEN = new RegExp(`[\\p{L}\\p{N}${leetClass((c) => !/\d/.test(c))}]+`, 'gu')

/**
 * A token read as leetspeak: every character a letter or one read as a letter, a digit or a symbol between letters, and
 * two letters at least (hex codes such as "X75" stay as they are) in at most 24 characters (so do hashes and base64).
 */
function leetWord(token: string): string {
  if (token.length > 24 || (!LEET_DIGIT.test(token) && !LEET_SYMBOL_INSIDE.test(token))) return token
  if ((token.match(/\p{L}/gu) ?? []).length < 2) return token
  const letters = token.replace(LEET_ANY, (c) => LEET[c]!)
  return /^\p{L}+$/u.test(letters) ? letters : token
}

/**
 * The text read as a writer hiding words from a filter would have it read (deobfuscate.ts undoes the same more
 * cautiously, for every text): letters written one by one are joined and the gaps between the words so written become
 * spaces, marks put inside words ("For#get") are dropped, and every token of letters and leetspeak characters is read
 * as letters ("1n5truct10n5", "pr3v10u5"). Kept when that changed the text.
 */
function spelledOut(text: string): string[] {
  const surface = normalizeCharacters(text)
  const plain = normalizeObfuscation(joinSpelledRuns(surface))
    .replace(/(?<=\p{L})[#^~`]+(?=\p{L})/gu, '')
    .replace(LEET_TOKEN, leetWord)
  return plain !== surface ? [plain] : []
}

/** A decoding, and whether the engine judges it (bytes that decode to symbols are only decoded again). */
type Decoding = { text: string; judged: boolean }

/** Every decoder's decodings of `text`; the spelled-out reading only of the input itself (`first`), not of a decoding. */
function decodings(text: string, first: boolean): Decoding[] {
  const bytes = [...byteEncodings(text), ...characterCodes(text), ...tagCharacters(text)].map((decoded) => ({ text: decoded, judged: readable(decoded) }))
  const rewritten = [...escapedText(text), ...morse(text), ...letterGames(text), ...(first ? spelledOut(text) : [])].map((decoded) => ({ text: decoded, judged: true }))
  return [...bytes, ...rewritten]
}

/** How many encodings deep a text is decoded (a decoding decoded again). */
const DECODING_DEPTH = 3
/**
 * How much decoded text one input may give, in characters, beyond three times its own length: many short decodings (a
 * list of base64 fields, one an attack) are all read, while full-length rewritings of a long text stop after a few.
 */
const DECODED_CHARACTERS = 20000
/** Decodings judged one by one; the rest are judged together, a window of lines at a time (each judgement is a model run). */
const JUDGED_ALONE = 64
const WINDOW = 2000

/** Decodings past JUDGED_ALONE packed into windows of lines, so that none is left unjudged however many come first. */
function packed(judged: string[]): string[] {
  if (judged.length <= JUDGED_ALONE) return judged
  const windows: string[] = []
  let window = ''
  for (const decoded of judged.slice(JUDGED_ALONE)) {
    if (window && window.length + decoded.length + 1 > WINDOW) {
      windows.push(window)
      window = ''
    }
    window = window ? `${window}\n${decoded}` : decoded
  }
  return [...judged.slice(0, JUDGED_ALONE), ...windows, window]
}

/** Texts hidden in the input by an encoding, a cipher or a word game, decoded (each once); empty when there are none. */
export function decodedPayloads(text: string): string[] {
  const budget = DECODED_CHARACTERS + 3 * text.length
  const seen = new Set<string>([text])
  const judged: string[] = []
  let spent = 0
  let level = [text]
  for (let depth = 0; depth < DECODING_DEPTH && level.length > 0 && spent <= budget; depth++) {
    const next: string[] = []
    for (const encoded of level) {
      if (spent > budget) break
      for (const decoding of decodings(encoded, depth === 0)) {
        if (seen.has(decoding.text)) continue
        seen.add(decoding.text)
        spent += decoding.text.length
        if (decoding.judged) judged.push(decoding.text)
        next.push(decoding.text)
      }
    }
    level = next
  }
  return packed(judged)
}
