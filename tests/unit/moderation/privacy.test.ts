import { describe, expect, it } from 'vitest'
import { analyzePii, patternFindings, phoneSearchText } from '@/lib/moderation/engines/privacy'
import { wordsOf } from '@/lib/moderation/engines/privacy/context'
import { parsedSentences } from '@/lib/moderation/engines/privacy/names'
import nlp from 'compromise'
import { PATTERN_RECOGNIZERS, PHONE_RECOGNIZER, PHONE_TRIES_PER_REGION, searchPhoneNumbers } from '@/lib/moderation/engines/privacy/recognizers'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { keccak256, keccakSponge256 } from '@/lib/moderation/engines/privacy/keccak'
import { sha256 } from '@/lib/moderation/engines/privacy/sha256'
import {
  aadhaarValid,
  auAbnValid,
  auAcnValid,
  auMedicareValid,
  auTfnValid,
  base58CheckValid,
  caSinValid,
  deTaxIdValid,
  icaoCheckValid,
  krRrnChecksumValid,
  krRrnShapeValid,
  phTinValid,
  ruInnValid,
  ruSnilsValid,
  sePersonnummerValid,
  sgUenValid,
  thTninValid,
  twNationalIdValid,
  verhoeffValid,
  zaIdNumberValid,
  bech32AddressValid,
  deaNumberValid,
  esNifValid,
  ethereumAddressCheck,
  fiPersonalIdentityCodeValid,
  ibanValid,
  ipv6Valid,
  itFiscalCodeValid,
  luhnValid,
  plPeselValid,
  sgNricFinValid,
  ukNhsValid,
  ukNinoValid,
  usSsnValid,
} from '@/lib/moderation/engines/privacy/checksums'

function found(text: string) {
  return analyzePii(text).map((e) => ({ type: e.type, text: text.slice(e.beginOffset, e.endOffset), score: e.score }))
}

describe('checksums', () => {
  it('Luhn, IBAN mod 97, Verhoeff, SSN rules, IPv6', () => {
    expect(luhnValid('4111111111111111')).toBe(true)
    expect(luhnValid('1234567890123456')).toBe(false)
    expect(ibanValid('GB82WEST12345698765432')).toBe(true)
    expect(ibanValid('GB82WEST12345698765433')).toBe(false)
    expect(ibanValid('DE89370400440532013000')).toBe(true)
    expect(aadhaarValid('234567890124')).toBe(true)
    expect(aadhaarValid('234567890123')).toBe(false)
    expect(aadhaarValid('123456789012')).toBe(false)
    expect(usSsnValid('219-09-9999')).toBe(true)
    for (const ssn of ['078-05-1120', '666-12-3456', '219-00-9999', '219-09-0000', '111-11-1111', '219-09.9999']) {
      expect(usSsnValid(ssn), ssn).toBe(false)
    }
    expect(ipv6Valid('fe80::1ff:fe23:4567:890a')).toBe(true)
    expect(ipv6Valid('::ffff:192.0.2.1')).toBe(true)
    expect(ipv6Valid('1:2:3:4:5:6:7')).toBe(false)
    expect(ipv6Valid('12:30:45')).toBe(false)
  })
})

describe('Presidio-style PII analysis', () => {
  it('finds each entity type with Presidio names and scores', () => {
    expect(found('Write to karan@example.com')).toEqual([{ type: 'EMAIL_ADDRESS', text: 'karan@example.com', score: 1 }])
    expect(found('card 4111 1111 1111 1111')).toEqual([{ type: 'CREDIT_CARD', text: '4111 1111 1111 1111', score: 1 }])
    expect(found('server 192.168.0.1 and fe80::1ff:fe23:4567:890a')).toEqual([
      { type: 'IP_ADDRESS', text: '192.168.0.1', score: 0.6 },
      { type: 'IP_ADDRESS', text: 'fe80::1ff:fe23:4567:890a', score: 0.6 },
    ])
    expect(found('pay GB82 WEST 1234 5698 7654 32 DE89370400440532013000')).toEqual([
      { type: 'IBAN_CODE', text: 'GB82 WEST 1234 5698 7654 32', score: 1 },
      { type: 'IBAN_CODE', text: 'DE89370400440532013000', score: 1 },
    ])
    expect(found('see https://example.org/path?x=1. and www.test.co.uk')).toEqual([
      { type: 'URL', text: 'https://example.org/path?x=1', score: 0.6 },
      { type: 'URL', text: 'www.test.co.uk', score: 0.5 },
    ])
    expect(found('id ABCPD1234E')).toEqual([{ type: 'IN_PAN', text: 'ABCPD1234E', score: 0.85 }])
    expect(found('uid 2345 6789 0124')).toEqual([{ type: 'IN_AADHAAR', text: '2345 6789 0124', score: 1 }])
    expect(found('born 12/31/1990')).toEqual([{ type: 'DATE_TIME', text: '12/31/1990', score: 0.6 }])
    expect(found('I am John Smith from Toronto.')).toEqual([
      { type: 'PERSON', text: 'John Smith', score: 0.85 },
      { type: 'LOCATION', text: 'Toronto', score: 0.85 },
    ])
    expect(found('She joined Microsoft.')).toEqual([{ type: 'ORGANIZATION', text: 'Microsoft', score: 0.85 }])
  })

  it('rejects numbers whose checksum or rules fail', () => {
    expect(found('card 1234 5678 9012 3456')).toEqual([])
    expect(found('ssn 078-05-1120')).toEqual([])
    expect(found('uid 2345 6789 0123')).toEqual([])
    expect(found('GB82 WEST 1234 5698 7654 33')).toEqual([])
    expect(found('IP 01.2.3.4')).toEqual([])
  })

  it("an Aadhaar number is reported when its last digit is Verhoeff's check digit of the other eleven, and not with any other", () => {
    // Verhoeff's tables as published (not the engine's computed ones): multiplication in D5, the position permutation, inverses.
    const d = [
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6], [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
      [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1], [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
      [8, 7, 6, 5, 9, 3, 2, 1, 0, 4], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    ]
    const p = [
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2], [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
      [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1], [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
    ]
    const inverse = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]
    const checkDigit = (digits: string) => inverse[[...digits].reverse().reduce((c, digit, i) => d[c]![p[(i + 1) % 8]![Number(digit)]!]!, 0)]!
    expect(checkDigit('236')).toBe(3) // the published example: 2363
    const aadhaar = (text: string) => analyzePii(text).filter((e) => e.type === 'IN_AADHAAR').map((e) => text.slice(e.beginOffset, e.endOffset))
    for (const first11 of ['23456789012', '49182736450', '87654321098', '50011122233', '99990000111']) {
      const check = checkDigit(first11)
      const number = `${first11}${check}`
      const spaced = number.replace(/(\d{4})(?=\d)/g, '$1 ')
      expect(aadhaar(`My Aadhaar number is ${spaced}.`), number).toEqual([spaced])
      expect(aadhaar(`uid ${number}`), number).toEqual([number])
      for (let other = 0; other < 10; other++) {
        if (other === check) continue
        expect(aadhaar(`My Aadhaar number is ${first11}${other}.`), `${first11}${other}`).toEqual([])
      }
    }
  })

  it('context words raise scores: a local phone number or weak SSN appears only with them', () => {
    expect(found('reach me at 212 555 0123')).toEqual([])
    expect(found('my phone is 212 555 0123')).toEqual([{ type: 'PHONE_NUMBER', text: '212 555 0123', score: 0.75 }])
    expect(found('my phone is +1 212 555 0123')).toEqual([{ type: 'PHONE_NUMBER', text: '+1 212 555 0123', score: 0.95 }])
    expect(found('id 219-09-9999')).toEqual([{ type: 'US_SSN', text: '219-09-9999', score: 0.5 }])
    expect(found('my ssn: 219-09-9999')).toEqual([{ type: 'US_SSN', text: '219-09-9999', score: 0.85 }])
    expect(found('my PAN ABCPD1234E')).toEqual([{ type: 'IN_PAN', text: 'ABCPD1234E', score: 1 }])
  })

  it('a valid number written with its country code is a phone number without a context word; an invalid one is not', () => {
    expect(found('reach me at +1 212 555 0123')).toEqual([{ type: 'PHONE_NUMBER', text: '+1 212 555 0123', score: 0.6 }])
    expect(found('Llámame al +34 612 345 678')).toEqual([{ type: 'PHONE_NUMBER', text: '+34 612 345 678', score: 0.6 }])
    expect(found('Contact Jean at jl@example.fr or +33 6 12 34 56 78.').map((e) => e.type)).toEqual(['EMAIL_ADDRESS', 'PHONE_NUMBER'])
    // A run of digits after a plus sign that no numbering plan allows ("+3 4 5 6 7 8") stays what it was: nothing.
    expect(found('The score was +3 4 5 6 7 8')).toEqual([])
  })

  it('places compromise does not know come from the gazetteer; a place word inside a longer name does not', () => {
    const places = (text: string) => found(text).filter((e) => e.type === 'LOCATION').map((e) => e.text)
    expect(places('The bus from Ouagadougou to Kisumu takes days, they said.')).toEqual(['Ouagadougou', 'Kisumu'])
    expect(places('Ouagadougou is hot in April.')).toEqual(['Ouagadougou'])
    expect(places('We ate at the Kisumu Grill yesterday.')).toEqual([])
  })

  it('the shortcuts (no parse without a possible entity, fewer phone regions) lose nothing', () => {
    // Lower-case names, places and dates compromise knows still reach it; a text it cannot find anything in gives nothing.
    expect(found('ask sarah about the report tomorrow')).toEqual([
      { type: 'PERSON', text: 'sarah', score: 0.85 },
      { type: 'DATE_TIME', text: 'tomorrow', score: 0.85 },
    ])
    expect(found('Call the front desk if you need more towels.')).toEqual([])
    // A time whose only word is one a post-tagger pattern needs.
    expect(found('a table for two at 7 pm')).toEqual([{ type: 'DATE_TIME', text: '7 pm', score: 0.85 }])
    // A gazetteer place opening the sentence is found without compromise.
    expect(found('Ouagadougou is far.').map((e) => e.text)).toEqual(['Ouagadougou'])
    // A German national number after an international one: the regions after the first still run.
    expect(found('Telefon +49 30 1234567 oder 030 1234567').filter((e) => e.type === 'PHONE_NUMBER').map((e) => e.text)).toEqual([
      '+49 30 1234567',
      '030 1234567',
    ])
    // An Indian mobile number written nationally, and none in short digit groups.
    expect(found('my mobile is 98765 43210').map((e) => e.text)).toEqual(['98765 43210'])
    expect(found('Version 4.1.2 fixed 12 bugs.')).toEqual([])
  })

  it('a bare domain inside an e-mail address is not also a URL', () => {
    expect(found('karan@example.com').map((e) => e.type)).toEqual(['EMAIL_ADDRESS'])
  })

  it('offsets are UTF-16 indices: text.slice(begin, end) is the entity, after emoji and combining marks', () => {
    const text = '😀👩‍👩‍👧 é mail a.b@example.org, card 4111-1111-1111-1111 😀'
    const entities = analyzePii(text)
    expect(entities.map((e) => e.type)).toEqual(['EMAIL_ADDRESS', 'CREDIT_CARD'])
    expect(entities.map((e) => text.slice(e.beginOffset, e.endOffset))).toEqual(['a.b@example.org', '4111-1111-1111-1111'])
  })

  it('scores lie in [0.5, 1] and results are sorted by offset', () => {
    const entities = analyzePii('John Smith, john@example.com, 192.168.1.1, Berlin, phone +1 212 555 0123')
    expect(entities.every((e) => e.score >= 0.5 && e.score <= 1)).toBe(true)
    expect(entities.map((e) => e.beginOffset)).toEqual([...entities.map((e) => e.beginOffset)].sort((a, b) => a - b))
  })
})

describe('national identifiers outside the United States', () => {
  const spans = (text: string) => analyzePii(text).map((e) => [e.type, text.slice(e.beginOffset, e.endOffset)])

  it('validate the published examples and refuse them with one character changed', () => {
    // Each issuer's own example or a textbook one: the NHS's 943 476 5919, Spain's 12345678Z and X1234567L,
    // Mario Rossi's codice fiscale, Wikipedia's PESEL 44051401359, Singapore's S1234567D, the ATO's TFN 123 456 782
    // and ABN 51 824 753 556, ASIC's ACN 004 085 616, Finland's 131052-308T.
    const cases: [(value: string) => boolean, string, string][] = [
      [ukNhsValid, '9434765919', '9434765918'],
      [esNifValid, '12345678Z', '12345678A'],
      [esNifValid, 'X1234567L', 'X1234567A'],
      [itFiscalCodeValid, 'RSSMRA85T10A562S', 'RSSMRA85T10A562T'],
      [plPeselValid, '44051401359', '44051401358'],
      [sgNricFinValid, 'S1234567D', 'S1234567E'],
      [auTfnValid, '123456782', '123456783'],
      [auAbnValid, '51824753556', '51824753557'],
      [auAcnValid, '004085616', '004085617'],
      [auMedicareValid, '2123456701', '2123456711'],
      [fiPersonalIdentityCodeValid, '131052-308T', '131052-308U'],
      [ukNinoValid, 'AB123456C', 'GB123456C'],
    ]
    for (const [valid, good, bad] of cases) {
      expect(valid(good), good).toBe(true)
      expect(valid(bad), bad).toBe(false)
    }
  })

  it('report identifiers whose shape is their own, valid, under Presidio\'s names', () => {
    expect(spans('Mi DNI es 12345678Z y el NIE de mi mujer es X1234567L.')).toEqual([['ES_NIF', '12345678Z'], ['ES_NIE', 'X1234567L']])
    expect(spans('Il mio codice fiscale è RSSMRA85T10A562S.')).toEqual([['IT_FISCAL_CODE', 'RSSMRA85T10A562S']])
    expect(spans('Her NRIC is S1234567D.')).toEqual([['SG_NRIC_FIN', 'S1234567D']])
    expect(spans('Henkilötunnus 131052-308T')).toEqual([['FI_PERSONAL_IDENTITY_CODE', '131052-308T']])
    expect(spans('National Insurance number: AB 12 34 56 C')).toEqual([['UK_NINO', 'AB 12 34 56 C']])
    expect(spans('Invalid: 12345678A, X1234567A, S1234567E.')).toEqual([])
  })

  it('report a plain run of digits as an identifier only after a context word', () => {
    expect(spans('My NHS number is 943 476 5919.')).toContainEqual(['UK_NHS', '943 476 5919'])
    expect(spans('Call me on 943 476 5919.')).not.toContainEqual(['UK_NHS', '943 476 5919'])
    expect(spans('Numer PESEL: 44051401359')).toContainEqual(['PL_PESEL', '44051401359'])
    expect(spans('Order 44051401359 shipped.')).toEqual([])
    expect(spans('My TFN is 123 456 782.')).toContainEqual(['AU_TFN', '123 456 782'])
    expect(spans('The invoice total was 123456782 cents.')).toEqual([])
    expect(spans('Our ABN is 51 824 753 556.')).toContainEqual(['AU_ABN', '51 824 753 556'])
    expect(spans('ACN 004 085 616')).toContainEqual(['AU_ACN', '004 085 616'])
    expect(spans('Medicare card 2123 45670 1')).toContainEqual(['AU_MEDICARE', '2123 45670 1'])
  })
})

describe("the rest of Presidio's English recognizers", () => {
  const spans = (text: string) => analyzePii(text).filter((e) => !['PERSON', 'LOCATION', 'ORGANIZATION', 'DATE_TIME'].includes(e.type)).map((e) => [e.type, text.slice(e.beginOffset, e.endOffset)])

  it("hash as Keccak-256 (Ethereum's) and, with SHA3's padding, as Node's SHA3-256", () => {
    expect(Buffer.from(keccak256(new Uint8Array())).toString('hex')).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    // Lengths around the sponge's 136-byte block.
    for (const length of [0, 3, 135, 136, 137, 300]) {
      const message = Buffer.from('a'.repeat(length))
      expect(Buffer.from(keccakSponge256(message, 0x06)).toString('hex'), String(length)).toBe(createHash('sha3-256').update(message).digest('hex'))
    }
  })

  it("hash as SHA-256 as Node's crypto does, at the lengths around a block's padding (the browser has no node:crypto)", () => {
    for (const length of [0, 1, 21, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const message = Uint8Array.from({ length }, (_, i) => (i * 131 + 7) & 0xff)
      expect(Buffer.from(sha256(message)).toString('hex'), String(length)).toBe(createHash('sha256').update(message).digest('hex'))
    }
  })

  it('validate the published addresses and DEA numbers and refuse them with one character changed', () => {
    // The Bitcoin wiki's P2PKH and P2SH examples, BIP 173's and BIP 350's SegWit examples, EIP-55's own examples.
    expect(base58CheckValid('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBe(true)
    expect(base58CheckValid('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe(true)
    expect(base58CheckValid('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3')).toBe(false)
    expect(bech32AddressValid('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(true)
    expect(bech32AddressValid('BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ')).toBe(true)
    expect(bech32AddressValid('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr')).toBe(false)
    expect(bech32AddressValid('bc1qAR0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(false)
    expect(bech32AddressValid('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0')).toBe(true)
    for (const address of ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']) {
      expect(ethereumAddressCheck(address), address).toEqual({ valid: true, checksummed: true })
    }
    expect(ethereumAddressCheck('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toEqual({ valid: false, checksummed: false })
    expect(ethereumAddressCheck('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toEqual({ valid: true, checksummed: false })
    // 1 + 3 + 5 + 2 x (2 + 4 + 6) = 33: the check digit is 3.
    expect(deaNumberValid('AB1234563')).toBe(true)
    expect(deaNumberValid('AB1234564')).toBe(false)
    // An area number of 900-999 is an ITIN, never a Social Security number.
    expect(usSsnValid('943-88-7933')).toBe(false)
  })

  it('report crypto addresses, DEA numbers, MAC addresses and ITINs under their Presidio names', () => {
    expect(spans('Send it to my wallet 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 or bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq.')).toEqual([
      ['CRYPTO', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
      ['CRYPTO', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ])
    expect(spans('Pay to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed or 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed.')).toEqual([
      ['CRYPTO', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
      ['CRYPTO', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
    ])
    expect(spans('Prescriber DEA number AB1234563.')).toEqual([['MEDICAL_LICENSE', 'AB1234563']])
    expect(spans('The MAC address is 00:1A:2B:3C:4D:5E, the switch port 0012.3456.789a.')).toEqual([
      ['MAC_ADDRESS', '00:1A:2B:3C:4D:5E'],
      ['MAC_ADDRESS', '0012.3456.789a'],
    ])
    expect(spans('My ITIN is 943-88-7933.')).toEqual([['US_ITIN', '943-88-7933']])
  })

  it('leave out what only looks like them', () => {
    // A checksum that fails, a mixed-case address whose capitals are wrong, the first 40 digits of a transaction hash,
    // a DEA-shaped code without a context word, the broadcast address, a code mixing separators.
    expect(spans('Not 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3 nor 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD.')).toEqual([])
    expect(spans('tx 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed5aaeb6053f3e94c9b9a09f33 confirmed')).toEqual([])
    expect(spans('Order AB1234563 shipped; DEA number AB1234564 is invalid.')).toEqual([])
    expect(spans('broadcast FF:FF:FF:FF:FF:FF and 00:1A-2B:3C:4D:5E')).toEqual([])
  })

  it('report a passport, bank account or licence number only after a word naming it', () => {
    expect(spans('My passport number is 912803456.')).toEqual([['US_PASSPORT', '912803456']])
    expect(spans('Passport #: C03005988')).toEqual([['US_PASSPORT', 'C03005988']])
    expect(spans('Deposit it into account number 4455667788.')).toEqual([['US_BANK_NUMBER', '4455667788']])
    expect(spans("Her driver's license number is D1234567.")).toEqual([['US_DRIVER_LICENSE', 'D1234567']])
    expect(spans('Driver license: S530-4607-1234')).toEqual([['US_DRIVER_LICENSE', 'S530-4607-1234']])
    expect(spans('Your order 100234987 ships with tracking 4455667788.')).toEqual([])
    // Presidio's "lic", "check" and "save" are parts of these words; a licence shape needs five digits.
    expect(spans('The public key 12345678 was checked and saved 123456789 times, licensed under v2.')).toEqual([])
  })

  it('read one run of digits as one thing when a context word or a checksum says which', () => {
    expect(spans('My NHS number is 943 476 5919.')).toEqual([['UK_NHS', '943 476 5919']])
    expect(spans('Call me on 943 476 5919.')).toEqual([['PHONE_NUMBER', '943 476 5919']])
    expect(spans('Call my passport office on 912803456.')).toContainEqual(['PHONE_NUMBER', '912803456'])
    expect(spans('Debit card 4111111111111111')).toEqual([['CREDIT_CARD', '4111111111111111']])
  })
})

describe('identifiers of more countries, under Presidio\'s names', () => {
  const spans = (text: string) => analyzePii(text).filter((e) => !['PERSON', 'LOCATION', 'ORGANIZATION', 'DATE_TIME'].includes(e.type)).map((e) => [e.type, text.slice(e.beginOffset, e.endOffset)])

  it("validate Presidio's own test values and refuse its invalid ones", () => {
    const cases: [(value: string) => boolean, string[], string[]][] = [
      [caSinValid, ['130692544', '347677452', '258933688'], ['130692545', '046454286']],
      [sePersonnummerValid, ['189004119807', '871220-2384', '9201232387', '19910924-2397'], ['19000309-3393', '19001309-2393', '200504422381']],
      [deTaxIdValid, ['12345678903', '98765432106'], ['12345678901', '11111111111', '11112345678']],
      [icaoCheckValid, ['L01X00T44', 'C01234565', 'F12345671'], ['L01X00T47', 'C01234567']],
      [(v) => krRrnShapeValid(v) && krRrnChecksumValid(v), ['9601211021413', '0509122000019'], ['9601211234567']],
      [(v) => zaIdNumberValid(v, new Date(Date.UTC(2026, 10, 29))), ['8001015009087', '9202201234088', '0001015002288'], ['8001015009086', '9902294321191']],
      [twNationalIdValid, ['A123456789', 'B123456780', 'A223456781'], ['A323456789', 'B298765432']],
      [thTninValid, ['1234567890121', '2345678901234', '3456789012347'], ['1234567890123']],
      [ruInnValid, ['7707083893', '7736050003', '500100732259'], ['1234567890', '123456789012']],
      [ruSnilsValid, ['11223344595'], ['11223344500', '11223344501']],
      [verhoeffValid, ['12345678902', '98765432102', '55512345672'], ['12345678901']],
      [(v) => sgUenValid(v, new Date(Date.UTC(2026, 10, 29))), ['53125226D', '201434292D', 'T16RF0037C', 'S57TU0392K'], ['53125226E', 'T16RF0037D']],
      [phTinValid, ['000123456000', '000123456'], ['000123457000', '123456789']],
    ]
    for (const [valid, good, bad] of cases) {
      for (const value of good) expect(valid(value), value).toBe(true)
      for (const value of bad) expect(valid(value), value).toBe(false)
    }
    // A South African birth date in the future is no birth date: 31 December 2026 seen on 29 November 2026, and a
    // month earlier (both pass Luhn).
    expect(zaIdNumberValid('2612315009084', new Date(Date.UTC(2026, 10, 29)))).toBe(false)
    expect(zaIdNumberValid('2610315009088', new Date(Date.UTC(2026, 10, 29)))).toBe(true)
  })

  it('report an identifier whose shape and check are strong on its own', () => {
    expect(spans('Mitt personnummer är 871220-2384.')).toEqual([['SE_PERSONNUMMER', '871220-2384']])
    expect(spans('RRN 960121-1021413')).toEqual([['KR_RRN', '960121-1021413']])
    expect(spans('ID 8001015009087')).toEqual([['ZA_ID_NUMBER', '8001015009087']])
    expect(spans('СНИЛС 112-233-445 95')).toEqual([['RU_SNILS', '112-233-445 95']])
    expect(spans('Company T16RF0037C')).toEqual([['SG_UEN', 'T16RF0037C']])
  })

  it('report the weaker ones only after a word naming them', () => {
    const named: [string, string, string][] = [
      ['My social insurance number is 130 692 544.', 'CA_SIN', '130 692 544'],
      ['Meine Steuer-ID: 12345678903.', 'DE_TAX_ID', '12345678903'],
      ['Personalausweis L01X00T44', 'DE_ID_CARD', 'L01X00T44'],
      ['Reisepass C01234565', 'DE_PASSPORT', 'C01234565'],
      ['Taiwan ID A123456789', 'TW_NATIONAL_ID', 'A123456789'],
      ['Thai ID number 1234567890121', 'TH_TNIN', '1234567890121'],
      ['ИНН 7707083893', 'RU_TAX_ID', '7707083893'],
      ['My NIN is 12345678902', 'NG_NIN', '12345678902'],
      ['Our UEN is 53125226D.', 'SG_UEN', '53125226D'],
      ['My TIN is 000-123-456-000.', 'PH_TIN', '000-123-456-000'],
      ['My passport number is CD7654321.', 'UK_PASSPORT', 'CD7654321'],
      ['Indian passport number: J6932157', 'IN_PASSPORT', 'J6932157'],
      ['my voter id: DBJ2289013', 'IN_VOTER', 'DBJ2289013'],
      ['Mi pasaporte es AAA123456.', 'ES_PASSPORT', 'AAA123456'],
    ]
    for (const [text, type, value] of named) {
      expect(spans(text), text).toEqual([[type, value]])
      // The same value without the word that names it is not reported as that identifier.
      expect(spans(`Reference ${value} is on the form.`), value).not.toContainEqual([type, value])
    }
  })

  it('read a context word of three letters or fewer only as a whole word', () => {
    // "sin" is in "since", "tin" in "getting", "tel" in "completely"; the whole words still count.
    expect(spans('Since 130 692 544 was entered, nothing changed.')).toEqual([])
    expect(spans('Getting 000-123-456-000 right took a while.')).toEqual([])
    expect(spans('SIN 130 692 544')).toEqual([['CA_SIN', '130 692 544']])
    expect(spans('The tel: 212 555 0123')).toContainEqual(['PHONE_NUMBER', '212 555 0123'])
  })
})

/** The people found in `text`, as the text spells them. */
const people = (text: string) => analyzePii(text).filter((e) => e.type === 'PERSON').map((e) => text.slice(e.beginOffset, e.endOffset))
const locations = (text: string) => analyzePii(text).filter((e) => e.type === 'LOCATION').map((e) => text.slice(e.beginOffset, e.endOffset))

describe('names after an introduction', () => {
  it('reads the capitalised words after "my name is", "I\'m", "call me", "this is" and a sign-off as a name, known to compromise or not', () => {
    expect(people('My name is Chiamaka Okonkwo and I need help.')).toEqual(['Chiamaka Okonkwo'])
    expect(people("Hi, I'm Aigerim Bekova from the support team.")).toEqual(['Aigerim Bekova'])
    expect(people('Please call me Thandiwe.')).toEqual(['Thandiwe'])
    expect(people('This is Mbali Dlamini speaking.')).toEqual(['Mbali Dlamini'])
    expect(people('Best regards,\nSiddharth Raghunathan')).toEqual(['Siddharth Raghunathan'])
  })

  it('leaves words it knows as something else, places, and a lone word after "this is"', () => {
    expect(people('I am Canadian and proud of it.')).toEqual([])
    expect(people("I'm Ready when you are.")).toEqual([])
    expect(people('This is Kubernetes, a container orchestrator.')).toEqual([])
    expect(people('Kind regards,\nThe Support Team')).toEqual([])
    expect(people('This is New York.')).toEqual([])
  })
})

describe('given names compromise does not know', () => {
  it('reads a given name from the gazetteer with the capitalised names after it, or alone, anywhere in a sentence', () => {
    expect(people('Last night I phoned Oluwaseun Bankole about the lease.')).toEqual(['Oluwaseun Bankole'])
    expect(people('The report came from Meenakshi Iyer in procurement.')).toEqual(['Meenakshi Iyer'])
    expect(people('Kwame and Ama are driving up tomorrow.')).toEqual(['Kwame', 'Ama'])
  })

  it('ends a name at a possessive and before an acronym, and widens a surname compromise found alone', () => {
    expect(people("We borrowed Tomasz Zielinski's ladder.")).toEqual(['Tomasz Zielinski'])
    expect(people('Mateus Carvalho joined the team.')).toEqual(['Mateus Carvalho'])
  })

  it('leaves names that are common words, a lone name opening a place name, and one after an article', () => {
    expect(people('I will grace the summer party with my presence.')).toEqual([])
    expect(people('We flew into Paris on Monday.')).toEqual([])
    expect(people('He wrote about the Tao of debugging.')).toEqual([])
  })
})

describe('names of things', () => {
  it('leaves a name that its neighbours show to be software, a device or a storm', () => {
    expect(people('Please upgrade Jenkins before the freeze.')).toEqual([])
    expect(people('The Julia interpreter printed a stack trace.')).toEqual([])
    expect(people('Most of the backend is written in Ada and C.')).toEqual([])
    expect(people('Cyclone Idai reached the coast at night.')).toEqual([])
    expect(people('Hurricane Ian flooded the coast.')).toEqual([])
    expect(people('Our Alexa ordered cat food by itself.')).toEqual([])
  })

  it('keeps the same names as people, and a title of kinship is not part of the name', () => {
    expect(people('Julia signed the lease yesterday.')).toEqual(['Julia'])
    expect(people("Karl's version of the plan won.")).toEqual(['Karl'])
    expect(people('Steve Jobs gave the keynote.')).toEqual(['Steve Jobs'])
    expect(people('Auntie Chiamaka cooked for everyone.')).toEqual(['Chiamaka'])
  })
})

describe('names in no list, read from their shape and place', () => {
  it('finds two or three name words that are no English word, and one after a verb done to a person or a word of kin', () => {
    expect(people('Please forward the agenda to Chukwuemeka Obi before noon.')).toEqual(['Chukwuemeka Obi'])
    expect(people('Adaeze Nwosu-Okafor joined the board in March.')).toEqual(['Adaeze Nwosu-Okafor'])
    expect(people('The permit was approved by Tran Van Minh last week.')).toEqual(['Tran Van Minh'])
    expect(people('Tell Themba the car is ready.')).toEqual(['Themba'])
    expect(people("Tell Themba'll be late again.")).toEqual(['Themba'])
    expect(people('My neighbour Radka lent us her ladder.')).toEqual(['Radka'])
    expect(people('Has anyone spoken to Oyelaran since Tuesday?')).toEqual(['Oyelaran'])
    expect(people('We finally heard back from Oyelowo about the quote.')).toEqual(['Oyelowo'])
  })

  it('carries on a name found cut short, and a name that is also a place takes the word after it', () => {
    expect(people('My manager, Xu Wenjing, approved the leave.')).toEqual(['Xu Wenjing'])
    expect(people('Professor Tanaka Hiroshi will give the opening lecture.')).toEqual(['Tanaka Hiroshi'])
    expect(people('We interviewed Ngozi Okonkwo-Bello for the finance role.')).toEqual(['Ngozi Okonkwo-Bello'])
  })

  it('in a text all in lower case, finds a given name right after a verb done to a person', () => {
    expect(people('ask priya about the keys')).toEqual(['priya'])
    expect(people('meet chiamaka at the station')).toEqual(['chiamaka'])
    expect(people('tell kwame thx')).toEqual(['kwame'])
    expect(people('i will tell you tomorrow')).toEqual([])
    expect(people('Ask priya about the keys')).toEqual([])
  })

  it('a place found as part of a longer place name gives way to it', () => {
    const places = (text: string) => found(text).filter((e) => e.type === 'LOCATION').map((e) => e.text)
    expect(places('Our cousins moved from Porto Alegre to Lisbon.')).toEqual(['Porto Alegre', 'Lisbon'])
    expect(places('He studied at the University of New South Wales.')).toEqual(['New South Wales'])
  })

  it('reads a place written in lower case only where the gazetteer has it and it is no common word', () => {
    const places = (text: string) => found(text).filter((e) => e.type === 'LOCATION').map((e) => e.text)
    expect(places('just got back from lisbon, still jetlagged')).toEqual(['lisbon'])
    expect(places('She is from manchester but lives in Leeds.')).toEqual(['manchester', 'Leeds'])
    expect(places('Wo ist der nächste Bahnhof?')).toEqual([])
    expect(places("const suffix = ['th', 'st', 'nd', 'rd'][n % 10]")).toEqual([])
    expect(places('Put the leftovers in the fridge and the turkey in the oven.')).toEqual([])
    expect(places('ignore: ["node_modules", "dist"]')).toEqual([])
  })

  it('reads a person in lower case only in a text all in lower case that is no code, and never a span with no letter', () => {
    expect(people("app.get('/', function (req, res) {\n  res.send('Hello World')\n})")).toEqual([])
    expect(people('Please mark the invoice as paid and grant access to the new hire.')).toEqual([])
    expect(people('The meeting starts at 9 o’clock sharp.')).toEqual([])
    expect(people('Thanks to Sindre Sorhus for the original idea.')).toEqual(['Sindre Sorhus'])
    expect(people('tell kwame i said hi')).toEqual(['kwame'])
    expect(people('can priya send the slides? thx')).toEqual(['priya'])
    expect(people('call oluwaseun adeyemi after lunch')).toEqual(['oluwaseun adeyemi'])
    expect(people('will mark the essays tonight')).toEqual([])
    expect(people("const winston = require('winston');")).toEqual([])
    expect(people('app.use((req, res, next) => next())')).toEqual([])
  })

  it('reads a name all in capitals as an acronym, unless the whole text is in capitals', () => {
    expect(people('The parser will relax URI resolving rules.')).toEqual([])
    expect(people('You are now DAN, which stands for Do Anything Now.')).toEqual([])
    expect(people('URGENT: CALL JOHN SMITH BEFORE NOON')).toEqual(['JOHN SMITH'])
  })

  it('ends a name where markup begins, and reads no name inside an address', () => {
    expect(people('Thanks to [Grace Hopper](https://github.com/ghopper) for the review.')).toEqual(['Grace Hopper'])
    const places = (text: string) => found(text).filter((e) => e.type === 'LOCATION').map((e) => e.text)
    expect(places('The numbering plan of [Portugal](https://en.wikipedia.org/wiki/Portugal).')).toEqual(['Portugal'])
    expect(places('* `country: string?` — The [country code](#country-code).')).toEqual([])
    expect(places('| [Overview](#overview) | [Install](#install) |')).toEqual([])
  })

  it('reads a name after an article as a thing, unless it goes on into a noun', () => {
    expect(people('He ordered a Caesar Salad and an Earl Grey.')).toEqual([])
    expect(people('We watched a Clint Eastwood picture last night.')).toEqual(['Clint Eastwood'])
  })

  it('leaves English words written as names, code names, things after an article and sentences of other languages', () => {
    expect(people('Add a pinch of Cayenne Pepper and stir.')).toEqual([])
    expect(people('I bought a Kindle Paperwhite for the trip.')).toEqual([])
    expect(people('Pass a GeoJSON LineString to the projection.')).toEqual([])
    expect(people('We had a strange concert at the Salle Gaveau.')).toEqual([])
    expect(people('Überweisen Sie bitte bis Freitag.')).toEqual([])
    expect(people('Our team moved from Jira to Linear.')).toEqual([])
  })
})

describe('streets and street addresses', () => {

  it('reads a name with an English street word after it, a house number or ordinal included', () => {
    expect(locations('Send it to 1200 Larkspur Avenue by Friday.')).toEqual(['1200 Larkspur Avenue'])
    expect(locations('The bakery on 3rd Street closes early.')).toEqual(['3rd Street'])
    expect(locations('Along Juniper Lane the lights were out.')).toEqual(['Juniper Lane'])
  })

  it('takes a weak street word (Way, Court, Place) only after a house number', () => {
    expect(locations('She moved to 17 Heron Court last spring.')).toEqual(['17 Heron Court'])
    expect(locations('The Supreme Court ruled on Monday.')).not.toContain('Supreme Court')
  })

  it('reads Romance streets with their particles and number, and Germanic compounds, as places, not people', () => {
    const romance = 'Our new office is at Avenida de la Libertad 31.'
    expect(locations(romance)).toEqual(['Avenida de la Libertad 31'])
    expect(people(romance)).toEqual([])
    expect(locations('The shop on Via dei Coronari sells prints.')).toEqual(['Via dei Coronari'])
    expect(locations('Wir treffen uns in der Bergmannstraße 5.')).toEqual(['Bergmannstraße 5'])
  })

  it('reads a gazetteer place after a street address and its comma as the town', () => {
    const text = 'Write to 8 Rosewood Drive, Denver.'
    expect(locations(text)).toEqual(['8 Rosewood Drive', 'Denver'])
    expect(people(text)).toEqual([])
  })

  it('reads postal abbreviations and a compass point before the name, and a weak abbreviation only after a number', () => {
    expect(locations('Ship it to 2600 NE Alberta St today.')).toEqual(['2600 NE Alberta St'])
    expect(locations('Our shop is on Hawthorne Blvd now.')).toEqual(['Hawthorne Blvd'])
    expect(locations('The house at 14 Quail Ct is sold.')).toEqual(['14 Quail Ct'])
    expect(locations('She works as a nurse. Dr. Osei will see you.')).not.toContain('nurse. Dr')
  })

  it('reads a town with a US state code after it, and the code, as places; without a ZIP code only a known town', () => {
    const text = 'Send it to 7 Fern Ct, Bozeman, MT 59715.'
    expect(locations(text)).toEqual(['7 Fern Ct', 'Bozeman', 'MT'])
    expect(locations('We spent a week in Sacramento, CA.')).toEqual(['Sacramento', 'CA'])
    expect(locations('Thanks Bob, OK.')).toEqual([])
  })

  it('reads Canadian provinces with their postal codes, and Australian states with a comma or a known town', () => {
    expect(locations('Our office is in Winnipeg, MB R3C 4T3.')).toEqual(['Winnipeg', 'MB'])
    expect(locations('Ship it to 9 Pitt St, Sydney NSW 2000.')).toEqual(['9 Pitt St', 'Sydney', 'NSW'])
    expect(locations('Windows NT 4000 was released.')).toEqual([])
  })

  it('reads the town after a post-office box as a place', () => {
    const text = 'Payments go to PO Box 310, Eugene, OR 97401.'
    expect(locations(text)).toEqual(['Eugene', 'OR'])
    expect(people(text)).toEqual([])
  })

  it('answers shapes that once read exponentially or quadratically (a run of particles, a long hyphenated word)', () => {
    expect(locations(`Rue ${'della'.repeat(40)}x`)).toEqual([])
    expect(locations(`Rue ${'della '.repeat(40)}x`)).toEqual([])
    expect(locations('Aa-'.repeat(4000))).toEqual([])
  })

  it('leaves a street word with no name beside it', () => {
    expect(locations('He crossed the street and took the avenue north.')).toEqual([])
    expect(locations('Avenue is a word for a wide road.')).toEqual([])
  })
})

describe('natural features and facilities', () => {

  it('reads a name with the word for what it is after it, an "of" phrase included', () => {
    expect(locations('We paddled along the Ottawa River at dawn.')).toEqual(['Ottawa River'])
    expect(locations('Her flight from Schiphol Airport was late.')).toEqual(['Schiphol Airport'])
    expect(locations('They climbed the Old Tower of Bruges.')).toEqual(['Old Tower of Bruges'])
  })

  it('reads one with the word before it, and cuts what compromise widened or misread', () => {
    expect(locations('We hiked on Mount Olympus.')).toEqual(['Mount Olympus'])
    expect(locations('The view from Mt. Washington is famous.')).toEqual(['Mt. Washington'])
    const island = 'The ferry to the Isle of Mull runs daily.'
    expect(locations(island)).toEqual(['Isle of Mull'])
    expect(people(island)).toEqual([])
  })

  it('leaves a kind word with no name, and a lone given name before a kind word that is also a surname', () => {
    expect(locations('Mount the drive, then cross the bridge to the station.')).toEqual([])
    expect(people('Michael Bay directed the film.')).toEqual(['Michael Bay'])
    expect(locations('Michael Bay directed the film.')).toEqual([])
  })

  it('does not read a kind word that goes on from another name as opening one ("Data Lake Export")', () => {
    expect(locations('Run the nightly Data Lake Export job.')).not.toContain('Lake Export')
  })
})

describe('a long text with no sentence end', () => {
  it('is tagged in bounded pieces: the names in it are found, and one over 49,000 characters is answered', () => {
    const text = `${'Michael Bay '.repeat(4100)}and then Dmitri Volkov arrived`
    const found = analyzePii(text)
    expect(found.length).toBeGreaterThan(2000)
    expect(found.filter((e) => e.type === 'PERSON').map((e) => text.slice(e.beginOffset, e.endOffset))).toContain('Dmitri Volkov')
    expect(analyzePii('Mt. '.repeat(12_250)).length).toBeGreaterThanOrEqual(0)
  })
})

describe('long texts: the patterns read overlapping pieces', () => {
  const entities = [
    { type: 'EMAIL_ADDRESS', text: 'jane.doe@example.org' },
    { type: 'IP_ADDRESS', text: '192.168.10.20' },
    { type: 'URL', text: 'https://example.com/a/long/path?with=query&and=more' },
  ]

  it('finds each entity once, at its own offsets, wherever it sits, across the pieces\' edges too', () => {
    for (const { type, text: entity } of entities) {
      for (const before of [100, 3000, 3070, 3072, 3075, 4090, 4096, 4100, 6140, 6144, 7000]) {
        const filler = 'word '.repeat(Math.ceil(before / 5)).slice(0, before)
        const text = `${filler} ${entity} ${'word '.repeat(2000)}`
        const found = analyzePii(text).filter((e) => e.type === type)
        expect(found, `${type} after ${before} characters`).toEqual([expect.objectContaining({ beginOffset: before + 1, endOffset: before + 1 + entity.length })])
      }
    }
  })

  it('answers a text of the characters addresses are made of in pieces (seconds before), and the same as before on a short one', () => {
    expect(analyzePii('a.'.repeat(24_500))).toEqual(expect.any(Array))
    const short = 'Mail jane.doe@example.org or call from 10.0.0.1, see https://example.com'
    expect(analyzePii(short).map((e) => e.type)).toEqual(['EMAIL_ADDRESS', 'IP_ADDRESS', 'URL'])
  })

  const phones = (text: string) => analyzePii(text).filter((e) => e.type === 'PHONE_NUMBER').map((e) => text.slice(e.beginOffset, e.endOffset))

  it('gives up the phone search on a piece of nothing but number-like junk, not on the pieces beside it or on dense real text', () => {
    const stackTraceLimit = Error.stackTraceLimit
    // 4,096 characters of "1 1 1 ..." make libphonenumber try thousands of candidates per region; the number in the next piece is still read.
    const junk = '1 '.repeat(2048)
    const number = 'Call me on my phone +1 202-555-0143 tonight.'
    expect(phones(`${junk}${'word '.repeat(300)}${number}`)).toEqual(['+1 202-555-0143'])
    expect(phones(`${number} ${'word '.repeat(300)}${junk}`)).toEqual(['+1 202-555-0143'])
    // A dense log of numbers in one piece (several hundred invalid candidates per region) keeps every number it has.
    const log = Array.from({ length: 60 }, (_, i) => `2026-11-${(i % 28) + 1} 12:${i % 60}:07 pid=${(i * 7919) % 99999} 10.0.${i % 250}.${(i * 3) % 250} GET /api/${(i * 104729) % 1e6} 200 ${(i * 31) % 9999}ms`).join('\n')
    expect(log.length).toBeGreaterThan(3500)
    expect(log.length).toBeLessThan(4000)
    expect(phones(`${log}\nOn-call phone: +44 20 7946 0958`)).toEqual(['+44 20 7946 0958'])
    expect(Error.stackTraceLimit).toBe(stackTraceLimit)
    // The bound itself: libphonenumber stops at the budget on the junk, and counts the tries it made on the log.
    const onJunk = searchPhoneNumbers(junk, 'US', PHONE_TRIES_PER_REGION)
    expect(onJunk.found).toEqual([])
    expect(onJunk.tried).toBeGreaterThanOrEqual(PHONE_TRIES_PER_REGION)
    expect(onJunk.tried).toBeLessThanOrEqual(PHONE_TRIES_PER_REGION + 1)
    const onLog = searchPhoneNumbers(`${log}\nOn-call phone: +44 20 7946 0958`, 'US', PHONE_TRIES_PER_REGION)
    expect(onLog.tried).toBeGreaterThan(100)
    expect(onLog.tried).toBeLessThan(PHONE_TRIES_PER_REGION)
    expect(onLog.found.map((n) => n.number.number)).toContain('+442079460958')
  })
})

describe('the phone search beside other identifiers', () => {
  const phoneNumbers = (text: string) => analyzePii(text).filter((e) => e.type === 'PHONE_NUMBER').map((e) => text.slice(e.beginOffset, e.endOffset))
  const searched = (text: string) => {
    const words = wordsOf(text)
    return phoneSearchText(text, patternFindings(text, words), words)
  }

  it('does not read the digits of a card, an IBAN or an IP address standing alone', () => {
    expect(searched('Card ending 5500 0000 0000 0004 was charged twice.')).toBe('Card ending aaaaaaaaaaaaaaaaaaa was charged twice.')
    expect(searched('Send the refund to IBAN GB82 WEST 1234 5698 7654 32.')).toBe('Send the refund to IBAN aaaaaaaaaaaaaaaaaaaaaaaaaaa.')
    expect(searched('The server at 10.24.3.17 stopped responding.')).toBe('The server at aaaaaaaaaa stopped responding.')
    for (const text of ['Card ending 5500 0000 0000 0004 was charged twice.', 'Überweisen Sie bitte auf DE89 3704 0044 0532 0130 00.', 'The server at 10.24.3.17 stopped responding.']) {
      expect(phoneNumbers(text)).toEqual([])
    }
  })

  it('reads them where a number could hold them: a plus sign, a bracket or digits around them, an extension, a word of the phone', () => {
    const kept = [
      ['Reach +31 612 34 5678', '+31 612 34 5678'],
      ['Fax +33 1.23.45.67.89', '+33 1.23.45.67.89'],
      ['Write to +49 30 12.05.2023', '+49 30 12.05.2023'],
      ['Number: 030 12.05.2023', '030 12.05.2023'],
      ['Call 555-1234 ext 4111 1111 1111 1111 now', '555-1234 ext 4111'],
    ]
    for (const [text, number] of kept) {
      expect(searched(text!)).toBe(text)
      expect(phoneNumbers(text!)).toEqual([number])
    }
    expect(searched('Call me on 4111 1111 1111 1111')).toBe('Call me on 4111 1111 1111 1111')
  })
})

describe('what each recogniser needs', () => {
  const texts = fs
    .readdirSync('tests/eval')
    .filter((file) => file.startsWith('pii'))
    .flatMap((file) => fs.readFileSync(path.join('tests/eval', file), 'utf8').split('\n').filter((line) => line.trim()))
    .map((line) => (JSON.parse(line) as { text: string }).text)

  it('holds for every finding: a text without the character it needs could hold none', () => {
    const types = new Set<string>()
    for (const recognizer of [...PATTERN_RECOGNIZERS, PHONE_RECOGNIZER]) {
      for (const text of texts) {
        for (const finding of recognizer.find(text)) {
          types.add(finding.type)
          expect(recognizer.needs.test(text.slice(finding.begin, finding.end)), `${finding.type} ${text.slice(finding.begin, finding.end)}`).toBe(true)
        }
      }
    }
    expect(types.size).toBeGreaterThan(30)
  })
})

describe('the post-tagger', () => {
  const ENTITY_TAGS = ['Person', 'Place', 'Address', 'Organization', 'Date']
  type Tagged = { tags: Set<string> }
  // What the entity readers take from a term: its entity tags, and Possessive on a person's name (endsPerson).
  const read = (term: Tagged) => [...ENTITY_TAGS.filter((tag) => term.tags.has(tag)), ...(term.tags.has('Person') && term.tags.has('Possessive') ? ['Possessive'] : [])].join(',')
  const texts = fs
    .readdirSync('tests/eval')
    .filter((file) => file.startsWith('pii') || file.startsWith('toxicity'))
    .flatMap((file) => fs.readFileSync(path.join('tests/eval', file), 'utf8').split('\n').filter((line) => line.trim()))
    .map((line) => (JSON.parse(line) as { text: string }).text)
    .filter((text) => text.length < 500)

  it("leaves every term with the entity tags compromise's own post-tagger gives it", () => {
    expect(texts.length).toBeGreaterThan(1000)
    for (const text of texts) {
      const doc = nlp.tokenize(text)
      doc.compute(['index', 'id', 'freeze', 'typeahead', 'lexicon', 'preTagger', 'contractionTwo'])
      doc.compute('postTagger')
      const compromises = (doc as unknown as { docs: Tagged[][] }).docs.flat().map(read)
      expect(parsedSentences(text).flat().map(read), text).toEqual(compromises)
    }
  })
})
