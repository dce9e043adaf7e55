/**
 * What every pattern recogniser is made of: Presidio's PatternRecognizer (patterns with scores, a check that raises a
 * valid match to 1.0 and drops an invalid one, context words), with Unicode word boundaries. Offsets are UTF-16 indices.
 */

export type Finding = { type: string; begin: number; end: number; score: number }

export type Recognizer = {
  /** Words that, shortly before a finding, make it more likely (see context.ts). */
  context: readonly string[]
  /**
   * A character every finding holds: a text without one is not searched. Fifty recognisers' patterns tried at every
   * word of a text cost more than the rest of the analysis but its parse, and most texts hold no digit.
   */
  needs: RegExp
  find(text: string): Finding[]
}

/** What `\d` is in these patterns, with the 'u' flag or without: an ASCII digit. */
export const ASCII_DIGIT = /[0-9]/

/** Python's Unicode `\b` (JavaScript's `\b` only knows ASCII word characters). */
export const START = '(?<![\\p{L}\\p{N}_])'
export const END = '(?![\\p{L}\\p{N}_])'

/** A capitalised word of a name, inner hyphens and apostrophes included ("Saint-Germain", "Queen's", "O'Hare"). */
export const NAME_WORD = "\\p{Lu}[\\p{L}\\p{M}]*(?:[-'’]\\p{L}[\\p{L}\\p{M}]*)*"
/** Where a name may start: not inside a word, nor after a letter and a hyphen or apostrophe, so that a long hyphenated
 * run is read from its start once, not from each of its parts. */
export const NAME_START = "(?<![\\p{L}\\p{N}-])(?<!\\p{L}['’])"

type Pattern = { source: string; score: number }

/**
 * Of findings that overlap, the longest (the earlier of equals), in text order: where two readings overlap ("Avenue"
 * opens one street and ends another), the longer is the thing named. One pass in text order, each finding against the
 * last kept, so that a text of thousands of findings takes linear time after the sort.
 */
export function longestOfOverlapping(found: Finding[]): Finding[] {
  const kept: Finding[] = []
  for (const finding of [...found].sort((a, b) => a.begin - b.begin || b.end - a.end)) {
    const last = kept[kept.length - 1]
    if (last === undefined || last.end <= finding.begin) kept.push(finding)
    else if (finding.end - finding.begin > last.end - last.begin) kept[kept.length - 1] = finding
  }
  return kept
}

/** A finding without the capitalised words that open the phrase rather than the name ("On Elm Street" is "Elm Street",
 * "Visit Central Park" is "Central Park"): those in `notAName`, one after another from its start. */
export function withoutLeadingWords(text: string, finding: Finding, notAName: ReadonlySet<string>): Finding {
  let { begin } = finding
  for (let space = text.indexOf(' ', begin); space !== -1 && space < finding.end; space = text.indexOf(' ', begin)) {
    if (!notAName.has(text.slice(begin, space))) break
    begin = space + 1
  }
  return { ...finding, begin }
}

/**
 * The index of the first item of `sorted` that `isPast` accepts, or its length, by bisection: `isPast` must reject a
 * run of items at the start and accept the rest (the items are sorted by what it reads). A text may hold thousands of
 * findings and words, and a scan of them for each finding took seconds.
 */
export function firstIndexPast<T>(sorted: readonly T[], isPast: (item: T) => boolean): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (isPast(sorted[middle]!)) high = middle
    else low = middle + 1
  }
  return low
}

/** In findings that do not overlap, sorted by their start, the last one that begins before `end`. */
export function lastBeginningBefore(sorted: Finding[], end: number): Finding | undefined {
  return sorted[firstIndexPast(sorted, (finding) => finding.begin >= end) - 1]
}

export function patternRecognizer(options: {
  type: string
  patterns: Pattern[]
  context: readonly string[]
  needs: RegExp
  /** A valid match scores `validatedScore` (1.0 unless given); an invalid one is dropped. */
  validate?: (match: string) => boolean
  validatedScore?: number
  /** A match this returns true for is dropped; the others keep their pattern score. */
  reject?: (match: string) => boolean
}): Recognizer {
  // Presidio compiles its patterns case-insensitively.
  const regexes = options.patterns.map((p) => ({ regex: new RegExp(p.source, 'giu'), score: p.score }))
  return {
    context: options.context,
    needs: options.needs,
    find(text) {
      const findings: Finding[] = []
      for (const { regex, score } of regexes) {
        for (const match of text.matchAll(regex)) {
          const value = match[0]
          if (options.reject?.(value)) continue
          let finalScore = score
          if (options.validate) {
            if (!options.validate(value)) continue
            finalScore = options.validatedScore ?? 1
          }
          findings.push({ type: options.type, begin: match.index, end: match.index + value.length, score: finalScore })
        }
      }
      return findings
    },
  }
}

/** The identifier as its check reads it: no spaces or dashes, letters in capitals. */
export const compact = (match: string) => match.replace(/[- ]/g, '').toUpperCase()
/**
 * National identifiers whose check passes one random number in ten or eleven (a plain run of 9-11 digits: the NHS
 * number, the Australian TFN, ABN, ACN and Medicare number, the PESEL) score this when valid: under the reporting
 * threshold (0.5) until one of their context words raises it by 0.35 ("NHS number 943 476 5919"), so order numbers
 * and phone numbers are not read as identifiers. Identifiers whose shape is their own (letters and digits in fixed
 * places, a check letter) score 1.0 when valid.
 */
export const NEEDS_CONTEXT = 0.3

