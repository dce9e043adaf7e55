import type { ModerationEngine, PiiEntity } from '../types'
import { enhanceWithContext, wordsOf } from './context'
import { findNamedEntities } from './names'
import { PATTERN_RECOGNIZERS, type Finding } from './recognizers'

/** The toolkit calls Presidio's analyzer with score_threshold=0.5. */
const SCORE_THRESHOLD = 0.5

function contains(outer: Finding, inner: Finding): boolean {
  return outer.begin <= inner.begin && inner.end <= outer.end
}

/** Presidio's remove_duplicates: a finding inside a better one of the same type is dropped. */
function removeDuplicates(findings: Finding[]): Finding[] {
  const ranked = [...findings].sort((a, b) => b.score - a.score || a.begin - b.begin || b.end - b.begin - (a.end - a.begin))
  const kept: Finding[] = []
  for (const finding of ranked) {
    if (!kept.some((k) => k.type === finding.type && contains(k, finding))) kept.push(finding)
  }
  return kept
}

/**
 * Presidio-style analysis: pattern recognisers with checksums and context words, then named
 * entities, duplicates removed, scores below 0.5 dropped, sorted by offset. A bare domain inside
 * an e-mail address is not reported again as a URL.
 */
export function analyzePii(text: string): PiiEntity[] {
  const words = wordsOf(text)
  const patternFindings = PATTERN_RECOGNIZERS.flatMap((recognizer) =>
    recognizer.find(text).map((finding) => enhanceWithContext(finding, words, recognizer.context)),
  )
  const findings = removeDuplicates([...patternFindings, ...findNamedEntities(text)])
  const emails = findings.filter((f) => f.type === 'EMAIL_ADDRESS')
  return findings
    .filter((f) => f.score >= SCORE_THRESHOLD)
    .filter((f) => f.type !== 'URL' || !emails.some((e) => contains(e, f)))
    .sort((a, b) => a.begin - b.begin || a.end - b.end || a.type.localeCompare(b.type))
    .map(({ type, begin, end, score }) => ({ type, beginOffset: begin, endOffset: end, score }))
}

export const presidioStyleEngine: ModerationEngine<string, PiiEntity[]> = {
  name: 'offline:presidio-rules',
  available: () => true,
  run: async (text) => analyzePii(text),
}
