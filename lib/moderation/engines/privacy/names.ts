import nlp from 'compromise'
import PLACE_NAMES from './places.json' with { type: 'json' }
import type { Finding } from './recognizers'

/**
 * Stands in for Presidio's spaCy recogniser: people, places, organisations and dates found by
 * compromise, with the score Presidio gives every spaCy entity (0.85). compromise's term offsets
 * exclude surrounding punctuation; a comma between terms ("Berlin, Germany") separates entities.
 */
const NAMED_ENTITY_SCORE = 0.85

type Term = { post: string; offset: { start: number; length: number } }
type MatchJson = { terms: Term[] }

function spans(matches: MatchJson[], text: string, type: string): Finding[] {
  const findings: Finding[] = []
  for (const match of matches) {
    let begin = -1
    match.terms.forEach((term, index) => {
      if (begin < 0) begin = term.offset.start
      const last = index === match.terms.length - 1
      if (!last && !/[,;:()"!?]/.test(term.post)) return
      let end = term.offset.start + term.offset.length
      // The possessive is a separate token for spaCy: "Obama's" names "Obama".
      if (/['’]s$/i.test(text.slice(begin, end))) end -= 2
      if (end > begin) findings.push({ type, begin, end, score: NAMED_ENTITY_SCORE })
      begin = -1
    })
  }
  return findings
}

/** Titles and kinship or role words in front of a name are not part of it ("Mr. Dmitri Volkov", "sister Chiamaka"). */
const TITLE = /^(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|herr|frau|mme|mlle|sr|sra|srta)\.?\s+/i
const LOWERCASE_WORD = /^\p{Ll}+\s+(?=\p{Lu})/u

function withoutTitle(finding: Finding, text: string): Finding {
  let begin = finding.begin
  for (let leading; (leading = TITLE.exec(text.slice(begin, finding.end)) ?? LOWERCASE_WORD.exec(text.slice(begin, finding.end))); ) begin += leading[0].length
  return begin < finding.end ? { ...finding, begin } : finding
}

/** A word as place names are written: letters, inner hyphens and apostrophes ("Ogooué-Ivindo", "L'Aquila"). */
const WORD = /\p{L}[\p{L}\p{M}]*(?:[-'’.]\p{L}[\p{L}\p{M}]*)*/gu

/** Place names by their first word, each as its words, longest first (places.json, see scripts/train-offline/train-places.ts). */
const PLACES_BY_FIRST_WORD = (() => {
  const index = new Map<string, string[][]>()
  for (const name of PLACE_NAMES as string[]) {
    const words = name.match(WORD) ?? []
    const first = words[0]
    if (first !== undefined) index.set(first, [...(index.get(first) ?? []), words])
  }
  for (const names of index.values()) names.sort((a, b) => b.length - a.length)
  return index
})()

const capitalised = (word: string | undefined) => word !== undefined && /^\p{Lu}/u.test(word)

/**
 * Places compromise does not know (it knows few outside North America and Western Europe): country,
 * region and time-zone city names from a gazetteer, matched case-sensitively as whole words. A name
 * run together with another capitalised word ("Jordan Peterson", "Victoria Road") is part of some
 * other name and not reported; so is one inside an entity compromise found.
 */
function gazetteerPlaces(text: string, found: Finding[]): Finding[] {
  const words = [...text.matchAll(WORD)].map((m) => ({ word: m[0], begin: m.index, end: m.index + m[0].length }))
  const joined = (a: { end: number }, b: { begin: number }) => /^ $/.test(text.slice(a.end, b.begin))
  const sentenceStart = (i: number) => i === 0 || /[.!?:;"“(]\s*$/.test(text.slice(words[i - 1].end, words[i].begin))
  const places: Finding[] = []
  for (let i = 0; i < words.length; i++) {
    const candidates = PLACES_BY_FIRST_WORD.get(words[i].word)
    if (!candidates) continue
    const name = candidates.find((parts) => parts.every((part, k) => words[i + k]?.word === part && (k === 0 || joined(words[i + k - 1], words[i + k]))))
    if (!name) continue
    const last = i + name.length - 1
    const begin = words[i].begin
    const end = words[last].end
    i = last
    const before = words[i - name.length]
    if (capitalised(words[last + 1]?.word) && joined(words[last], words[last + 1])) continue
    if (before && capitalised(before.word) && joined(before, words[i - name.length + 1]) && !sentenceStart(i - name.length)) continue
    if (found.some((f) => f.begin < end && begin < f.end)) continue
    places.push({ type: 'LOCATION', begin, end, score: NAMED_ENTITY_SCORE })
  }
  return places
}

/**
 * compromise's own steps for nlp(text) but the last, 'chunks' (noun and verb phrases), which
 * people(), places(), organizations() and #Date never read: a tenth to a fifth of the parse, and
 * the same entities on every evaluation text (bench/offline/RESULTS.md, privacy latency).
 * nlp.tokenize has already run its steps (TOKENIZE_STEPS).
 */
const TOKENIZE_STEPS = new Set(['alias', 'normal', 'machine', 'contractions'])
const AFTER_TOKENIZE = (nlp.hooks() as string[]).filter((hook) => !TOKENIZE_STEPS.has(hook) && hook !== 'chunks')

function parse(text: string) {
  const doc = nlp.tokenize(text)
  doc.compute(AFTER_TOKENIZE)
  return doc
}

export function findNamedEntities(text: string): Finding[] {
  const doc = parse(text)
  const json = (view: { json(options: object): unknown }) =>
    view.json({ offset: true, terms: { offset: true } }) as MatchJson[]
  const entities = [
    ...spans(json(doc.people()), text, 'PERSON').map((f) => withoutTitle(f, text)),
    ...spans(json(doc.places()), text, 'LOCATION'),
    ...spans(json(doc.organizations()), text, 'ORGANIZATION'),
  ]
  return [
    ...entities,
    ...gazetteerPlaces(text, entities),
    // Numeric dates are the date patterns' job; compromise also tags digit groups such as SSNs.
    ...spans(json(doc.match('#Date+')), text, 'DATE_TIME').filter((f) => /\p{L}/u.test(text.slice(f.begin, f.end))),
  ]
}
