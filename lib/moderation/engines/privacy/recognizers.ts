import { PhoneNumberMatcher, type CountryCode, type NumberFound } from 'libphonenumber-js/max'
import {
  base58CheckValid,
  bech32AddressValid,
  deaNumberValid,
  ethereumAddressCheck,
  IBAN_LENGTHS,
  ibanValid,
  ipv4Valid,
  ipv6Valid,
  luhnValid,
  usSsnValid,
} from './checksums'
import { NATIONAL_IDENTIFIER_RECOGNIZERS } from './national-identifiers'
import { ASCII_DIGIT, compact, END, NEEDS_CONTEXT, patternRecognizer, START, type Finding, type Recognizer } from './pattern'

export type { Finding, Recognizer } from './pattern'

/**
 * Presidio's predefined recognisers for English, one per entity: the same entity names, pattern
 * scores, validation (a valid checksum raises the score to 1.0, an invalid one drops the match)
 * and context words. The identifiers of countries other than the United States are in
 * national-identifiers.ts.
 */

const creditCard = patternRecognizer({
  type: 'CREDIT_CARD',
  needs: ASCII_DIGIT,
  patterns: [
    {
      source: `${START}(?!1\\d{12}(?!\\d))(?:4\\d{3}|5[0-5]\\d{2}|6\\d{3}|1\\d{3}|3\\d{3})[- ]?\\d{3,4}[- ]?\\d{3,4}[- ]?\\d{3,5}${END}`,
      score: 0.3,
    },
  ],
  context: ['credit', 'card', 'visa', 'mastercard', 'cc', 'amex', 'discover', 'jcb', 'diners', 'maestro', 'instapayment'],
  validate: (match) => luhnValid(match.replace(/[- ]/g, '')),
})

const EMAIL_CHARACTER = "[\\p{L}\\p{N}_!#$%&'*+\\-/=?^`{|}~]"
const email = patternRecognizer({
  type: 'EMAIL_ADDRESS',
  needs: /@/,
  patterns: [
    {
      // The local part is at most 64 characters and a domain at most 127 labels (RFC 5321, RFC 1035); unbounded, a run
      // of dots and letters made every start position scan to the end of the text and back.
      source: `${START}${EMAIL_CHARACTER}(?:[\\p{L}\\p{N}_!#$%&'*+\\-/=?^\`{|}~.]{0,62}${EMAIL_CHARACTER})?@[\\p{L}\\p{N}_]+(?:[-.][\\p{L}\\p{N}_]+){0,126}\\.[\\p{L}\\p{N}_]+(?:[-.][\\p{L}\\p{N}_]+){0,126}${END}`,
      score: 0.5,
    },
  ],
  context: ['email'],
  // Presidio keeps an address whose domain has a known public suffix; an alphabetic TLD stands in.
  validate: (match) => /\.\p{L}{2,63}$/u.test(match),
})

const usSsn = patternRecognizer({
  type: 'US_SSN',
  needs: ASCII_DIGIT,
  patterns: [
    { source: `${START}\\d{5}-\\d{4}${END}`, score: 0.05 },
    { source: `${START}\\d{3}-\\d{6}${END}`, score: 0.05 },
    { source: `${START}\\d{3}-\\d{2}-\\d{4}${END}`, score: 0.05 },
    { source: `${START}\\d{9}${END}`, score: 0.05 },
    { source: `${START}\\d{3}[- .]\\d{2}[- .]\\d{4}${END}`, score: 0.5 },
  ],
  context: ['social', 'security', 'ssn', 'ssns', 'ssn#', 'ss#', 'ssid'],
  reject: (match) => !usSsnValid(match),
})

const OCTET = '(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)'
const ipv4 = patternRecognizer({
  type: 'IP_ADDRESS',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}(?:${OCTET}\\.){3}${OCTET}${END}`, score: 0.6 }],
  context: ['ip', 'ipv4', 'ipv6'],
  reject: (match) => !ipv4Valid(match),
})

const ipv6: Recognizer = {
  context: ipv4.context,
  needs: /:/,
  find(text) {
    const findings: Finding[] = []
    for (const match of text.matchAll(/(?<![\p{L}\p{N}_:.])[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*/gu)) {
      const candidate = match[0].replace(/[.:]+$/, (tail) => (tail.startsWith('::') ? '::' : ''))
      if (/[0-9A-Fa-f]/.test(candidate) && (candidate.match(/:/g) ?? []).length >= 2 && ipv6Valid(candidate)) {
        findings.push({ type: 'IP_ADDRESS', begin: match.index, end: match.index + candidate.length, score: 0.6 })
      }
    }
    return findings
  },
}

/** An IBAN written compact or in groups: the prefix of the country's length, if it validates. */
const iban: Recognizer = {
  context: ['iban', 'bank', 'transaction'],
  needs: ASCII_DIGIT,
  find(text) {
    const findings: Finding[] = []
    const candidates = new RegExp(`${START}[A-Z]{2}\\d{2}(?:[ -]?[A-Z0-9]){8,30}`, 'giu')
    for (let match = candidates.exec(text); match; match = candidates.exec(text)) {
      const candidate = match[0]
      const expectedLength = IBAN_LENGTHS[candidate.slice(0, 2).toUpperCase()] ?? 0
      let compact = ''
      let end = 0
      while (end < candidate.length && compact.length < expectedLength) {
        if (/[A-Za-z0-9]/.test(candidate[end])) compact += candidate[end].toUpperCase()
        end++
      }
      const followedByWordCharacter = /[\p{L}\p{N}_]/u.test(text[match.index + end] ?? '')
      if (compact.length === expectedLength && !followedByWordCharacter && ibanValid(compact)) {
        findings.push({ type: 'IBAN_CODE', begin: match.index, end: match.index + end, score: 1 })
      }
      // The greedy candidate may run into the next IBAN; resume right after what was used.
      candidates.lastIndex = match.index + Math.max(end, 1)
    }
    return findings
  },
}

const TOP_LEVEL_DOMAINS =
  'com|org|net|edu|gov|mil|int|info|biz|io|ai|app|dev|co|me|tv|xyz|online|site|tech|store|blog|cloud|[a-z]{2}'
// A host name has at most 127 labels (RFC 1035); unbounded, "1.1.1.1..." made every start position take every label and give them back.
const URL_SOURCE = `${START}(https?://|ftp://)?(?:www\\d{0,3}\\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.){1,126}(?:${TOP_LEVEL_DOMAINS})(?::\\d{2,5})?(?:[/?#][^\\s"'<>]*)?${END}`

/** Web addresses with a scheme score 0.6, bare domains 0.5; trailing sentence punctuation is not part of them. */
const url: Recognizer = {
  context: ['url', 'website', 'link'],
  needs: /\./,
  find(text) {
    const findings: Finding[] = []
    for (const match of text.matchAll(new RegExp(URL_SOURCE, 'giu'))) {
      const value = match[0].replace(/[.,;:!?)\]'"]+$/, '')
      if (!value.includes('.')) continue
      findings.push({ type: 'URL', begin: match.index, end: match.index + value.length, score: match[1] ? 0.6 : 0.5 })
    }
    return findings
  },
}

const DAY = '(?:[1-9]|0[1-9]|[12]\\d|3[01])'
const MONTH = '(?:[1-9]|0[1-9]|1[0-2])'
const MONTH_NAME = '(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)'
const dateTime = patternRecognizer({
  type: 'DATE_TIME',
  needs: ASCII_DIGIT,
  patterns: [
    { source: `${START}${MONTH}/${DAY}/(?:\\d{4}|\\d{2})${END}`, score: 0.6 },
    { source: `${START}${DAY}/${MONTH}/(?:\\d{4}|\\d{2})${END}`, score: 0.6 },
    { source: `${START}\\d{4}/${MONTH}/${DAY}${END}`, score: 0.6 },
    { source: `${START}${MONTH}-${DAY}-\\d{4}${END}`, score: 0.6 },
    { source: `${START}${DAY}-${MONTH}-\\d{4}${END}`, score: 0.6 },
    { source: `${START}\\d{4}-${MONTH}-${DAY}${END}`, score: 0.6 },
    { source: `${START}${DAY}\\.${MONTH}\\.(?:\\d{4}|\\d{2})${END}`, score: 0.6 },
    { source: `${START}${DAY}-${MONTH_NAME}-(?:\\d{4}|\\d{2})${END}`, score: 0.6 },
    { source: `${START}${MONTH_NAME}-(?:\\d{4}|\\d{2})${END}`, score: 0.6 },
    { source: `${START}${MONTH}/\\d{4}${END}`, score: 0.2 },
  ],
  context: ['date', 'birthday'],
})

/**
 * A cryptocurrency address, as Presidio's CryptoRecognizer reads one: Bitcoin's Base58Check ("1...", "3...") and
 * SegWit ("bc1...") addresses and Ethereum's ("0x" and 40 hex digits). A checksum that holds scores 1.0; an address that
 * fails its checksum is dropped. Unlike Presidio, an Ethereum address written in one case, which carries no checksum
 * (EIP-55), is kept at the pattern's score, and every pattern is bounded as a word, so that the first 40 digits of a
 * 64-digit transaction hash are not read as an address.
 */
const crypto: Recognizer = {
  context: ['wallet', 'btc', 'bitcoin', 'crypto', 'eth', 'ethereum'],
  needs: ASCII_DIGIT,
  find(text) {
    const findings: Finding[] = []
    for (const match of text.matchAll(new RegExp(`${START}(?:bc1[a-z0-9]{8,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})${END}`, 'giu'))) {
      const address = match[0]
      const valid = /^bc1/i.test(address) ? bech32AddressValid(address) : base58CheckValid(address)
      if (valid) findings.push({ type: 'CRYPTO', begin: match.index, end: match.index + address.length, score: 1 })
    }
    for (const match of text.matchAll(new RegExp(`${START}0x[0-9a-f]{40}${END}`, 'giu'))) {
      const { valid, checksummed } = ethereumAddressCheck(match[0])
      if (valid) findings.push({ type: 'CRYPTO', begin: match.index, end: match.index + match[0].length, score: checksummed ? 1 : 0.5 })
    }
    return findings
  },
}

/**
 * A DEA registration number (Presidio's MedicalLicenseRecognizer): a registrant letter, a letter (or 9) and seven digits
 * with a check digit. The check passes one shape-alike code in ten ("PO1234567", "SN7654321"), so a valid number needs
 * a context word, as the weak national identifiers above do; Presidio scores every valid one 1.0.
 */
const medicalLicense = patternRecognizer({
  type: 'MEDICAL_LICENSE',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[ABCDEFGHJKLMPRSTUX][A-Z9]-?\\d{7}${END}`, score: 0.4 }],
  context: ['dea', 'medical', 'certificate', 'prescriber', 'prescription', 'registration'],
  validate: (match) => deaNumberValid(compact(match)),
  validatedScore: NEEDS_CONTEXT,
})

/** Presidio's MacAddressRecognizer: six hex pairs split by colons or dashes, or Cisco's three groups of four; not the broadcast address. */
const macAddress = patternRecognizer({
  type: 'MAC_ADDRESS',
  needs: /[:.-]/,
  patterns: [
    { source: `${START}[0-9A-F]{2}([:-])(?:[0-9A-F]{2}\\1){4}[0-9A-F]{2}${END}`, score: 0.6 },
    { source: `${START}[0-9A-F]{4}\\.[0-9A-F]{4}\\.[0-9A-F]{4}${END}`, score: 0.6 },
  ],
  context: ['mac', 'hardware address', 'physical address', 'ethernet'],
  reject: (match) => /^f{12}$/i.test(match.replace(/[:.-]/g, '')),
})

/** An ITIN's fourth and fifth digits: 50-65, 70-88, 90-92 and 94-99 (the IRS's ranges, as Presidio's UsItinRecognizer). */
const ITIN_GROUP = '(?:5\\d|6[0-5]|7\\d|8[0-8]|9[0-24-9])'
const usItin = patternRecognizer({
  type: 'US_ITIN',
  needs: ASCII_DIGIT,
  patterns: [
    { source: `${START}9\\d{2}[- ]${ITIN_GROUP}[- ]\\d{4}${END}`, score: 0.5 },
    { source: `${START}9\\d{2}${ITIN_GROUP}\\d{4}${END}`, score: 0.3 },
  ],
  context: ['individual', 'taxpayer', 'itin', 'tax', 'payer', 'taxid'],
})

/**
 * Presidio's UsLicenseRecognizer shapes of the states' driver's licence numbers (letters and digits in fixed places),
 * written compact or in groups joined by dashes ("S530-4607-1234"). Every shape needs a context word: alone they are
 * as much a part number or a flight. Shapes of fewer than five digits are left out (Presidio's "[A-Z][0-9]{1,12}"
 * takes "v2" after "licensed under"), and so are Presidio's context words that are parts of common words ("lic" is in
 * "public", "dls" in "handles"). A plain run of 7-12 digits is also a licence number in several states; Presidio scores
 * it 0.01, never reported; here it is reported after a context word like the letter shapes.
 */
const DRIVER_LICENSE_SHAPE = new RegExp(
  '^(?:[A-Z]\\d{5,14}|[A-Z]\\d{18}|[A-Z]{2}\\d{5,7}|\\d{2}[A-Z]{3}\\d{5,6}|[A-Z]\\d{6}R|\\d{9}[A-Z]|[A-Z]{2}\\d{6}[A-Z]|\\d{8}[A-Z]{2}|\\d{3}[A-Z]{2}\\d{4,}|\\d{7,8}[A-Z]|\\d{7,12})$',
)
const usDriverLicense = patternRecognizer({
  type: 'US_DRIVER_LICENSE',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[A-Z0-9]{3,19}(?:-[A-Z0-9]{1,19}){0,4}${END}`, score: NEEDS_CONTEXT }],
  context: ['driver', 'driving', 'license', 'licence', 'permit', 'lic#'],
  reject: (match) => {
    const value = compact(match)
    return value.length > 19 || (value.match(/\d/g) ?? []).length < 5 || !DRIVER_LICENSE_SHAPE.test(value)
  },
})

/**
 * Presidio's UsPassportRecognizer: nine digits, or a letter and eight digits (the next-generation book). Presidio
 * scores them 0.05 and 0.1 with context words as broad as "us" and "document", so a passport number is never reported at
 * the toolkit's threshold; here the word "passport" (in the languages people write it in) is what reports one.
 */
const usPassport = patternRecognizer({
  type: 'US_PASSPORT',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}(?:\\d{9}|[A-Z]\\d{8})${END}`, score: NEEDS_CONTEXT }],
  context: ['passport', 'pasaporte', 'passeport', 'passaporto'],
})

/**
 * Presidio's UsBankRecognizer: 8 to 17 digits. Presidio scores it 0.05, never reported at the toolkit's threshold; here
 * a word naming a bank account reports it (not Presidio's "check" and "save", parts of "checkout" and "saved").
 */
const usBankNumber = patternRecognizer({
  type: 'US_BANK_NUMBER',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{8,17}${END}`, score: NEEDS_CONTEXT }],
  context: ['account', 'acct', 'bank', 'checking', 'savings', 'debit'],
})

/**
 * Presidio's phone regions (its "UK" and "FE" are not region codes and match nothing) but Canada:
 * Canada and the United States share one numbering plan (country code 1, the NANP), and
 * libphonenumber finds the same numbers in a text with either as the default region (every
 * evaluation text and fortune with a digit, bench/offline/TUNING-issue18.md run 202), so searching
 * for both did the same work twice.
 */
const PHONE_REGIONS: CountryCode[] = ['US', 'DE', 'IL', 'IN', 'BR']

/**
 * The fewest digits of a valid number in these regions or written internationally: Germany's
 * shortest national numbers have 4 (libphonenumber's metadata; with a country code every country
 * needs at least 6).
 */
const FEWEST_PHONE_DIGITS = 4
const DIGIT = /\p{Nd}/gu
/** What libphonenumber's candidates are made of: digits with punctuation (its separators include x), no other letter. */
const DIGITS_AND_SEPARATORS = /(?:[^\p{L}]|[xX])+/gu

/** libphonenumber's search costs tens of microseconds per region even when it can find nothing (each failed parse throws). */
function mayHoldPhoneNumber(text: string): boolean {
  for (const [run] of text.matchAll(DIGITS_AND_SEPARATORS)) {
    if ((run.match(DIGIT)?.length ?? 0) >= FEWEST_PHONE_DIGITS) return true
  }
  return false
}

/**
 * True when the numbers found so far leave the other regions nothing to add: every digit of the
 * text is inside one of them, and none has an opening bracket or plus sign just before it. A
 * number another region could find is made of the text's digits (with separators, a leading
 * bracket or plus, a trailing extension of more digits), so it would lie inside one already found
 * and be dropped as a duplicate. Most texts with a number write it internationally ("+44 20 7946
 * 0958"), which every region reads the same way.
 */
function everyDigitFound(text: string, findings: Finding[]): boolean {
  if (findings.some((f) => /[(（［\[+＋]/.test(text[f.begin - 1] ?? ''))) return false
  for (const digit of text.matchAll(DIGIT)) {
    if (!findings.some((f) => f.begin <= digit.index && digit.index < f.end)) return false
  }
  return true
}

/**
 * Invalid candidates libphonenumber may try in one piece of text (PATTERN_WINDOW characters) for one region before
 * it gives up on the piece: its `maxTries`, "to cover degenerate cases where the text has a lot of false positives in
 * it". Dense real text stays well under it (a 4,096-character server log: at most 943 tries per region; a table of
 * dates, prices and codes: 586; a CSV of numbers: 416), while 4,096 characters of "1 1 1 ..." or "1.1.1.1..." make
 * 2,146 tries per region, each a thrown parse error, and 49,000 characters of them held the event loop for 3 s.
 */
export const PHONE_TRIES_PER_REGION = 1500
/** And for all regions of one piece together (the server log above: 4,286). */
const PHONE_TRIES_PER_PIECE = 5000

/**
 * The numbers libphonenumber finds in `text` for one region, about `tries` invalid candidates tried at most (its
 * inner-match loop may make one more), and how many it tried. The matcher counts its tries down in its `maxTries`
 * field (libphonenumber-js is pinned in package.json; a version without the field reads as no try made, and the
 * test of the bound fails).
 */
export function searchPhoneNumbers(text: string, region: CountryCode, tries: number): { found: NumberFound[]; tried: number } {
  const matcher = new PhoneNumberMatcher(text, { defaultCountry: region, v2: true, maxTries: tries } as { defaultCountry: CountryCode; v2: true })
  const found: NumberFound[] = []
  // Each invalid candidate is a thrown ParseError: without a stack trace to capture, a try costs half as much.
  // The search is synchronous, so nothing else runs while the limit is lowered.
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    while (matcher.hasNext()) found.push(matcher.next()!)
  } finally {
    Error.stackTraceLimit = stackTraceLimit
  }
  const left = (matcher as unknown as { maxTries?: unknown }).maxTries
  return { found, tried: typeof left === 'number' ? tries - left : 0 }
}

/**
 * A number written with its country code ("+33 6 12 34 56 78") that is valid in that country's numbering plan is a
 * phone number without any word around it saying so, as a local run of digits ("2024 1234") is not: it is reported on
 * its own, where Presidio's 0.4 waited for a context word ("phone", "call"), and "Contact Jean at +33 6 12 34 56 78"
 * or "Llámame al +34 612 345 678" gave nothing.
 */
const INTERNATIONAL_PHONE_SCORE = 0.6

/** The phone's context words that name a phone, not any number (see claimedByAnother in index.ts). */
export const PHONE_OWN_CONTEXT = ['phone', 'telephone', 'cell', 'cellphone', 'mobile', 'call', 'tel', 'telefon', 'téléphone', 'teléfono', 'telefone', 'telefono', 'handy', 'móvil', 'portable', 'cellulare', 'whatsapp']

export const PHONE_RECOGNIZER: Recognizer = {
  // Presidio's English context words, and the same words in the languages whose numbers people write most (non-US numbers).
  context: [...PHONE_OWN_CONTEXT, 'number', 'numéro', 'número', 'numero', 'nummer'],
  // libphonenumber reads digits of every script (full-width, Arabic-Indic).
  needs: /\p{Nd}/u,
  find(text) {
    const findings: Finding[] = []
    if (!mayHoldPhoneNumber(text)) return findings
    let triesLeft = PHONE_TRIES_PER_PIECE
    for (const region of PHONE_REGIONS) {
      const budget = Math.min(PHONE_TRIES_PER_REGION, triesLeft)
      const { found: numbers, tried } = searchPhoneNumbers(text, region, budget)
      triesLeft -= tried
      for (const found of numbers) {
        // "+1 (555) ..." read from "(555)" on as a local number would drop the real country code.
        if (/\+\d{1,3}[\s.-]*$/.test(text.slice(Math.max(0, found.startsAt - 8), found.startsAt))) continue
        const international = /^[+＋]/.test(text.slice(found.startsAt, found.endsAt))
        findings.push({ type: 'PHONE_NUMBER', begin: found.startsAt, end: found.endsAt, score: international ? INTERNATIONAL_PHONE_SCORE : 0.4 })
      }
      if (findings.length > 0 && everyDigitFound(text, findings)) break
      // A piece that used up a region's tries is degenerate: the other regions would only try the same candidates.
      // (Never a budget of 0 next: libphonenumber reads a maxTries of 0 as no limit.)
      if (tried >= budget || triesLeft <= 0) break
    }
    return findings
  },
}

/** Every pattern recogniser but the phone search, which reads the text after them (see index.ts). */
export const PATTERN_RECOGNIZERS: readonly Recognizer[] = [
  creditCard,
  email,
  usSsn,
  ipv4,
  ipv6,
  iban,
  url,
  dateTime,
  crypto,
  medicalLicense,
  macAddress,
  usItin,
  usDriverLicense,
  usPassport,
  usBankNumber,
  ...NATIONAL_IDENTIFIER_RECOGNIZERS,
]
