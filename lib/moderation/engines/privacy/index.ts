import type { ModerationEngine, PiiEntity } from '../types'
import { contextNear, contextSupports, enhanceWithContext, wordsOf, type Word } from './context'
import { findNamedEntities, NAME_TYPES } from './names'
import { firstIndexPast } from './pattern'
import { PATTERN_RECOGNIZERS, PHONE_OWN_CONTEXT, PHONE_RECOGNIZER, type Finding, type Recognizer } from './recognizers'

/** The toolkit calls Presidio's analyzer with score_threshold=0.5. */
const SCORE_THRESHOLD = 0.5

/**
 * Findings sorted by where they begin, so that those containing a given finding are found without reading them all: a
 * container begins at or before it and no further back than the longest finding's length. A long text can hold
 * thousands of findings (49,000 characters of "AB1234563 " hold 9,800), and comparing every pair took seconds.
 */
class SpanIndex {
  private readonly sorted: Finding[]
  private readonly longest: number

  constructor(findings: Finding[]) {
    this.sorted = [...findings].sort((a, b) => a.begin - b.begin)
    this.longest = findings.reduce((longest, f) => Math.max(longest, f.end - f.begin), 0)
  }

  /** Whether a finding other than `inner` that `accepts` contains it. */
  someContaining(inner: Finding, accepts: (outer: Finding) => boolean): boolean {
    // The findings that begin at or before `inner` come first.
    const low = firstIndexPast(this.sorted, (finding) => finding.begin > inner.begin)
    for (let i = low - 1; i >= 0 && this.sorted[i].begin >= inner.end - this.longest; i--) {
      const outer = this.sorted[i]
      if (outer !== inner && outer.end >= inner.end && accepts(outer)) return true
    }
    return false
  }
}

/**
 * Presidio's remove_duplicates: a finding inside a better one of the same type is dropped. Dropping is transitive (a
 * finding inside a dropped one is inside the better one that dropped it), so a finding stays exactly when no better
 * finding of its type contains it.
 */
function removeDuplicates(findings: Finding[]): Finding[] {
  const ranked = [...findings].sort((a, b) => b.score - a.score || a.begin - b.begin || b.end - b.begin - (a.end - a.begin))
  const rank = new Map(ranked.map((finding, i) => [finding, i]))
  const byType = new Map<string, Finding[]>()
  for (const finding of ranked) {
    const members = byType.get(finding.type)
    if (members) members.push(finding)
    else byType.set(finding.type, [finding])
  }
  const indexes = new Map([...byType].map(([type, members]) => [type, new SpanIndex(members)]))
  return ranked.filter((finding) => !indexes.get(finding.type)!.someContaining(finding, (better) => rank.get(better)! < rank.get(finding)!))
}

/** Longest piece of text a pattern recogniser reads at once, and how much consecutive pieces share. */
export const PATTERN_WINDOW = 4096
const PATTERN_OVERLAP = 1024

/**
 * A recogniser's findings in a long text, read in overlapping pieces. Some patterns (e-mail addresses, URLs, IP
 * addresses, phone numbers) take more than linear time on long runs of the characters they are made of (49,000
 * characters of "1.1.1." took 6.5 s); on pieces they take linear time in all. A finding that touches a piece's edge
 * may continue past it, so it is taken from the piece that holds it whole: any entity shorter than PATTERN_OVERLAP
 * lies whole inside some piece away from its edges. A text up to PATTERN_WINDOW is read in one piece, as before.
 */
function findInPieces(recognizer: Recognizer, text: string): Finding[] {
  if (!recognizer.needs.test(text)) return []
  if (text.length <= PATTERN_WINDOW) return recognizer.find(text)
  const step = PATTERN_WINDOW - PATTERN_OVERLAP
  const found = new Map<string, Finding>()
  for (let start = 0; start < text.length; start += step) {
    const end = Math.min(text.length, start + PATTERN_WINDOW)
    for (const finding of recognizer.find(text.slice(start, end))) {
      const atEdge = (start > 0 && finding.begin === 0) || (end < text.length && finding.end === end - start)
      if (atEdge) continue
      const whole = { ...finding, begin: finding.begin + start, end: finding.end + start }
      found.set(`${whole.type} ${whole.begin} ${whole.end}`, whole)
    }
    if (end === text.length) break
  }
  return [...found.values()]
}

/** Types a bare run of digits is reported as once a context word names it (see claimedByAnother). */
const DIGIT_RUN_TYPES = new Set(['US_BANK_NUMBER', 'US_PASSPORT', 'US_DRIVER_LICENSE'])

/**
 * One run of digits read as two things, where one reading is surer:
 * - a phone number written without its country code that another finding also claims: the same digits after
 *   "passport number", "account number" or "NHS number" are that identifier, which the word before them names, and not
 *   also a phone number, which Presidio reports beside it because "number" is one of its phone context words. A word of
 *   the phone's own ("call", "phone", "mobile") keeps it;
 * - a bank account, passport or licence number (a run of digits that a context word reported) that a checksum shows to
 *   be another identifier: "debit card 4111 1111 1111 1111" is a card number.
 */
function claimedByAnother(text: string, finding: Finding, reported: SpanIndex, words: Word[]): boolean {
  const claimedBy = (accepts: (other: Finding) => boolean) => reported.someContaining(finding, (other) => other.type !== finding.type && accepts(other))
  if (finding.type === 'PHONE_NUMBER') {
    if (/^[+＋]/.test(text.slice(finding.begin, finding.end))) return false
    return claimedBy(() => true) && !contextSupports(finding, words, PHONE_OWN_CONTEXT)
  }
  return DIGIT_RUN_TYPES.has(finding.type) && claimedBy((other) => other.score === 1)
}

const INTERNATIONAL_PREFIX = /[+＋]/
const HAS_DIGIT = /\p{Nd}/u
/** What may open a phone number before its first digit (libphonenumber's LEAD_CLASS). */
const NUMBER_OPENING = /[+＋(（[［]/
/** Letters of the words that may introduce an extension ("ext", "extension", "extensión", "anexo", "доб", "ｅｘｔ", "int"). */
const EXTENSION_LETTER = /[extnsioóadбｅｘｔｎｉ]/iu
const LETTER = /\p{L}/u

/**
 * Whether a phone number could reach past `finding` into the text around it: a digit, or before it an opening bracket
 * or plus sign, with nothing between but separators and the letters of an extension's words (a number with an
 * extension, "555-1234 ext 4111 1111 1111 1111", takes digits after a word). A number that holds the finding and more
 * is not inside it, and is reported. Each side is read up to the first other letter or the first digit, so the
 * findings of a text are read in linear time together.
 */
function numberMayReachPast(text: string, finding: Finding): boolean {
  const reaches = (character: string) => HAS_DIGIT.test(character) || NUMBER_OPENING.test(character)
  const ends = (character: string) => LETTER.test(character) && !EXTENSION_LETTER.test(character)
  for (let i = finding.begin - 1; i >= 0; i--) {
    if (reaches(text[i]!)) return true
    if (ends(text[i]!)) break
  }
  for (let i = finding.end; i < text.length; i++) {
    if (HAS_DIGIT.test(text[i]!)) return true
    if (ends(text[i]!)) break
  }
  return false
}

/**
 * The text the phone search reads: the characters of each reported finding that would claim every local number inside
 * it (claimedByAnother: one with a digit, no plus sign and no word of the phone's own near it, such as a card number,
 * an IBAN or an IP address) turned into letters, when no number could reach past it (numberMayReachPast: "+31 612 34
 * 5678" holds an SSN-shaped "612 34 5678", "030 12.05.2023" a date). The numbers libphonenumber would find inside
 * those are all dropped later, and trying their digits as numbers of five regions (every try a thrown parse error) cost
 * more than the rest of the analysis of the text: 0.8-1.0 ms for "IBAN GB82 WEST 1234 5698 7654 32". The numbers found
 * are those of the whole text on every evaluation text (bench/offline/TUNING-issue18.md, twentieth round); the digits
 * hidden no longer count against libphonenumber's tries (PHONE_TRIES_PER_PIECE).
 */
export function phoneSearchText(text: string, findings: Finding[], words: Word[]): string {
  const claiming = findings.filter((finding) => {
    if (finding.score < SCORE_THRESHOLD) return false
    const value = text.slice(finding.begin, finding.end)
    if (!HAS_DIGIT.test(value) || INTERNATIONAL_PREFIX.test(value)) return false
    return !contextNear(finding.begin, finding.end, words, PHONE_OWN_CONTEXT) && !numberMayReachPast(text, finding)
  })
  if (claiming.length === 0) return text
  const characters = text.split('')
  for (const { begin, end } of claiming) characters.fill('a', begin, end)
  return characters.join('')
}

/** The findings of every pattern recogniser but the phone search, with their context words counted. */
export function patternFindings(text: string, words: Word[]): Finding[] {
  return PATTERN_RECOGNIZERS.flatMap((recognizer) => findInPieces(recognizer, text).map((finding) => enhanceWithContext(finding, words, recognizer.context)))
}

/**
 * Presidio-style analysis: pattern recognisers with checksums and context words, then named
 * entities, duplicates removed, scores below 0.5 dropped, sorted by offset. A bare domain inside
 * an e-mail address is not reported again as a URL.
 */
export function analyzePii(text: string): PiiEntity[] {
  const words = wordsOf(text)
  const found = patternFindings(text, words)
  const phoneNumbers = findInPieces(PHONE_RECOGNIZER, phoneSearchText(text, found, words)).map((finding) =>
    enhanceWithContext(finding, words, PHONE_RECOGNIZER.context),
  )
  const findings = removeDuplicates([...found, ...phoneNumbers, ...findNamedEntities(text)])
  const reported = findings.filter((f) => f.score >= SCORE_THRESHOLD)
  const emails = new SpanIndex(reported.filter((f) => f.type === 'EMAIL_ADDRESS'))
  const addresses = new SpanIndex(reported.filter((f) => f.type === 'EMAIL_ADDRESS' || f.type === 'URL'))
  const reportedIndex = new SpanIndex(reported)
  return reported
    .filter((f) => f.type !== 'URL' || !emails.someContaining(f, () => true))
    // spaCy reads an address as one token, so no name inside it ("https://en.wikipedia.org/wiki/Portugal").
    .filter((f) => !NAME_TYPES.has(f.type) || !addresses.someContaining(f, () => true))
    .filter((f) => !claimedByAnother(text, f, reportedIndex, words))
    .sort((a, b) => a.begin - b.begin || a.end - b.end || a.type.localeCompare(b.type))
    .map(({ type, begin, end, score }) => ({ type, beginOffset: begin, endOffset: end, score }))
}

export const presidioStyleEngine: ModerationEngine<string, PiiEntity[]> = {
  name: 'offline:presidio-rules',
  available: () => true,
  run: async (text) => analyzePii(text),
}
