import {
  aadhaarValid,
  auAbnValid,
  auAcnValid,
  auMedicareValid,
  auTfnValid,
  caSinValid,
  deTaxIdValid,
  esNifValid,
  fiPersonalIdentityCodeValid,
  icaoCheckValid,
  itFiscalCodeValid,
  krRrnChecksumValid,
  krRrnShapeValid,
  phTinValid,
  plPeselValid,
  ruInnValid,
  ruSnilsValid,
  sePersonnummerValid,
  sgNricFinValid,
  sgUenValid,
  thTninValid,
  twNationalIdValid,
  ukNhsValid,
  ukNinoValid,
  verhoeffValid,
  zaIdNumberValid,
} from './checksums'
import { ASCII_DIGIT, compact, END, NEEDS_CONTEXT, patternRecognizer, START, type Finding, type Recognizer } from './pattern'

/**
 * The identifiers countries other than the United States issue to people and companies, under Presidio's entity
 * names, each checked by the rule its issuer publishes. Those whose check passes about one random number in ten, or
 * that have no check at all, are reported only after a context word (NEEDS_CONTEXT); those whose shape is their own
 * and whose check is strong are reported alone.
 */

const inPan = patternRecognizer({
  type: 'IN_PAN',
  needs: ASCII_DIGIT,
  patterns: [
    { source: `${START}[A-Z]{3}[ABCFGHJLPT][A-Z]\\d{4}[A-Z]${END}`, score: 0.85 },
    { source: `${START}[A-Z]{5}\\d{4}[A-Z]${END}`, score: 0.6 },
  ],
  context: ['permanent account number', 'pan'],
})

const inAadhaar = patternRecognizer({
  type: 'IN_AADHAAR',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{4}[- :]?\\d{4}[- :]?\\d{4}${END}`, score: 0.01 }],
  context: ['aadhaar', 'uidai'],
  validate: (match) => aadhaarValid(match.replace(/[- :]/g, '')),
})

const ukNhs = patternRecognizer({
  type: 'UK_NHS',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{3}[- ]?\\d{3}[- ]?\\d{4}${END}`, score: 0.5 }],
  context: ['nhs', 'health', 'patient'],
  validate: (match) => ukNhsValid(compact(match)),
  validatedScore: NEEDS_CONTEXT,
})

const ukNino = patternRecognizer({
  type: 'UK_NINO',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\\d{2} ?\\d{2} ?\\d{2} ?[A-D]${END}`, score: 0.5 }],
  context: ['insurance', 'nino'],
  // No check digit: a valid prefix keeps the pattern's score.
  validate: (match) => ukNinoValid(compact(match)),
  validatedScore: 0.5,
})

const esNif = patternRecognizer({
  type: 'ES_NIF',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{8}-?[A-Z]${END}`, score: 0.5 }],
  context: ['dni', 'nif', 'documento', 'identidad'],
  validate: (match) => esNifValid(compact(match)),
})

const esNie = patternRecognizer({
  type: 'ES_NIE',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[XYZ]-?\\d{7}-?[A-Z]${END}`, score: 0.5 }],
  context: ['nie', 'extranjero', 'identidad'],
  validate: (match) => esNifValid(compact(match)),
})

const itFiscalCode = patternRecognizer({
  type: 'IT_FISCAL_CODE',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}(?=[A-Z]*\\d)[A-Z]{6}[\\dLMNPQRSTUV]{2}[A-EHLMPRST][\\dLMNPQRSTUV]{2}[A-Z][\\dLMNPQRSTUV]{3}[A-Z]${END}`, score: 0.5 }],
  context: ['codice', 'fiscale', 'cf'],
  validate: (match) => itFiscalCodeValid(compact(match)),
})

const plPesel = patternRecognizer({
  type: 'PL_PESEL',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{11}${END}`, score: 0.4 }],
  context: ['pesel'],
  validate: plPeselValid,
  validatedScore: NEEDS_CONTEXT,
})

const sgNricFin = patternRecognizer({
  type: 'SG_NRIC_FIN',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[STFG]\\d{7}[A-Z]${END}`, score: 0.5 }],
  context: ['nric', 'fin'],
  validate: (match) => sgNricFinValid(compact(match)),
})

const auTfn = patternRecognizer({
  type: 'AU_TFN',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{3} ?\\d{3} ?\\d{3}${END}`, score: 0.1 }],
  context: ['tfn', 'tax'],
  validate: (match) => auTfnValid(compact(match)),
  validatedScore: NEEDS_CONTEXT,
})

const auAbn = patternRecognizer({
  type: 'AU_ABN',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{2} ?\\d{3} ?\\d{3} ?\\d{3}${END}`, score: 0.1 }],
  context: ['abn', 'business'],
  validate: (match) => auAbnValid(compact(match)),
  validatedScore: NEEDS_CONTEXT,
})

const auAcn = patternRecognizer({
  type: 'AU_ACN',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{3} ?\\d{3} ?\\d{3}${END}`, score: 0.1 }],
  context: ['acn', 'company'],
  validate: (match) => auAcnValid(compact(match)),
  validatedScore: NEEDS_CONTEXT,
})

const auMedicare = patternRecognizer({
  type: 'AU_MEDICARE',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[2-6]\\d{3} ?\\d{5} ?\\d(?:[- ]?\\d)?${END}`, score: 0.1 }],
  context: ['medicare'],
  validate: (match) => auMedicareValid(compact(match)),
  validatedScore: NEEDS_CONTEXT,
})

const fiPersonalIdentityCode = patternRecognizer({
  type: 'FI_PERSONAL_IDENTITY_CODE',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{6}[-+A-FU-Y]\\d{3}[0-9A-Y]${END}`, score: 0.5 }],
  context: ['hetu', 'henkilötunnus', 'henkilotunnus', 'identity'],
  validate: (match) => fiPersonalIdentityCodeValid(match.toUpperCase()),
})

const caSin = patternRecognizer({
  type: 'CA_SIN',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[1-79]\\d{2}([- ]?)\\d{3}\\1\\d{3}${END}`, score: 0.5 }],
  context: ['sin', 'social', 'insurance', 'nas', 'assurance'],
  validate: (match) => caSinValid(compact(match)),
  validatedScore: NEEDS_CONTEXT,
})

/** Written with its separator ("871220-2384") a valid personnummer is reported alone; as a run of digits, after a context word. */
const sePersonnummer = patternRecognizer({
  type: 'SE_PERSONNUMMER',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}(?:\\d{6}|(?:19|20)\\d{6})[-+]\\d{4}${END}`, score: 0.5 }],
  context: ['personnummer', 'samordningsnummer', 'personal identity'],
  validate: sePersonnummerValid,
})
const sePersonnummerDigits = patternRecognizer({
  type: 'SE_PERSONNUMMER',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}(?:\\d{10}|(?:19|20)\\d{10})${END}`, score: 0.5 }],
  context: sePersonnummer.context,
  validate: sePersonnummerValid,
  validatedScore: NEEDS_CONTEXT,
})

const deTaxId = patternRecognizer({
  type: 'DE_TAX_ID',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[1-9]\\d{10}${END}`, score: 0.5 }, { source: `${START}[1-9]\\d \\d{3} \\d{3} \\d{3}${END}`, score: 0.5 }],
  context: ['steuer', 'identifikationsnummer', 'idnr', 'bzst'],
  validate: (match) => deTaxIdValid(compact(match)),
  validatedScore: NEEDS_CONTEXT,
})

/** A German document number: nine characters of the ICAO character set the Bundesdruckerei uses, the last a check digit. */
const GERMAN_DOCUMENT = `${START}[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{7}\\d${END}`
const deIdCard = patternRecognizer({
  type: 'DE_ID_CARD',
  needs: ASCII_DIGIT,
  patterns: [{ source: GERMAN_DOCUMENT, score: 0.5 }, { source: `${START}T\\d{8}${END}`, score: NEEDS_CONTEXT }],
  context: ['personalausweis', 'ausweis', 'npa'],
  // The old card ("T" and eight digits) has no check digit the new one's rule reads.
  validate: (match) => /^T\d{8}$/i.test(match) || icaoCheckValid(compact(match)),
  validatedScore: NEEDS_CONTEXT,
})
const dePassport = patternRecognizer({
  type: 'DE_PASSPORT',
  needs: ASCII_DIGIT,
  patterns: [{ source: GERMAN_DOCUMENT, score: 0.5 }],
  context: ['reisepass', 'passnummer', 'passport'],
  // Passports leave out the letters a reader might take for digits (A B D E I O Q S U).
  validate: (match) => !/[ABDEIOQSU]/i.test(match.slice(0, 8)) && icaoCheckValid(compact(match)),
  validatedScore: NEEDS_CONTEXT,
})

/**
 * South Korea's RRN: written with its hyphen after a valid birth date it is reported alone, at 1.0 when its check digit
 * holds and at Presidio's 0.5 when not (numbers issued since October 2020 carry none); as a run of digits, only a valid
 * one after a context word.
 */
const krRrn: Recognizer = {
  context: ['rrn', 'resident registration', '주민등록번호', '주민번호'],
  needs: ASCII_DIGIT,
  find(text) {
    const findings: Finding[] = []
    for (const match of text.matchAll(new RegExp(`${START}\\d{6}-?[1-4]\\d{6}${END}`, 'gu'))) {
      const digits = match[0].replace('-', '')
      if (!krRrnShapeValid(digits)) continue
      const checked = krRrnChecksumValid(digits)
      const score = match[0].includes('-') ? (checked ? 1 : 0.5) : checked ? NEEDS_CONTEXT : 0
      if (score > 0) findings.push({ type: 'KR_RRN', begin: match.index, end: match.index + match[0].length, score })
    }
    return findings
  },
}

/** A birth date, citizenship digits and a Luhn digit: one random 13-digit number in hundreds passes, so a valid one is reported alone. */
const zaIdNumber = patternRecognizer({
  type: 'ZA_ID_NUMBER',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{10}[0-2][89]\\d${END}`, score: 0.2 }],
  context: ['identity', 'id'],
  validate: (match) => zaIdNumberValid(match),
})

const twNationalId = patternRecognizer({
  type: 'TW_NATIONAL_ID',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[A-Z][12]\\d{8}${END}`, score: 0.3 }],
  context: ['taiwan', 'national', '身分證', '身份證', '統一證號'],
  validate: (match) => twNationalIdValid(match.toUpperCase()),
  validatedScore: NEEDS_CONTEXT,
})

/** Presidio's pattern: the first digit is the kind of person, the next two a province Thailand has issued. */
const thTnin = patternRecognizer({
  type: 'TH_TNIN',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[1-9](?:[134]\\d|[25][0134567]|[67][01234567]|[89][0123456])\\d{10}${END}`, score: 0.4 }],
  // Thai writes its vowel signs as combining marks, which end a word here; these are the pieces the words begin with.
  context: ['tnin', 'thai', 'เลขประจำ', 'เลขบัตรประชาชน', 'บัตรประชาชน'],
  validate: thTninValid,
  validatedScore: NEEDS_CONTEXT,
})

const ruTaxId = patternRecognizer({
  type: 'RU_TAX_ID',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}(?:\\d{10}|\\d{12})${END}`, score: 0.3 }],
  context: ['инн', 'налог', 'фнс', 'inn', 'tax'],
  validate: ruInnValid,
  validatedScore: NEEDS_CONTEXT,
})

/** Written in its groups ("112-233-445 95") with a two-digit check a СНИЛС is reported alone; as a run of digits, after a context word. */
const ruSnils = patternRecognizer({
  type: 'RU_SNILS',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{3}-\\d{3}-\\d{3}[ -]\\d{2}${END}`, score: 0.7 }],
  context: ['снилс', 'страхов', 'пенсион', 'пфр', 'snils'],
  validate: (match) => ruSnilsValid(match.replace(/\D/g, '')),
})
const ruSnilsDigits = patternRecognizer({
  type: 'RU_SNILS',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{11}${END}`, score: 0.05 }],
  context: ruSnils.context,
  validate: ruSnilsValid,
  validatedScore: NEEDS_CONTEXT,
})

const ngNin = patternRecognizer({
  type: 'NG_NIN',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{11}${END}`, score: 0.01 }],
  context: ['nin', 'nimc', 'identification', 'nigeria'],
  validate: verhoeffValid,
  validatedScore: NEEDS_CONTEXT,
})

/**
 * Singapore's UEN: eight or nine digits and a check letter (shared in shape with Spain's NIF and with order codes)
 * needs a context word; the third kind (T/S/R, year, entity type, four digits, check letter) is its own shape.
 */
const sgUen = patternRecognizer({
  type: 'SG_UEN',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{8,9}[A-Z]${END}`, score: 0.3 }],
  context: ['uen', 'acra', 'entity', 'business registration'],
  validate: (match) => sgUenValid(match.toUpperCase()),
  validatedScore: NEEDS_CONTEXT,
})
const sgUenOtherEntity = patternRecognizer({
  type: 'SG_UEN',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[TSR]\\d{2}[A-Z]{2}\\d{4}[A-Z]${END}`, score: 0.3 }],
  context: sgUen.context,
  validate: (match) => sgUenValid(match.toUpperCase()),
})

const phTin = patternRecognizer({
  type: 'PH_TIN',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}\\d{3}-\\d{3}-\\d{3}(?:-\\d{3})?${END}`, score: 0.5 }, { source: `${START}(?:\\d{9}|\\d{12})${END}`, score: 0.3 }],
  context: ['tin', 'bir', 'taxpayer', 'tax'],
  validate: (match) => phTinValid(match.replace(/-/g, '')),
  validatedScore: NEEDS_CONTEXT,
})

/** Passport and voter numbers without a check digit (Presidio's shapes): only a word naming them reports them. */
const PASSPORT_WORDS = ['passport', 'pasaporte', 'passeport', 'passaporto']
const ukPassport = patternRecognizer({
  type: 'UK_PASSPORT',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[A-Z]{2}\\d{7}${END}`, score: NEEDS_CONTEXT }],
  context: [...PASSPORT_WORDS, 'hmpo'],
})
const inPassport = patternRecognizer({
  type: 'IN_PASSPORT',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[A-Z][1-9]\\d ?\\d{4}[1-9]${END}`, score: NEEDS_CONTEXT }],
  context: PASSPORT_WORDS,
})
const esPassport = patternRecognizer({
  type: 'ES_PASSPORT',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[A-Z]{3}\\d{6}${END}`, score: NEEDS_CONTEXT }],
  context: PASSPORT_WORDS,
})
const inVoter = patternRecognizer({
  type: 'IN_VOTER',
  needs: ASCII_DIGIT,
  patterns: [{ source: `${START}[A-Z]{3}\\d{7}${END}`, score: NEEDS_CONTEXT }],
  context: ['voter', 'epic', 'elector'],
})

export const NATIONAL_IDENTIFIER_RECOGNIZERS: readonly Recognizer[] = [
  inPan,
  inAadhaar,
  inPassport,
  inVoter,
  ukNhs,
  ukNino,
  ukPassport,
  esNif,
  esNie,
  esPassport,
  itFiscalCode,
  plPesel,
  sgNricFin,
  sgUen,
  sgUenOtherEntity,
  auTfn,
  auAbn,
  auAcn,
  auMedicare,
  fiPersonalIdentityCode,
  caSin,
  sePersonnummer,
  sePersonnummerDigits,
  deTaxId,
  deIdCard,
  dePassport,
  krRrn,
  zaIdNumber,
  twNationalId,
  thTnin,
  ruTaxId,
  ruSnils,
  ruSnilsDigits,
  ngNin,
  phTin,
]
