import { keccak256 } from './keccak'
import { sha256 } from './sha256'

/** Checksums and format rules that turn a pattern match into a validated identifier. */

export function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return digits.length > 0 && sum % 10 === 0
}

/** IBAN length per country (ISO 13616 registry). */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28,
  CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18,
  FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22,
  IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20,
  LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28, NL: 18,
  NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31,
  SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29,
  VA: 22, VG: 24, XK: 20, YE: 30,
}

/** `iban` is compact and upper case: country, check digits, then the basic bank account number. */
export function ibanValid(iban: string): boolean {
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let remainder = 0
  for (const character of rearranged) {
    const value = parseInt(character, 36)
    remainder = value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97
  }
  return remainder === 1
}

/**
 * Verhoeff's tables, computed rather than spelled out: multiplication in the dihedral group D5
 * (0-4 the rotations, 5-9 the reflections), and the permutation (1 5 7 6 2 8 3 0 9 4) applied
 * i times for the digit i places from the right (mod 8).
 */
function dihedralProduct(j: number, k: number): number {
  if (j < 5) return k < 5 ? (j + k) % 5 : 5 + ((j + k) % 5)
  return k < 5 ? 5 + ((j - k + 5) % 5) : (j - k + 5) % 5
}
const VERHOEFF_MULTIPLICATION = Array.from({ length: 10 }, (_, j) => Array.from({ length: 10 }, (_, k) => dihedralProduct(j, k)))
const VERHOEFF_STEP = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4]
const VERHOEFF_PERMUTATION: number[][] = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]
while (VERHOEFF_PERMUTATION.length < 8) VERHOEFF_PERMUTATION.push(VERHOEFF_PERMUTATION.at(-1)!.map((digit) => VERHOEFF_STEP[digit]!))

export function verhoeffValid(digits: string): boolean {
  let check = 0
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[digits.length - 1 - i])
    check = VERHOEFF_MULTIPLICATION[check]![VERHOEFF_PERMUTATION[i % 8]![digit]!]!
  }
  return check === 0
}

/** Presidio's Aadhaar rules: 12 digits, Verhoeff check digit, not starting 0/1, not a palindrome. */
export function aadhaarValid(digits: string): boolean {
  return (
    /^[2-9]\d{11}$/.test(digits) && digits !== [...digits].reverse().join('') && verhoeffValid(digits)
  )
}

/** Presidio's US SSN rules: one kind of delimiter, not one repeated digit, no zero group, no known samples. */
export function usSsnValid(match: string): boolean {
  const delimiters = new Set(match.replace(/[^.\- ]/g, ''))
  if (delimiters.size > 1) return false
  const digits = match.replace(/\D/g, '')
  if (/^(\d)\1*$/.test(digits)) return false
  if (digits.slice(3, 5) === '00' || digits.slice(5) === '0000') return false
  // Area numbers 900-999 are never assigned to a Social Security number: the IRS issues them as ITINs (US_ITIN).
  if (digits.startsWith('9')) return false
  return !['000', '666', '123456789', '98765432', '078051120'].some((sample) => digits.startsWith(sample))
}

/** Python's `ipaddress.ip_address` for IPv4: four decimal octets without leading zeros. */
export function ipv4Valid(address: string): boolean {
  const octets = address.split('.')
  return octets.length === 4 && octets.every((o) => /^(0|[1-9]\d{0,2})$/.test(o) && Number(o) <= 255)
}

export function ipv6Valid(address: string): boolean {
  const lastColon = address.lastIndexOf(':')
  if (lastColon < 0) return false
  const tail = address.slice(lastColon + 1)
  if (tail.includes('.') && !ipv4Valid(tail)) return false
  // An embedded IPv4 address stands for the last two groups.
  const groupsText = tail.includes('.') ? `${address.slice(0, lastColon + 1)}0:0` : address
  const halves = groupsText.split('::')
  if (halves.length > 2) return false
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')))
  if (!groups.every((group) => /^[0-9A-Fa-f]{1,4}$/.test(group))) return false
  return halves.length === 2 ? groups.length <= 7 : groups.length === 8
}

// National identifiers outside the United States (Presidio's UK_NHS, UK_NINO, ES_NIF, ES_NIE, IT_FISCAL_CODE, PL_PESEL,
// SG_NRIC_FIN, AU_* and FI_PERSONAL_IDENTITY_CODE), each by the check its issuer publishes.

/** The sum of each digit times its weight, over as many digits as there are weights. */
function weightedSum(digits: string, weights: readonly number[]): number {
  return weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0)
}

/** UK NHS number: 10 digits; weights 10..2 on the first nine, 11 - (sum mod 11) is the tenth (11 -> 0, 10 never issued). */
export function ukNhsValid(digits: string): boolean {
  if (!/^\d{10}$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < 9; i++) sum += Number(digits[i]) * (10 - i)
  const check = 11 - (sum % 11)
  return check !== 10 && (check === 11 ? 0 : check) === Number(digits[9])
}

/** UK National Insurance number prefixes HMRC never issues. */
const NINO_UNUSED_PREFIXES = new Set(['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'])
/** Letters, six digits and a suffix A-D (the pattern already limits which letters may come first and second). */
export function ukNinoValid(compact: string): boolean {
  return /^[A-Z]{2}\d{6}[A-D]$/.test(compact) && !NINO_UNUSED_PREFIXES.has(compact.slice(0, 2))
}

const SPANISH_CHECK_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'
/** Spain's DNI/NIF: 8 digits and the letter of their value mod 23; the NIE: X, Y or Z (0, 1, 2) and 7 digits, the same way. */
export function esNifValid(compact: string): boolean {
  const match = /^([XYZ]|\d)(\d{7})([A-Z])$/.exec(compact)
  if (!match) return false
  const lead = 'XYZ'.indexOf(match[1]!)
  const number = Number(`${lead >= 0 ? lead : match[1]}${match[2]}`)
  return SPANISH_CHECK_LETTERS[number % 23] === match[3]
}

// Italy's codice fiscale: the value of each of the first 15 characters, by position (odd or even,
// counting from 1), summed mod 26 names the 16th letter. Digits may be replaced by letters in the
// number positions when two people would share a code (omocodia).
const ODD_VALUES = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]
function fiscalValue(character: string, odd: boolean): number {
  const index = /\d/.test(character) ? Number(character) : character.charCodeAt(0) - 65
  return odd ? ODD_VALUES[index]! : index
}
export function itFiscalCodeValid(compact: string): boolean {
  if (!/^[A-Z]{6}[\dLMNPQRSTUV]{2}[A-EHLMPRST][\dLMNPQRSTUV]{2}[A-Z][\dLMNPQRSTUV]{3}[A-Z]$/.test(compact)) return false
  let sum = 0
  for (let i = 0; i < 15; i++) sum += fiscalValue(compact[i]!, i % 2 === 0)
  return String.fromCharCode(65 + (sum % 26)) === compact[15]
}

/** Poland's PESEL: 11 digits, a birth date whose month carries the century, weights 1 3 7 9 on the first ten. */
export function plPeselValid(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false
  const month = Number(digits.slice(2, 4)) % 20
  const day = Number(digits.slice(4, 6))
  if (month < 1 || month > 12 || day < 1 || day > 31) return false
  return (10 - (weightedSum(digits, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10)) % 10 === Number(digits[10])
}

/** Singapore's NRIC (S, T) and FIN (F, G): weights 2 7 6 5 4 3 2, 4 more for T and G, mod 11 names the check letter. */
export function sgNricFinValid(compact: string): boolean {
  const match = /^([STFG])(\d{7})([A-Z])$/.exec(compact)
  if (!match) return false
  const sum = weightedSum(match[2]!, [2, 7, 6, 5, 4, 3, 2]) + (match[1] === 'T' || match[1] === 'G' ? 4 : 0)
  const letters = match[1] === 'S' || match[1] === 'T' ? 'JZIHGFEDCBA' : 'XWUTRQPNMLK'
  return letters[sum % 11] === match[3]
}

/** Australia's tax file number: 9 digits whose weighted sum (1 4 3 7 5 8 6 9 10) is a multiple of 11. */
export function auTfnValid(digits: string): boolean {
  return /^\d{9}$/.test(digits) && weightedSum(digits, [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 === 0
}

/** Australian Business Number: 11 digits, the first less one, weights 10 1 3 5 ... 19, a multiple of 89. */
export function auAbnValid(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false
  const adjusted = `${Number(digits[0]) - 1}${digits.slice(1)}`
  return digits[0] !== '0' && weightedSum(adjusted, [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]) % 89 === 0
}

/** Australian Company Number: 9 digits, weights 8..1 on the first eight, the complement of the sum mod 10 last. */
export function auAcnValid(digits: string): boolean {
  return /^\d{9}$/.test(digits) && (10 - (weightedSum(digits, [8, 7, 6, 5, 4, 3, 2, 1]) % 10)) % 10 === Number(digits[8])
}

/** Australia's Medicare card: 10 digits (11 with the person's number), first 2-6, weights 1 3 7 9 1 3 7 9 mod 10 is the ninth. */
export function auMedicareValid(digits: string): boolean {
  return /^[2-6]\d{9,10}$/.test(digits) && weightedSum(digits, [1, 3, 7, 9, 1, 3, 7, 9]) % 10 === Number(digits[8])
}

const FINNISH_CHECK_CHARACTERS = '0123456789ABCDEFHJKLMNPRSTUVWXY'
/** Finland's henkilötunnus: a date, a century sign, three digits and the character of the nine digits' value mod 31. */
export function fiPersonalIdentityCodeValid(compact: string): boolean {
  const match = /^(\d{2})(\d{2})(\d{2})[-+A-FU-Y](\d{3})([0-9A-Y])$/.exec(compact)
  if (!match) return false
  const [, day, month] = match
  if (Number(day) < 1 || Number(day) > 31 || Number(month) < 1 || Number(month) > 12) return false
  return FINNISH_CHECK_CHARACTERS[Number(`${match[1]}${match[2]}${match[3]}${match[4]}`) % 31] === match[5]
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** A Bitcoin address in Base58Check (P2PKH "1...", P2SH "3..."): its last four bytes are the double SHA-256 of the rest. */
export function base58CheckValid(address: string): boolean {
  let value = 0n
  for (const character of address) {
    const digit = BASE58.indexOf(character)
    if (digit < 0) return false
    value = value * 58n + BigInt(digit)
  }
  const bytes: number[] = []
  for (; value > 0n; value >>= 8n) bytes.unshift(Number(value & 0xffn))
  // Each leading "1" stands for a zero byte.
  for (let i = 0; i < address.length && address[i] === '1'; i++) bytes.unshift(0)
  if (bytes.length !== 25) return false
  const payload = Uint8Array.from(bytes.slice(0, 21))
  const checksum = sha256(sha256(payload)).subarray(0, 4)
  return checksum.every((byte, i) => byte === bytes[21 + i])
}

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const BECH32_GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
/** The checksum constants of Bech32 (BIP 173, SegWit version 0) and Bech32m (BIP 350, versions 1-16). */
const BECH32_CONSTANT = 1
const BECH32M_CONSTANT = 0x2bc830a3

function bech32Polymod(values: number[]): number {
  let check = 1
  for (const value of values) {
    const top = check >>> 25
    check = (((check & 0x1ffffff) << 5) ^ value) >>> 0
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) check = (check ^ BECH32_GENERATOR[i]) >>> 0
  }
  return check
}

/** A SegWit address ("bc1..."): one case throughout, Bech32 for version 0 and Bech32m for later versions (BIP 173, 350). */
export function bech32AddressValid(address: string): boolean {
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false
  const lower = address.toLowerCase()
  const separator = lower.lastIndexOf('1')
  if (separator < 1 || separator + 7 > lower.length || lower.length > 90) return false
  const humanPart = lower.slice(0, separator)
  const data = [...lower.slice(separator + 1)].map((character) => BECH32_CHARSET.indexOf(character))
  if (data.some((value) => value < 0)) return false
  const expanded = [...humanPart].map((c) => c.charCodeAt(0) >> 5).concat([0], [...humanPart].map((c) => c.charCodeAt(0) & 31))
  const constant = bech32Polymod([...expanded, ...data])
  const version = data[0]
  return (version === 0 && constant === BECH32_CONSTANT) || (version >= 1 && version <= 16 && constant === BECH32M_CONSTANT)
}

/**
 * An Ethereum address checked by EIP-55: written in mixed case, a letter is a capital exactly where the Keccak-256 of
 * the lower-case address has a nibble of 8 or more. In one case throughout it carries no checksum and is still valid
 * (wallets and block explorers print it so); `checksummed` says which it is.
 */
export function ethereumAddressCheck(address: string): { valid: boolean; checksummed: boolean } {
  const hex = address.slice(2)
  if (!/^[0-9a-fA-F]{40}$/.test(hex)) return { valid: false, checksummed: false }
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return { valid: true, checksummed: false }
  const hash = keccak256(new TextEncoder().encode(hex.toLowerCase()))
  const valid = [...hex].every((character, i) => {
    if (/\d/.test(character)) return true
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf
    return (nibble >= 8) === (character === character.toUpperCase())
  })
  return { valid, checksummed: valid }
}

/**
 * A DEA registration number (the United States' licence to prescribe controlled substances): two letters and seven
 * digits, the first three odd-placed digits plus twice the even-placed ones end in the seventh digit.
 */
export function deaNumberValid(compact: string): boolean {
  const match = /^[A-Z][A-Z9](\d{7})$/.exec(compact)
  if (!match) return false
  const d = [...match[1]].map(Number)
  return (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10 === d[6]
}

/** Whether a day and month (and a four-digit year, when given) make a date of the calendar. */
function calendarDate(day: number, month: number, year = 2000): boolean {
  const date = new Date(Date.UTC(year, month - 1, day))
  return month >= 1 && month <= 12 && date.getUTCDate() === day && date.getUTCMonth() === month - 1
}

/** Canada's social insurance number: nine digits, not starting 0 or 8, Luhn. */
export function caSinValid(digits: string): boolean {
  return /^[1-79]\d{8}$/.test(digits) && luhnValid(digits)
}

/**
 * Sweden's personnummer (YYMMDD-NNNC, or with the century): the last ten digits give a month and a day (a
 * samordningsnummer adds 60 to the day) and pass Luhn.
 */
export function sePersonnummerValid(compact: string): boolean {
  const digits = compact.replace(/[-+]/g, '')
  if (!/^(?:\d{10}|\d{12})$/.test(digits)) return false
  const last10 = digits.slice(-10)
  const month = Number(last10.slice(2, 4))
  let day = Number(last10.slice(4, 6))
  if (day >= 61) day -= 60
  return calendarDate(day, month) && luhnValid(last10)
}

/**
 * Germany's Steuerliche Identifikationsnummer: eleven digits, no leading zero, no digit more than three times among
 * the first ten, and a check digit by ISO 7064 MOD 11,10.
 */
export function deTaxIdValid(digits: string): boolean {
  if (!/^[1-9]\d{10}$/.test(digits)) return false
  const counts = new Map<string, number>()
  for (const digit of digits.slice(0, 10)) counts.set(digit, (counts.get(digit) ?? 0) + 1)
  if ([...counts.values()].some((count) => count > 3)) return false
  let product = 10
  for (const digit of digits.slice(0, 10)) {
    const sum = (Number(digit) + product) % 10 || 10
    product = (2 * sum) % 11
  }
  return (11 - product) % 10 === Number(digits[10])
}

/** An ICAO 9303 document number's check digit: letters A=10 ... Z=35, weights 7 3 1, sum mod 10 (German ID cards and passports). */
export function icaoCheckValid(compact: string): boolean {
  if (!/^[A-Z0-9]{8}\d$/.test(compact)) return false
  const value = (character: string) => (/\d/.test(character) ? Number(character) : character.charCodeAt(0) - 55)
  const sum = [...compact.slice(0, 8)].reduce((total, character, i) => total + value(character) * [7, 3, 1][i % 3], 0)
  return sum % 10 === Number(compact[8])
}

/** South Korea's resident registration number: a birth date YYMMDD, a sex-and-century digit 1-4 and six more digits. */
export function krRrnShapeValid(digits: string): boolean {
  return /^\d{6}[1-4]\d{6}$/.test(digits) && calendarDate(Number(digits.slice(4, 6)), Number(digits.slice(2, 4))) && Number(digits.slice(7, 9)) <= 95
}

/** The RRN's check digit (numbers issued before October 2020): weights 2-9, 2-5, (11 - sum mod 11) mod 10. */
export function krRrnChecksumValid(digits: string): boolean {
  return (11 - (weightedSum(digits, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]) % 11)) % 10 === Number(digits[12])
}

/**
 * South Africa's identity number: a birth date YYMMDD not in the future, four digits, citizenship 0-2, 8 or 9, and
 * a Luhn check digit.
 */
export function zaIdNumberValid(digits: string, today = new Date()): boolean {
  if (!/^\d{10}[0-2][89]\d$/.test(digits)) return false
  const yy = Number(digits.slice(0, 2))
  const year = yy > today.getUTCFullYear() % 100 ? 1900 + yy : 2000 + yy
  const month = Number(digits.slice(2, 4))
  const day = Number(digits.slice(4, 6))
  if (!calendarDate(day, month, year) || Date.UTC(year, month - 1, day) > today.getTime()) return false
  return luhnValid(digits)
}

/** The values Taiwan's national identity card gives the first letter. */
const TAIWAN_LETTER_VALUES = 'ABCDEFGHJKLMNPQRSTUVXYWZIO'
/** Taiwan's national identity card: a letter (as two digits), 1 or 2 for the sex, eight digits; weights 1 9 8 ... 1 1, sum mod 10 = 0. */
export function twNationalIdValid(compact: string): boolean {
  if (!/^[A-Z][12]\d{8}$/.test(compact)) return false
  const letterValue = TAIWAN_LETTER_VALUES.indexOf(compact[0]) + 10
  const digits = `${letterValue}${compact.slice(1)}`
  return weightedSum(digits, [1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1]) % 10 === 0
}

/** Thailand's national identification number: thirteen digits, weights 13 to 2, (11 - sum mod 11) mod 10 is the last. */
export function thTninValid(digits: string): boolean {
  return /^\d{13}$/.test(digits) && (11 - (weightedSum(digits, [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11)) % 10 === Number(digits[12])
}

/** Russia's taxpayer number (ИНН): ten digits (an organisation) or twelve (a person), one or two check digits, sum mod 11 mod 10. */
export function ruInnValid(digits: string): boolean {
  const check = (weights: number[], position: number) => (weightedSum(digits, weights) % 11) % 10 === Number(digits[position])
  if (/^\d{10}$/.test(digits)) return check([2, 4, 10, 3, 5, 9, 4, 6, 8], 9)
  if (/^\d{12}$/.test(digits)) return check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8], 10) && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8], 11)
  return false
}

/** Russia's pension insurance number (СНИЛС): nine digits weighted 9 to 1, the sum mod 101 (100 as 0) is the last two. */
export function ruSnilsValid(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false
  const control = weightedSum(digits, [9, 8, 7, 6, 5, 4, 3, 2, 1]) % 101
  return (control === 100 ? 0 : control) === Number(digits.slice(9))
}

/**
 * Singapore's unique entity number: eight digits and a check letter (businesses), a year, five digits and a check
 * letter (local companies), or T/S/R, two digits, an entity type and four digits with a check letter (other entities).
 */
const UEN_ENTITY_TYPES = new Set('LP LL FC PF RF MQ MM NB CC CS MB FM GS DP CP NR CM CD MD HS VH CH MH CL XL CX HC RP TU TC FB FN PA PB SS MC SM GA GB'.split(' '))
export function sgUenValid(compact: string, today = new Date()): boolean {
  if (/^\d{8}[A-Z]$/.test(compact)) return 'XMKECAWLJDB'[weightedSum(compact, [10, 4, 9, 3, 8, 2, 7, 1]) % 11] === compact[8]
  if (/^\d{9}[A-Z]$/.test(compact)) {
    if (Number(compact.slice(0, 4)) > today.getUTCFullYear()) return false
    return 'ZKCMDNERGWH'[weightedSum(compact, [10, 8, 6, 4, 9, 7, 5, 3, 1]) % 11] === compact[9]
  }
  if (/^[TSR]\d{2}[A-Z]{2}\d{4}[A-Z]$/.test(compact) && UEN_ENTITY_TYPES.has(compact.slice(3, 5))) {
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWX0123456789'
    const sum = [...compact.slice(0, 9)].reduce((total, character, i) => total + alphabet.indexOf(character) * [4, 3, 5, 3, 10, 2, 2, 5, 7][i], 0)
    return alphabet[(((sum - 5) % 11) + 11) % 11] === compact[9]
  }
  return false
}

/** The Philippines' taxpayer identification number: nine digits (and a three-digit branch code); weights 9 to 2 mod 11 give the ninth. */
export function phTinValid(digits: string): boolean {
  return /^(?:\d{9}|\d{12})$/.test(digits) && weightedSum(digits, [9, 8, 7, 6, 5, 4, 3, 2]) % 11 === Number(digits[8])
}
