/**
 * Ordinary prose that carries the things people put in messages: phone numbers in several
 * countries' formats, e-mail addresses, card and account numbers, order numbers, prices, dates
 * and times. Code-vs-prose and gibberish learned from books and glosses, where such strings are
 * rare, and took them for code or noise. Each detail is inserted into a sentence of package
 * prose behind a lead-in; the frozen evaluation set is written separately and is not used.
 */
import { pick, seededRandom } from './random'

const digits = (n: number, random: () => number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('')
const FIRST = ['anna', 'li', 'omar', 'sofia', 'ken', 'maria', 'john', 'aisha', 'pavel', 'lucy', 'raj', 'emma', 'tom', 'fatima', 'chen']
const LAST = ['smith', 'garcia', 'kim', 'novak', 'haddad', 'rossi', 'mueller', 'singh', 'dubois', 'tanaka', 'jones', 'silva']
const DOMAINS = ['example.com', 'mail.example', 'company.org', 'uni.example.edu', 'shop.example.co.uk']

const DETAILS: ((random: () => number) => string)[] = [
  (r) => `+1 ${digits(3, r)} ${digits(3, r)} ${digits(4, r)}`,
  (r) => `(${digits(3, r)}) ${digits(3, r)}-${digits(4, r)}`,
  (r) => `+44 ${digits(2, r)} ${digits(4, r)} ${digits(4, r)}`,
  (r) => `0${digits(2, r)} ${digits(3, r)} ${digits(2, r)} ${digits(2, r)}`,
  (r) => `+49 ${digits(3, r)} ${digits(7, r)}`,
  (r) => `+91 ${digits(5, r)} ${digits(5, r)}`,
  (r) => `${pick(FIRST, r)}.${pick(LAST, r)}@${pick(DOMAINS, r)}`,
  (r) => `${pick(FIRST, r)}${digits(2, r)}@${pick(DOMAINS, r)}`,
  (r) => `${digits(4, r)} ${digits(4, r)} ${digits(4, r)} ${digits(4, r)}`,
  (r) => `${pick(['DE', 'GB', 'FR', 'NL'], r)}${digits(2, r)} ${digits(4, r)} ${digits(4, r)} ${digits(4, r)}`,
  (r) => `#${digits(5, r)}`,
  (r) => `$${digits(2, r)}.${digits(2, r)}`,
  (r) => `${digits(1, r)}:${pick(['00', '15', '30', '45'], r)} ${pick(['am', 'pm', ''], r)}`.trim(),
  (r) => `${1 + Math.floor(r() * 28)}/${1 + Math.floor(r() * 12)}/20${digits(2, r)}`,
  (r) => `${digits(3, r)}-${digits(2, r)}-${digits(4, r)}`,
]
const LEADS = ['call me on', 'my number is', 'write to', 'reach me at', 'my card is', 'the account is', 'order', 'it costs', 'see you at', 'on', 'or', 'and', 'email', 'text me at', 'my IBAN is', 'reference']

/** `count` sentences of `prose`, each with one to three details inserted behind a lead-in. */
export function contactProse(prose: string[], count: number, seed: number): string[] {
  const random = seededRandom(seed)
  const texts: string[] = []
  while (texts.length < count) {
    const words = pick(prose, random).split(' ')
    const inserts = 1 + Math.floor(random() * 3)
    for (let i = 0; i < inserts; i++) {
      const at = Math.floor(random() * (words.length + 1))
      words.splice(at, 0, `${pick(LEADS, random)} ${pick(DETAILS, random)(random)}${pick(['', '', ',', '.', ';'], random)}`)
    }
    texts.push(words.join(' '))
  }
  return texts
}
