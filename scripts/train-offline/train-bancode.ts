import { BANCODE_GRAPH, BANCODE_HASH_BITS, BANCODE_MAX_CHARS, BANCODE_THRESHOLD, bancodeFeatures } from '@/lib/moderation/offline/bancode'
import { contactProse } from './contact-prose'
import { codeChunks, codeFiles, fortunes, lowercaseDictionaryWords, readmeCodeBlocks, proseChunks, sentences } from './corpora'
import { everydaySentence } from './everyday-text'
import { CHAT_ABBREVIATIONS } from './gibberish-data'
import { sparseLogisticGraph } from './graphs'
import { log, writeModel } from './output'
import { pick, seededRandom, shuffle } from './random'
import { trainSparseLogistic, type SparseRow } from './sparse-logistic'

/** Share of the prose texts that are short messages (shortMessages). */
const SHORT_MESSAGE_SHARE = 0.15
/** Emoji people send alone or beside a word: faces, hands, hearts, symbols (code points, not a list of texts). */
const EMOJI_RANGES: [number, number][] = [[0x1f600, 0x1f64f], [0x1f44a, 0x1f450], [0x1f493, 0x1f49f], [0x1f389, 0x1f38a], [0x2764, 0x2764], [0x1f525, 0x1f525], [0x1f914, 0x1f92f]]

/**
 * Short messages as people send them, which the prose chunks (paragraphs of READMEs, glosses, fortunes) lack: short
 * everyday sentences and greetings (./everyday-text.ts), one word of the dictionary as a reply, chat abbreviations,
 * emoji, the first words of an Italian fortune. Trained on prose alone, the model called "Hello", "lol" and "👍"
 * code: a capitalised word alone looks like an identifier, a symbol alone like an operator.
 */
function shortMessages(count: number, seed: number): string[] {
  const random = seededRandom(seed)
  const words = lowercaseDictionaryWords().filter((w) => /^\p{Ll}{2,}$/u.test(w))
  const italian = fortunes('it').flatMap(sentences)
  const mark = () => pick(['', '', '!', '?', '.', '!!', '...'], random)
  const cased = (text: string) => (random() < 0.5 ? text[0]!.toUpperCase() + text.slice(1) : text)
  const emoji = () => {
    const [from, to] = pick(EMOJI_RANGES, random)
    return String.fromCodePoint(from + Math.floor(random() * (to - from + 1)))
  }
  return Array.from({ length: count }, () => {
    const r = random()
    if (r < 0.4) return everydaySentence(random)
    if (r < 0.6 && words.length) return `${cased(pick(words, random))}${mark()}`
    if (r < 0.75) return `${Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(CHAT_ABBREVIATIONS, random)).join(' ')}${mark()}`
    if (r < 0.9) {
      const run = Array.from({ length: 1 + Math.floor(random() * 3) }, emoji).join('')
      return random() < 0.5 || !words.length ? run : `${cased(pick(words, random))}${mark()} ${run}`
    }
    const first = italian.length ? pick(italian, random).split(' ').slice(0, 1 + Math.floor(random() * 3)).join(' ') : 'grazie'
    return first || 'grazie'
  })
}

export async function trainBancode(): Promise<void> {
  log('bancode: collecting code and prose')
  const files = codeFiles()
  const code = [...codeChunks(files, 6, 11), ...readmeCodeBlocks().map((text) => ({ text, language: 'readme' }))]
  const plainProse = proseChunks(code.length, 12)
  // One prose text in six carries phone numbers, e-mail addresses, card numbers, prices or dates.
  const prose = [
    ...plainProse,
    ...contactProse(plainProse.flatMap(sentences), Math.round(plainProse.length / 5), 15),
    ...shortMessages(Math.round(plainProse.length * SHORT_MESSAGE_SHARE), 16),
  ]
  const byLanguage: Record<string, number> = {}
  for (const c of code) byLanguage[c.language] = (byLanguage[c.language] ?? 0) + 1
  log(`  ${files.length} code files -> ${code.length} chunks ${JSON.stringify(byLanguage)}; ${prose.length} prose chunks`)
  const rows: SparseRow[] = shuffle(
    [
      ...code.map((c): SparseRow => ({ features: bancodeFeatures(c.text).entries(), label: 1 })),
      ...prose.map((text): SparseRow => ({ features: bancodeFeatures(text).entries(), label: 0 })),
    ],
    seededRandom(13),
  )
  log(`bancode: training logistic regression on ${rows.length} chunks`)
  const weights = trainSparseLogistic(rows, { dimensions: 2 ** BANCODE_HASH_BITS, epochs: 6, learningRate: 0.3, l2: 1e-6, seed: 14, log })
  const metadata = {
    check: 'bancode',
    engine: 'offline:bancode-ngram-lr',
    graph: BANCODE_GRAPH,
    features: `hashed (FNV-1a, ${BANCODE_HASH_BITS} bits) character 1-4-grams, whitespace tokens and character-shape 2-5-grams, log(1+count), L2-normalised`,
    maxChars: BANCODE_MAX_CHARS,
    hashBits: BANCODE_HASH_BITS,
    threshold: BANCODE_THRESHOLD,
    training: { codeChunks: code.length, proseChunks: prose.length, codeByLanguage: byLanguage, codeFiles: files.length },
  }
  writeModel(BANCODE_GRAPH, sparseLogisticGraph('bancode', weights, { check: 'bancode' }), metadata)
}
