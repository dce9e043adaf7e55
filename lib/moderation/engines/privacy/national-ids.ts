/**
 * National identifiers outside the United States, under Presidio's entity names, each validated by
 * the check its issuer publishes (a wrong check digit or letter drops the match). Where the check
 * passes one random number in ten or eleven (a plain run of 9-11 digits: the NHS number, the
 * Australian TFN, ACN and Medicare number, the PESEL), a valid match alone scores under the
 * reporting threshold and is reported only after one of its context words ("NHS number 943 476
 * 5919"), so order numbers and phone numbers are not read as identifiers. Identifiers whose shape
 * is their own (letters and digits in fixed places, a check letter) score 1.0 when valid.
 */

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
  const number = Number(`${'XYZ'.includes(match[1]!) ? 'XYZ'.indexOf(match[1]!) : match[1]}${match[2]}`)
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
  const weights = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]
  const sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0)
  return (10 - (sum % 10)) % 10 === Number(digits[10])
}

/** Singapore's NRIC (S, T) and FIN (F, G): weights 2 7 6 5 4 3 2, 4 more for T and G, mod 11 names the check letter. */
export function sgNricFinValid(compact: string): boolean {
  const match = /^([STFG])(\d{7})([A-Z])$/.exec(compact)
  if (!match) return false
  const weights = [2, 7, 6, 5, 4, 3, 2]
  let sum = weights.reduce((total, weight, i) => total + weight * Number(match[2]![i]), 0)
  if (match[1] === 'T' || match[1] === 'G') sum += 4
  const letters = match[1] === 'S' || match[1] === 'T' ? 'JZIHGFEDCBA' : 'XWUTRQPNMLK'
  return letters[sum % 11] === match[3]
}

function weightedSum(digits: string, weights: readonly number[]): number {
  return weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0)
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
