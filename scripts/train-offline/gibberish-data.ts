/**
 * Training texts for the gibberish engine. Clean texts are prose from the packages (fortunes,
 * WordNet examples and glosses, README paragraphs), also as chat would write them (lowercase, no
 * final stop, short fragments, single common words), with generated everyday sentences and code
 * (./everyday-text.ts); the other three classes are generated from the prose: mild gibberish =
 * typos, made-up words, grammar slips and garbling in real sentences (and a few generated everyday
 * sentences with learners' mistakes), word salad = real words in no order, noise = keyboard mash
 * and random characters. The evaluation sets are not used.
 */
import { pick, seededRandom, shuffle } from './random'

export type GibberishRow = { text: string; label: 0 | 1 | 2 | 3 }

const KEYBOARD = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm']
const NEIGHBOURS: Record<string, string> = {}
KEYBOARD.forEach((row, r) =>
  [...row].forEach((c, i) => {
    NEIGHBOURS[c] = (row[i - 1] ?? '') + (row[i + 1] ?? '') + (KEYBOARD[r - 1]?.[i] ?? '') + (KEYBOARD[r + 1]?.[i] ?? '')
  }),
)
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
const CONSONANTS = 'bcdfghjklmnprstvwxz'
const VOWELS = 'aeiouy'

/** One realistic slip of the keyboard or of spelling. */
function typo(word: string, random: () => number): string {
  if (word.length < 2) return word + pick([...LETTERS], random)
  const i = Math.floor(random() * word.length)
  const c = word[i].toLowerCase()
  const r = random()
  if (r < 0.25 && i + 1 < word.length) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
  if (r < 0.45) return word.slice(0, i) + word.slice(i + 1)
  if (r < 0.6) return word.slice(0, i) + word[i] + word.slice(i)
  if (r < 0.85 && NEIGHBOURS[c]) return word.slice(0, i) + pick([...NEIGHBOURS[c]], random) + word.slice(i + 1)
  return word.slice(0, i) + pick([...VOWELS], random) + word.slice(i + 1)
}

/** A pronounceable word that is not one ("blorf", "snazzle"). */
function pseudoWord(random: () => number): string {
  let word = ''
  const syllables = 1 + Math.floor(random() * 3)
  for (let s = 0; s < syllables; s++) {
    word += pick([...CONSONANTS], random)
    if (random() < 0.3) word += pick([...'lrhn'], random)
    word += pick([...VOWELS], random)
    if (random() < 0.6) word += pick([...CONSONANTS], random)
  }
  return word
}

/** Agreement, article, preposition and verb-form slips learners and machine translation make. */
const GRAMMAR_SWAPS: [RegExp, string[]][] = [
  [/\bis\b/g, ['are', 'be', 'am']],
  [/\bare\b/g, ['is', 'be']],
  [/\bwas\b/g, ['were', 'be']],
  [/\bwere\b/g, ['was']],
  [/\bhas\b/g, ['have', 'haves']],
  [/\bhave\b/g, ['has', 'having']],
  [/\bdoes\b/g, ['do']],
  [/\bdoesn't\b/g, ["don't"]],
  [/\bdon't\b/g, ["doesn't"]],
  [/\ba\b/g, ['an', 'the', '']],
  [/\ban\b/g, ['a']],
  [/\bthe\b/g, ['', 'a']],
  [/\bto\b/g, ['for', 'of', 'at']],
  [/\bin\b/g, ['at', 'on', 'of']],
  [/\bon\b/g, ['in', 'at']],
  [/\bfor\b/g, ['to', 'of']],
  [/\bof\b/g, ['for', 'from']],
  [/\bhe\b/g, ['him', 'his']],
  [/\bthey\b/g, ['them', 'their']],
  [/\bI\b/g, ['me']],
  [/\b(\w+)ed\b/g, ['$1', '$1ing']],
  [/\b(\w+)s\b/g, ['$1']],
  [/\b(\w{3,})\b/g, ['$1s']],
]

/** A sentence with two to four grammar slips (words kept, grammar broken). */
function grammarSlips(sentence: string, random: () => number): string {
  let text = sentence
  const slips = 2 + Math.floor(random() * 3)
  for (let i = 0, tries = 0; i < slips && tries < 12; tries++) {
    const [pattern, replacements] = pick(GRAMMAR_SWAPS, random)
    const matches = [...text.matchAll(pattern)]
    if (!matches.length) continue
    const m = pick(matches, random)
    const replacement = pick(replacements, random).replace('$1', m[1] ?? '')
    text = (text.slice(0, m.index) + replacement + text.slice(m.index + m[0].length)).replace(/ {2,}/g, ' ')
    i++
  }
  return text
}

/** Words that sound or look alike and are confused for each other: the sentence keeps real words but the wrong ones. */
const CONFUSABLES = [
  ['their', 'there'], ['your', "you're"], ['its', "it's"], ['to', 'too'], ['then', 'than'], ['affect', 'effect'],
  ['lose', 'loose'], ['weather', 'whether'], ['accept', 'except'], ['peace', 'piece'], ['right', 'write'], ['know', 'no'],
  ['hear', 'here'], ['buy', 'by'], ['new', 'knew'], ['week', 'weak'], ['whole', 'hole'], ['see', 'sea'], ['meet', 'meat'],
  ['where', 'wear'], ['would', 'wood'], ['which', 'witch'], ['one', 'won'], ['four', 'for'], ['eight', 'ate'], ['made', 'maid'],
  ['brake', 'break'], ['plane', 'plain'], ['principal', 'principle'], ['quite', 'quiet'], ['advice', 'advise'], ['cloth', 'clothe'],
]
const CONFUSED = new Map(CONFUSABLES.flatMap(([a, b]): [string, string][] => [[a, b], [b, a]]))
const SHORT_WORDS = new Set(['the', 'a', 'an', 'of', 'to', 'in', 'on', 'at', 'for', 'and', 'or', 'but', 'is', 'are', 'was', 'were', 'be', 'it', 'i', 'you', 'he', 'she', 'we', 'they', 'this', 'that', 'with', 'as', 'by', 'from', 'not', 'have', 'has', 'had', 'do', 'does', 'did', 'will', 'can', 'my', 'your', 'his', 'her', 'our'])

/** Content words swapped for other real words with the same ending: grammatical, meaningless ("the river apologised"). */
function semanticAnomaly(sentence: string, vocabulary: string[], random: () => number): string {
  const words = sentence.split(' ')
  const content = words.map((w, i) => [w, i] as const).filter(([w]) => /^\p{Ll}{4,}$/u.test(w) && !SHORT_WORDS.has(w))
  if (!content.length) return sentence
  const swaps = 1 + Math.floor(random() * Math.min(3, content.length))
  for (const [word, i] of shuffle([...content], random).slice(0, swaps)) {
    const ending = word.slice(-2)
    for (let tries = 0; tries < 40; tries++) {
      const other = pick(vocabulary, random)
      if (other !== word && other.length >= 4 && other.endsWith(ending) && !SHORT_WORDS.has(other)) {
        words[i] = other
        break
      }
    }
  }
  return words.join(' ')
}

/** Word-sense slips: a real word that sounds like the right one. */
function confusedWords(sentence: string, random: () => number): string {
  let changed = 0
  const out = sentence.split(' ').map((w) => {
    const swap = CONFUSED.get(w.toLowerCase())
    if (!swap || random() < 0.3) return w
    changed++
    return swap
  })
  return changed ? out.join(' ') : sentence
}

/** Machine translation gone wrong: neighbours out of order, articles dropped, words doubled, stiff literal forms. */
function garbled(sentence: string, random: () => number): string {
  const words = sentence.split(' ')
  if (words.length < 4) return sentence
  const edits = 2 + Math.floor(random() * 3)
  for (let e = 0; e < edits; e++) {
    const r = random()
    const i = Math.floor(random() * (words.length - 1))
    if (r < 0.4) [words[i], words[i + 1]] = [words[i + 1], words[i]]
    else if (r < 0.6) {
      const j = words.findIndex((w) => /^(the|a|an|to|of|is|are)$/i.test(w))
      if (j >= 0 && words.length > 3) words.splice(j, 1)
    } else if (r < 0.75) words.splice(i, 0, pick(['the', 'of', 'is', 'to', 'it', 'for'], random))
    else if (r < 0.85) words.splice(i, 0, words[i])
    else words.splice(i, 1, pick(['make', 'do', 'having', 'being', 'very', 'much', 'doing'], random))
  }
  return words.join(' ')
}

/** Share of mild texts made by swapping content words (run 30 at 0.15 taught it that rare words are mild). */
const SEMANTIC_SHARE = 0

function mild(sentence: string, vocabulary: string[], random: () => number): string {
  const r = random()
  const other = r < SEMANTIC_SHARE ? semanticAnomaly(sentence, vocabulary, random) : r < SEMANTIC_SHARE + 0.12 ? garbled(sentence, random) : r < SEMANTIC_SHARE + 0.2 ? confusedWords(sentence, random) : sentence
  if (other !== sentence) return other
  if (random() < 0.4) {
    const slipped = grammarSlips(sentence, random)
    if (slipped !== sentence) return slipped
  }
  const words = sentence.split(' ')
  const share = 0.2 + random() * 0.4
  const out = words.map((word) => {
    if (!/\p{L}{2}/u.test(word) || random() > share) return word
    if (random() < 0.2) return pseudoWord(random)
    const once = typo(word, random)
    return random() < 0.3 ? typo(once, random) : once
  })
  if (out.join(' ') === sentence) out[Math.floor(random() * out.length)] = pseudoWord(random)
  return out.join(' ')
}

function salad(sentences: string[], vocabulary: string[], random: () => number): string {
  const r = random()
  let words: string[]
  if (r < 0.4) {
    words = shuffle(pick(sentences, random).replace(/[.!?,;:"]/g, '').split(' ').filter(Boolean), random)
  } else if (r < 0.9) {
    // Drawn by corpus frequency, so function words turn up as often as in prose, only in no order.
    words = Array.from({ length: 3 + Math.floor(random() * 14) }, () => pick(vocabulary, random))
  } else {
    // Real phrases glued in no order: each piece reads fine, the whole does not.
    words = Array.from({ length: 2 + Math.floor(random() * 3) }, () => {
      const w = pick(sentences, random).replace(/[.!?,;:"]/g, '').split(' ')
      const start = Math.floor(random() * Math.max(1, w.length - 2))
      return w.slice(start, start + 2 + Math.floor(random() * 2)).join(' ')
    })
  }
  let text = words.join(' ') || pick(vocabulary, random)
  if (random() < 0.4) text = text[0].toUpperCase() + text.slice(1)
  if (random() < 0.4) text += pick(['.', '!', '?'], random)
  return text
}

function noise(random: () => number): string {
  const r = random()
  const length = 3 + Math.floor(random() * 40)
  if (r < 0.35) {
    // Keyboard mash: runs along one or two rows, spaces now and then.
    const rows = [pick(KEYBOARD, random), pick(KEYBOARD, random)]
    let text = ''
    for (let i = 0; i < length; i++) text += random() < 0.12 ? ' ' : pick([...pick(rows, random)], random)
    return text.trim() || 'asdf'
  }
  if (r < 0.6) {
    let text = ''
    for (let i = 0; i < length; i++) text += random() < 0.15 ? ' ' : pick([...LETTERS], random)
    return text.trim() || 'xq'
  }
  if (r < 0.8) {
    const symbols = `${LETTERS}0123456789!@#$%^&*()_+-=[]{};:,./<>?~ `
    let text = ''
    for (let i = 0; i < length; i++) text += pick([...symbols], random)
    return text.trim() || '#$%'
  }
  if (r < 0.85) {
    const piece = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick([...LETTERS], random)).join('')
    return piece.repeat(2 + Math.floor(random() * 6))
  }
  if (r < 0.92) {
    // Punctuation and symbols alone.
    const piece = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick([...'!?#$%^&*()_+-=[]{}<>@~.'], random)).join('')
    return random() < 0.5 ? piece.repeat(2 + Math.floor(random() * 5)) : Array.from({ length: 3 + Math.floor(random() * 12) }, () => pick([...'!?#$%^&*()_+-=[]{}<>@~.,;:/'], random)).join('')
  }
  return Array.from({ length: 1 + Math.floor(random() * 6) }, () =>
    Array.from({ length: 2 + Math.floor(random() * 7) }, () => pick([...CONSONANTS], random)).join(''),
  ).join(' ')
}

/** Chat abbreviations, clean text in a chat box; the language models learn them as words. */
export const CHAT_ABBREVIATIONS = (
  'lol lmao rofl omg idk idc tbh imo imho btw brb bbl ttyl tmrw tmr thx ty tysm np nvm gl hf gg wp afaik iirc ikr irl fyi asap ' +
  'pls plz ok okay k kk ya yeah yep nope u ur r gonna wanna gotta dunno lemme gimme cya omw smh fr ngl rn jk'
).split(' ')
const CHAT_PHRASES: [RegExp, string][] = [
  [/\bI don't know\b/gi, 'idk'],
  [/\btomorrow\b/gi, 'tmrw'],
  [/\bthanks\b|\bthank you\b/gi, 'thx'],
  [/\bplease\b/gi, 'pls'],
  [/\byou\b/gi, 'u'],
  [/\byour\b/gi, 'ur'],
  [/\bby the way\b/gi, 'btw'],
  [/\bto be honest\b/gi, 'tbh'],
  [/\bin my opinion\b/gi, 'imo'],
  [/\bgoing to\b/gi, 'gonna'],
  [/\bright now\b/gi, 'rn'],
  [/\bsecond\b/gi, '2nd'],
]

/** A sentence as typed in a chat: abbreviated phrases, a reaction before or after. */
function chatty(sentence: string, random: () => number): string {
  let text = sentence.toLowerCase().replace(/[.!]$/, '')
  for (const [pattern, abbreviation] of CHAT_PHRASES) if (random() < 0.7) text = text.replace(pattern, abbreviation)
  const words = text.split(' ')
  const short = words.slice(0, 2 + Math.floor(random() * Math.min(8, words.length))).join(' ')
  const reaction = () => Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(CHAT_ABBREVIATIONS, random)).join(' ')
  const r = random()
  if (r < 0.3) return `${reaction()} ${short}`
  if (r < 0.6) return `${short} ${reaction()}`
  if (r < 0.75) return `${reaction()}${pick(['', '!', ',', '?'], random)} ${reaction()}`
  return short
}

const hex = (n: number, random: () => number) => Array.from({ length: n }, () => pick([...'0123456789abcdef'], random)).join('')
const SEGMENTS = ['usr', 'local', 'lib', 'src', 'app', 'home', 'var', 'log', 'etc', 'config', 'node_modules', 'build', 'dist', 'docs', 'tmp', 'data', 'Users', 'Documents']
const FILES = ['index.ts', 'main.py', 'server.log', 'README.md', 'config.yaml', 'package.json', 'report_2024.pdf', 'styles.css', 'app.js', '__init__.py']

/** Clean text that is not prose: paths, URLs, log lines, hashes, versions, timestamps (code-like, not gibberish). */
function technical(sentences: string[], random: () => number): string {
  const path = () => `/${Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(SEGMENTS, random)).join('/')}/${pick(FILES, random)}`
  const version = () => `${random() < 0.5 ? 'v' : ''}${Math.floor(random() * 20)}.${Math.floor(random() * 30)}.${Math.floor(random() * 50)}${random() < 0.2 ? `-${pick(['rc.1', 'beta', 'alpha.2'], random)}` : ''}`
  const time = () => `20${10 + Math.floor(random() * 20)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}T${String(Math.floor(random() * 24)).padStart(2, '0')}:${String(Math.floor(random() * 60)).padStart(2, '0')}:00Z`
  const words = pick(sentences, random).replace(/[.!?]$/, '').split(' ').slice(0, 3 + Math.floor(random() * 6)).join(' ')
  const r = random()
  if (r < 0.15) return path()
  if (r < 0.3) return `https://${pick(['github.com', 'example.com', 'docs.example.org'], random)}/${pick(SEGMENTS, random)}/${pick(SEGMENTS, random)}/${Math.floor(random() * 90000)}`
  if (r < 0.5) return `${time()} ${pick(['INFO', 'WARN', 'ERROR', 'DEBUG'], random)} ${words.toLowerCase()}`
  if (r < 0.6) return `${pick(['sha256:', 'commit ', '', 'md5 '], random)}${hex(pick([7, 12, 40, 64], random), random)}`
  if (r < 0.7) return version()
  if (r < 0.8) return `${words} in ${path()} (${version()})`
  if (r < 0.9) return `ERROR ${Math.floor(random() * 5000)}: ${words}`
  return `C:\\${pick(SEGMENTS, random)}\\${pick(SEGMENTS, random)}\\${pick(FILES, random)}`
}

/** Prose as people type it in a chat box. */
function casual(sentence: string, random: () => number): string {
  const r = random()
  if (r < 0.15) return chatty(sentence, random)
  if (r < 0.35) return sentence.toLowerCase().replace(/[.!]$/, '')
  if (r < 0.55) {
    const words = sentence.split(' ')
    return words.slice(0, 1 + Math.floor(random() * Math.min(5, words.length))).join(' ')
  }
  return sentence
}

/**
 * Share of the mild texts that are everyday sentences with learners' and translation mistakes (`mistakes`). At 20% the
 * MLP called most short clean sentences mild, at 7% one playground question; 4% kept them clean (TUNING-issue18 124-131).
 */
const EVERYDAY_MISTAKE_SHARE = 0.04
/** Share of the clean texts that are short everyday sentences, greetings, questions and chat lines (`everyday`), which the corpora lack. */
const EVERYDAY_SHARE = 0.12
/** Share of the clean texts that are code snippets, commands, configuration lines and commit messages. */
const CODE_SHARE = 0.08

/**
 * `sentences` are the clean texts (drawn uniformly), `commonWords` single-word messages,
 * `vocabulary` words repeated in proportion to their frequency, for salad, `code` and `everyday` clean texts drawn as
 * they are, `mistakes` sentences with learners' mistakes (mild).
 */
export function gibberishTrainingSet(
  sentences: string[],
  commonWords: string[],
  vocabulary: string[],
  code: string[],
  everyday: string[],
  mistakes: string[],
  perClass: number,
  seed: number,
): GibberishRow[] {
  const random = seededRandom(seed)
  const rows: GibberishRow[] = []
  for (let i = 0; i < perClass; i++) {
    const sentence = pick(sentences, random)
    const r = random()
    const clean =
      r < 0.08
        ? pick(commonWords, random)
        : r < 0.14
          ? technical(sentences, random)
          : r < CODE_SHARE + 0.14
            ? pick(code, random)
            : r < CODE_SHARE + EVERYDAY_SHARE + 0.14
              ? pick(everyday, random)
              : casual(sentence, random)
    rows.push({ text: clean, label: 0 })
    const mildText = random() < EVERYDAY_MISTAKE_SHARE ? pick(mistakes, random) : mild(casual(pick(sentences, random), random), vocabulary, random)
    rows.push({ text: mildText, label: 1 })
    rows.push({ text: salad(sentences, vocabulary, random), label: 2 })
    rows.push({ text: noise(random), label: 3 })
  }
  return shuffle(rows, random)
}

/** What people ask an assistant, the register fortunes and glosses lack: each verb with objects it takes. */
const REQUEST_TASKS: [string, string[]][] = [
  ['reset', ['my password', 'the router', 'my phone to factory settings', 'the printer']],
  ['change', ['my email address', 'the delivery address', 'my password', 'the language of the app', 'a flat tyre']],
  ['cancel', ['my subscription', 'the order', 'my appointment', 'the meeting', 'a flight']],
  ['book', ['a table for two', 'a hotel room', 'a doctor appointment', 'train tickets']],
  ['update', ['the app', 'my billing details', 'the drivers', 'my profile picture']],
  ['fix', ['a leaking tap', 'this error', 'the wifi connection', 'a squeaky door']],
  ['find', ['my order number', 'a good dentist', 'the nearest pharmacy', 'cheap flights to Rome']],
  ['install', ['the printer driver', 'a new light switch', 'the latest update']],
  ['write', ['a cover letter', 'a thank-you note', 'a short poem about autumn', 'an email to my landlord']],
  ['print', ['a boarding pass', 'the invoice', 'this page', 'your answer as a list']],
  ['summarise', ['this article', 'the meeting notes', 'the report in three sentences']],
  ['explain', ['how vaccines work', 'the difference between weather and climate', 'this error message']],
  ['translate', ['this sentence into Spanish', 'the menu', 'my letter into German']],
]
const REQUEST_FRAMES = ['How do I {t}?', 'How can I {t}?', 'Can you {t}?', 'Please {t}.', 'I need to {t}.', 'What is the best way to {t}?', 'Could you help me {t}?', 'Is it possible to {t} online?', 'Where do I go to {t}?', 'I want to {t}, what are the steps?', '{T} for me, please.', 'Why can\'t I {t}?']

/** Questions and requests as typed to an assistant, clean text of the register the corpora lack. */
export function requests(count: number, seed: number): string[] {
  const random = seededRandom(seed)
  return Array.from({ length: count }, () => {
    const [verb, objects] = pick(REQUEST_TASKS, random)
    const task = `${verb} ${pick(objects, random)}`
    return pick(REQUEST_FRAMES, random).replace('{t}', task).replace('{T}', task[0].toUpperCase() + task.slice(1))
  })
}
