import nlp from 'compromise'
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

export function findNamedEntities(text: string): Finding[] {
  const doc = nlp(text)
  const json = (view: { json(options: object): unknown }) =>
    view.json({ offset: true, terms: { offset: true } }) as MatchJson[]
  return [
    ...spans(json(doc.people()), text, 'PERSON').map((f) => withoutTitle(f, text)),
    ...spans(json(doc.places()), text, 'LOCATION'),
    ...spans(json(doc.organizations()), text, 'ORGANIZATION'),
    // Numeric dates are the date patterns' job; compromise also tags digit groups such as SSNs.
    ...spans(json(doc.match('#Date+')), text, 'DATE_TIME').filter((f) => /\p{L}/u.test(text.slice(f.begin, f.end))),
  ]
}
