/**
 * What every pattern recogniser is made of: Presidio's PatternRecognizer (patterns with scores, a check that raises a
 * valid match to 1.0 and drops an invalid one, context words), with Unicode word boundaries. Offsets are UTF-16 indices.
 */

export type Finding = { type: string; begin: number; end: number; score: number }

export type Recognizer = {
  /** Words that, shortly before a finding, make it more likely (see context.ts). */
  context: readonly string[]
  find(text: string): Finding[]
}

/** Python's Unicode `\b` (JavaScript's `\b` only knows ASCII word characters). */
export const START = '(?<![\\p{L}\\p{N}_])'
export const END = '(?![\\p{L}\\p{N}_])'

type Pattern = { source: string; score: number }

export function patternRecognizer(options: {
  type: string
  patterns: Pattern[]
  context: readonly string[]
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

