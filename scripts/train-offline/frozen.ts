/**
 * The frozen evaluation of issue 18: tests/eval/frozen/*.jsonl, written by hand for that issue
 * (not from any training template) and read by no trainer. Every row names its family (the kind
 * of hard case it is), and every check reports its overall measure against the issue's goal and
 * one row per family: recall for families of positives, false-positive rate for families of
 * negatives (or, for gibberish, the share of the family given its expected class).
 */
import type { ModerationEngines } from '@/lib/moderation/checks'
import { DEFAULT_TOPIC_LABELS, TOPIC_THRESHOLD } from '@/lib/moderation/offline/restricted-topic'
import { TOXICITY_THRESHOLD } from '@/lib/moderation/offline/toxicity'
import { similarityOfTexts } from '@/lib/moderation/checks/similarity'
import { GIBBERISH_LABELS } from '@/lib/moderation/engines/types'
import { probabilityOf } from './checks'
import { predictAll, readEvalSet } from './evaluate'
import { macroF1, rocAuc, spearman } from './metrics'

export type FamilyRow = { family: string; expected: string; examples: number; measure: string; value: number }
export type FrozenReport = {
  check: string
  engine: string
  examples: number
  /** The issue's headline measures, e.g. { auc: 0.93 } or { recall, precision }. */
  headline: Record<string, number>
  goal: string
  met: boolean
  families: FamilyRow[]
  mistakes: string[]
  latencyP50Ms: number
}

type Row = { text: string; label: string; family: string }

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item])
  return groups
}

/** Binary check: per family, the share predicted positive (recall of positives, false-positive rate of negatives). */
function binaryFamilies(rows: Row[], predictedPositive: boolean[], positive: string): FamilyRow[] {
  const indexed = rows.map((row, i) => ({ row, flagged: predictedPositive[i] }))
  return [...groupBy(indexed, (r) => `${r.row.label}\u0000${r.row.family}`).values()].map((members) => {
    const { label, family } = members[0].row
    const flaggedShare = members.filter((m) => m.flagged).length / members.length
    return { family, expected: label, examples: members.length, measure: label === positive ? 'recall' : 'false-positive rate', value: flaggedShare }
  })
}

function worst(rows: Row[], scores: number[], positive: string, count = 8): string[] {
  return rows
    .map((row, i) => ({ row, score: scores[i], error: row.label === positive ? 1 - scores[i] : scores[i] }))
    .sort((a, b) => b.error - a.error)
    .slice(0, count)
    .filter((m) => m.error >= 0.5)
    .map((m) => `${m.score.toFixed(3)} ${m.row.label} (${m.row.family}): ${JSON.stringify(m.row.text.slice(0, 90))}`)
}

async function binaryReport(options: {
  check: string
  engine: string
  rows: Row[]
  positive: string
  goal: string
  score: (text: string) => Promise<{ probability: number; flagged: boolean }>
  met: (auc: number, families: FamilyRow[]) => boolean
  extra?: (families: FamilyRow[]) => Record<string, number>
}): Promise<FrozenReport> {
  const { rows } = options
  const { answers, latencyP50Ms } = await predictAll(rows.map((r) => r.text), options.score)
  const scores = answers.map((a) => a.probability)
  const flagged = answers.map((a) => a.flagged)
  const positives = rows.map((r) => r.label === options.positive)
  const auc = rocAuc(scores, positives)
  const families = binaryFamilies(rows, flagged, options.positive)
  const flaggedPositives = positives.filter((p, i) => p && flagged[i]).length
  const flaggedNegatives = positives.filter((p, i) => !p && flagged[i]).length
  return {
    check: options.check,
    engine: options.engine,
    examples: rows.length,
    headline: {
      auc,
      recall: flaggedPositives / positives.filter(Boolean).length,
      falsePositiveRate: flaggedNegatives / positives.filter((p) => !p).length,
      ...options.extra?.(families),
    },
    goal: options.goal,
    met: options.met(auc, families),
    families,
    mistakes: worst(rows, scores, options.positive),
    latencyP50Ms,
  }
}

function familyValue(families: FamilyRow[], family: string): number {
  return families.find((f) => f.family === family)?.value ?? NaN
}

/**
 * The blind files (frozen/blind-*.jsonl) were written after the first measurement on the frozen
 * set and before any engine change; their rows are never printed, so changes made while looking
 * at the frozen set's mistakes are measured on text nobody tuned against.
 */
const blind = (report: FrozenReport): FrozenReport => ({ ...report, check: `${report.check} (blind)`, mistakes: [] })

/** A two-label engine's verdict as the probability of `positive`, flagged when it is the label. */
function verdictScore(engine: { run(text: string): Promise<{ label: string; score: number }> }, positive: string) {
  return async (text: string) => {
    const verdict = await engine.run(text)
    return { probability: probabilityOf(positive, verdict), flagged: verdict.label === positive }
  }
}

export async function frozenToxicity(engines: ModerationEngines, file = 'frozen/toxicity.jsonl'): Promise<FrozenReport> {
  return binaryReport({
    check: 'toxicity',
    engine: engines.toxicity.name,
    rows: readEvalSet<Row>(file),
    positive: 'toxic',
    goal: 'AUC >= 0.92',
    score: async (text) => {
      const { toxicity } = await engines.toxicity.run(text)
      return { probability: toxicity, flagged: toxicity >= TOXICITY_THRESHOLD }
    },
    met: (auc) => auc >= 0.92,
  })
}

export async function frozenPromptInjection(engines: ModerationEngines, file = 'frozen/prompt-injection.jsonl'): Promise<FrozenReport> {
  return binaryReport({
    check: 'promptInjection',
    engine: engines.promptInjection.name,
    rows: readEvalSet<Row>(file),
    positive: 'INJECTION',
    goal: 'AUC >= 0.93, <= 5% false positives on benign instructions',
    score: verdictScore(engines.promptInjection, 'INJECTION'),
    extra: (families) => ({ benignInstructionFalsePositiveRate: familyValue(families, 'benign_instruction') }),
    met: (auc, families) => auc >= 0.93 && familyValue(families, 'benign_instruction') <= 0.05,
  })
}

export function frozenBancode(engines: ModerationEngines): Promise<FrozenReport> {
  return binaryReport({
    check: 'bancode',
    engine: engines.banCode.name,
    rows: readEvalSet<Row>('frozen/bancode.jsonl'),
    positive: 'CODE',
    goal: 'AUC >= 0.98 (the project goal; the issue sets none), prose with numbers, e-mail addresses and phone numbers not called code',
    score: verdictScore(engines.banCode, 'CODE'),
    met: (auc, families) => auc >= 0.98 && familyValue(families, 'prose_with_pii') === 0,
  })
}

/** The code-like and non-English clean families the issue wants "mostly kept clean": at least 80% each. */
const KEPT_CLEAN_FAMILIES = ['code_like', 'non_english']

export async function frozenGibberish(engines: ModerationEngines): Promise<FrozenReport> {
  const rows = readEvalSet<Row>('frozen/gibberish.jsonl')
  const { answers, latencyP50Ms } = await predictAll(rows.map((r) => r.text), (text) => engines.gibberish.run(text))
  const predicted = answers.map((a) => a.label as string)
  const f1 = macroF1(predicted, rows.map((r) => r.label), GIBBERISH_LABELS)
  const families = [...groupBy(rows.map((row, i) => ({ row, right: predicted[i] === row.label })), (r) => `${r.row.label}\u0000${r.row.family}`).values()].map(
    (members): FamilyRow => ({
      family: members[0].row.family,
      expected: members[0].row.label,
      examples: members.length,
      measure: 'share given its class',
      value: members.filter((m) => m.right).length / members.length,
    }),
  )
  const keptClean = KEPT_CLEAN_FAMILIES.map((f) => familyValue(families, f))
  return {
    check: 'gibberish',
    engine: engines.gibberish.name,
    examples: rows.length,
    headline: { macroF1: f1.macro, ...Object.fromEntries(Object.entries(f1.perClass).map(([c, v]) => [`f1 ${c}`, v])) },
    goal: 'macro-F1 >= 0.80, code-like and non-English clean text mostly (>= 80%) kept clean',
    met: f1.macro >= 0.8 && keptClean.every((v) => v >= 0.8),
    families,
    mistakes: rows
      .map((row, i) => ({ row, answer: answers[i] }))
      .filter((m) => m.answer.label !== m.row.label)
      .slice(0, 10)
      .map((m) => `${m.answer.probability.toFixed(3)} ${m.row.label} → ${m.answer.label} (${m.row.family}): ${JSON.stringify(m.row.text.slice(0, 90))}`),
    latencyP50Ms,
  }
}

export async function frozenSimilarity(engines: ModerationEngines, file = 'frozen/similarity.jsonl', check = 'similarity'): Promise<FrozenReport> {
  const rows = readEvalSet<{ text1: string; text2: string; score?: number; grade?: number; family: string }>(file).map((r) => ({ ...r, score: r.score ?? r.grade! }))
  const { answers, latencyP50Ms } = await predictAll(rows.map((r) => JSON.stringify([r.text1, r.text2])), async (pair) => {
    return similarityOfTexts(await engines.similarity.run(JSON.parse(pair) as string[]))
  })
  const rho = spearman(answers, rows.map((r) => r.score))
  const families = [...groupBy(rows.map((row, i) => ({ row, similarity: answers[i] })), (r) => r.row.family).values()].map(
    (members): FamilyRow => ({
      family: members[0].row.family,
      expected: `human mean ${(members.reduce((s, m) => s + m.row.score, 0) / members.length).toFixed(1)} / 5`,
      examples: members.length,
      measure: 'mean similarity',
      value: members.reduce((s, m) => s + m.similarity, 0) / members.length,
    }),
  )
  return {
    check,
    engine: engines.similarity.name,
    examples: rows.length,
    headline: { spearman: rho },
    goal: 'Spearman >= 0.75 against graded similarity (0-5)',
    met: rho >= 0.75,
    families,
    mistakes: [],
    latencyP50Ms,
  }
}

export function frozenRestrictedTopic(engines: ModerationEngines): Promise<FrozenReport> {
  const labels: string[] = [...DEFAULT_TOPIC_LABELS]
  const texts = readEvalSet<{ text: string; topics: string[]; family: string }>('frozen/restricted-topic.jsonl')
  const pairs = texts.flatMap((t) => labels.map((label) => ({ text: JSON.stringify([t.text, label]), label: t.topics.includes(label) ? 'on topic' : 'off topic', family: t.family })))
  return binaryReport({
    check: 'restrictedTopic',
    engine: engines.restrictedTopic.name,
    positive: 'on topic',
    goal: 'AUC >= 0.93 (default labels)',
    score: async (pair) => {
      const [text, label] = JSON.parse(pair) as [string, string]
      const scores = await engines.restrictedTopic.run({ text, labels, classifier: 'default' })
      const score = scores[labels.indexOf(label)]
      return { probability: score, flagged: score >= TOPIC_THRESHOLD }
    },
    met: (auc) => auc >= 0.93,
    rows: pairs,
  })
}

/** Span matching as the issue measures personal data: a found entity counts when its type and offsets equal a labelled one. */
export const PII_TYPES_LABELLED = [
  'PERSON', 'LOCATION', 'EMAIL_ADDRESS', 'PHONE_NUMBER', 'CREDIT_CARD', 'IBAN_CODE', 'US_SSN', 'IP_ADDRESS', 'IN_PAN',
  // Labelled from the fifteenth round on (pii-identifiers-*-round15.jsonl); no earlier set holds one, so any found there is spurious.
  'CRYPTO', 'MEDICAL_LICENSE', 'MAC_ADDRESS', 'US_ITIN', 'US_DRIVER_LICENSE', 'US_PASSPORT', 'US_BANK_NUMBER',
  'CA_SIN', 'SE_PERSONNUMMER', 'DE_TAX_ID', 'DE_ID_CARD', 'DE_PASSPORT', 'KR_RRN', 'ZA_ID_NUMBER', 'TW_NATIONAL_ID', 'TH_TNIN',
  'RU_TAX_ID', 'RU_SNILS', 'NG_NIN', 'SG_UEN', 'PH_TIN', 'UK_PASSPORT', 'IN_PASSPORT', 'IN_VOTER', 'ES_PASSPORT',
]

export async function frozenPii(engines: ModerationEngines, file = 'frozen/pii.jsonl', check = 'privacy'): Promise<FrozenReport> {
  type PiiRow = { text: string; family: string; entities: { type: string; begin: number; end: number }[] }
  const rows = readEvalSet<PiiRow>(file)
  const { answers, latencyP50Ms } = await predictAll(rows.map((r) => r.text), (text) => engines.privacy.run(text))
  const key = (type: string, begin: number, end: number) => `${type}:${begin}:${end}`
  const perRow = rows.map((row, i) => {
    const expected = new Set(row.entities.map((e) => key(e.type, e.begin, e.end)))
    const found = answers[i].filter((e) => PII_TYPES_LABELLED.includes(e.type)).map((e) => key(e.type, e.beginOffset, e.endOffset))
    const hits = found.filter((f) => expected.has(f)).length
    const missed = [...expected].filter((e) => !found.includes(e)).map((e) => `missed ${e.split(':')[0]} ${JSON.stringify(row.text.slice(Number(e.split(':')[1]), Number(e.split(':')[2])))}`)
    const extra = found.filter((f) => !expected.has(f)).map((f) => `spurious ${f.split(':')[0]} ${JSON.stringify(row.text.slice(Number(f.split(':')[1]), Number(f.split(':')[2])))}`)
    return { row, expected: expected.size, found: found.length, hits, notes: [...missed, ...extra] }
  })
  const sum = (items: typeof perRow, pick: (r: (typeof perRow)[number]) => number) => items.reduce((s, r) => s + pick(r), 0)
  const recallOf = (items: typeof perRow) => sum(items, (r) => r.hits) / Math.max(1, sum(items, (r) => r.expected))
  const precisionOf = (items: typeof perRow) => sum(items, (r) => r.hits) / Math.max(1, sum(items, (r) => r.found))
  const recall = recallOf(perRow)
  const precision = precisionOf(perRow)
  const families = [...groupBy(perRow, (r) => r.row.family).values()].flatMap((members): FamilyRow[] => [
    { family: members[0].row.family, expected: `${sum(members, (r) => r.expected)} spans`, examples: members.length, measure: 'span recall', value: recallOf(members) },
    { family: members[0].row.family, expected: `${sum(members, (r) => r.found)} found`, examples: members.length, measure: 'span precision', value: precisionOf(members) },
  ])
  return {
    check,
    engine: engines.privacy.name,
    examples: rows.length,
    headline: { recall, precision },
    goal: 'span recall >= 0.85 at precision >= 0.90',
    met: recall >= 0.85 && precision >= 0.9,
    families,
    mistakes: perRow.flatMap((r) => r.notes.map((n) => `${n} (${r.row.family})`)).slice(0, 12),
    latencyP50Ms,
  }
}

export const FROZEN_EVALUATIONS: ((engines: ModerationEngines) => Promise<FrozenReport>)[] = [
  (engines) => frozenToxicity(engines),
  async (engines) => blind(await frozenToxicity(engines, 'frozen/blind-toxicity.jsonl')),
  (engines) => frozenPromptInjection(engines),
  async (engines) => blind(await frozenPromptInjection(engines, 'frozen/blind-prompt-injection.jsonl')),
  frozenGibberish,
  frozenSimilarity,
  // Graded pairs of the twenty-fifth round by two writers blind to the project and to each other (tests/eval/similarity-
  // {dev,heldout}-round25.jsonl, 160 pairs each in the frozen set's families): a linear map of the embeddings trained on
  // three more writers' graded pairs was tried on the development set and rejected (TUNING-issue18.md, run 256), so
  // the engine was never changed on them; both are measurements of the engine as it stands.
  (engines) => frozenSimilarity(engines, 'similarity-dev-round25.jsonl', 'similarity (twenty-fifth round development set)'),
  (engines) => frozenSimilarity(engines, 'similarity-heldout-round25.jsonl', 'similarity (twenty-fifth round held-out set)'),
  frozenRestrictedTopic,
  frozenBancode,
  (engines) => frozenPii(engines),
  // One writer's sets of names and places in context, read by no rule: the development set was written before the
  // thirteenth round's given-name gazetteer and used to shape it (its numbers are tuned ones), the held-out set after
  // the rule was designed, before any engine's numbers on it were seen; the second development set (software,
  // devices and storms named like people, and people with those names) after that, to shape the second change, so
  // the held-out set's numbers after it are no longer blind (bench/offline/TUNING-issue18.md).
  (engines) => frozenPii(engines, 'pii-dev-round13.jsonl', 'privacy (thirteenth round development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-heldout-round13.jsonl', 'privacy (thirteenth round held-out set, seen before the second change)'),
  (engines) => frozenPii(engines, 'pii-dev2-round13.jsonl', 'privacy (thirteenth round second development set, tuned: things named like people)'),
  // The fourteenth round's sets, by the same writer, both written before the round's first change (names read from
  // their shape and place): the development set shaped it; the held-out set was measured blind once after it (recall
  // 0.815, precision 0.786), and its mistakes then shaped the second change, so its numbers are no longer blind.
  (engines) => frozenPii(engines, 'pii-dev-round14.jsonl', 'privacy (fourteenth round development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-heldout-round14.jsonl', 'privacy (fourteenth round held-out set, seen after its one blind measurement)'),
  // The fifteenth round's identifiers (the rest of Presidio's English recognizers) beside hard negatives (hashes,
  // versions, part and order numbers), valid values made by a script of the lead's: both sets written before the
  // recognizers; the held-out set measured blind once after them (recall 0 -> 1.000, precision 0.889), then read.
  (engines) => frozenPii(engines, 'pii-identifiers-dev-round15.jsonl', 'privacy (fifteenth round identifiers development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-identifiers-heldout-round15.jsonl', 'privacy (fifteenth round identifiers held-out set, seen after its one blind measurement)'),
  // National identifiers of eighteen more kinds under Presidio's names: the development set holds Presidio's own test
  // values, the held-out set values made by the lead's script from each issuer's rule; both written before the
  // recognizers, the held-out set measured blind once after them (recall 0 -> 1.000, precision 0.857: three places the
  // script had not labelled, labelled since), then read.
  (engines) => frozenPii(engines, 'pii-national-ids-dev-round15.jsonl', 'privacy (fifteenth round national identifiers development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-national-ids-heldout-round15.jsonl', 'privacy (fifteenth round national identifiers held-out set, seen after its one blind measurement)'),
  // Streets and street addresses (English, Romance and Germanic forms) beside hard negatives ("the road to success",
  // an album named after a street): both sets written before the street reader; the held-out set measured blind once
  // after it (recall 0.520 -> 0.960, precision 0.619 -> 0.923), then read.
  (engines) => frozenPii(engines, 'pii-streets-dev-round15.jsonl', 'privacy (fifteenth round streets development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-streets-heldout-round15.jsonl', 'privacy (fifteenth round streets held-out set, seen after its one blind measurement)'),
  // Natural features and facilities (spaCy's LOC and FAC: lakes, mountains, airports, bridges, stations, parks) beside
  // hard negatives ("mount the drive", "bridge the gap"): both sets written before the landmark reader; the held-out set
  // measured blind once after it (recall 0.688 -> 0.938, precision 0.786 -> 1.000), then read.
  (engines) => frozenPii(engines, 'pii-features-dev-round15.jsonl', 'privacy (fifteenth round landmarks development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-features-heldout-round15.jsonl', 'privacy (fifteenth round landmarks held-out set, seen after its one blind measurement)'),
  // US addresses as people write them (postal abbreviations, compass points, PO boxes, a town with its state's code and
  // ZIP) beside hard negatives ("press CA to cancel", "the MA program"): both sets written before the change; the
  // held-out set measured blind once after it (recall 0.516 -> 0.968, precision 0.696 -> 0.938), then read.
  (engines) => frozenPii(engines, 'pii-us-addresses-dev-round15.jsonl', 'privacy (fifteenth round US addresses development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-us-addresses-heldout-round15.jsonl', 'privacy (fifteenth round US addresses held-out set, seen after its one blind measurement)'),
  // Canadian and Australian addresses (a province's code and postal code, a state's code and postcode with or without
  // a comma), beside hard negatives ("the QC team", "press ON"): both sets written before the change; the held-out set
  // measured blind once after it (recall 0.524 -> 1.000, precision 0.846 -> 1.000), then read.
  (engines) => frozenPii(engines, 'pii-ca-au-addresses-dev-round15.jsonl', 'privacy (fifteenth round Canadian and Australian addresses development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-ca-au-addresses-heldout-round15.jsonl', 'privacy (fifteenth round Canadian and Australian addresses held-out set, seen after its one blind measurement)'),
  // Words in lower case that compromise reads as places (German and Spanish function words, code, nouns of places)
  // beside places written in lower case in chat: both sets written before the change; the held-out set measured once
  // after it (recall 1.000 -> 1.000, precision 0.417 -> 0.714), its findings printed by a diff just before.
  (engines) => frozenPii(engines, 'pii-lowercase-places-dev-round16.jsonl', 'privacy (sixteenth round lower-case places development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-lowercase-places-heldout-round16.jsonl', 'privacy (sixteenth round lower-case places held-out set, seen before its one measurement)'),
  // Words in lower case that compromise reads as people (code identifiers, everyday words, other languages) beside
  // names in docs and in lower-case chat: both sets written before the change; the held-out set measured once after
  // it (recall 1.000 -> 1.000, precision 0.545 -> 0.750), the findings it lost printed by a diff just before.
  (engines) => frozenPii(engines, 'pii-lowercase-people-dev-round16.jsonl', 'privacy (sixteenth round lower-case people development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-lowercase-people-heldout-round16.jsonl', 'privacy (sixteenth round lower-case people held-out set, partly seen before its one measurement)'),
  // Names and places in Markdown links and code beside markup with none: both sets written before the change; five
  // findings of the held-out set were printed by the clean-text diff before its one measurement (recall 0.636 ->
  // 1.000, precision 0.583 -> 1.000), then read.
  (engines) => frozenPii(engines, 'pii-markup-dev-round16.jsonl', 'privacy (sixteenth round markup development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-markup-heldout-round16.jsonl', 'privacy (sixteenth round markup held-out set, partly seen before its one measurement)'),
  // Acronyms that compromise reads as people ("URI", "LU", "DAN") beside names, and a text all in capitals: both sets
  // written before the change; the held-out set measured blind once after it (recall 1.000 -> 1.000, precision
  // 0.667 -> 1.000), then read.
  (engines) => frozenPii(engines, 'pii-acronyms-dev-round16.jsonl', 'privacy (sixteenth round acronyms development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-acronyms-heldout-round16.jsonl', 'privacy (sixteenth round acronyms held-out set, seen after its one blind measurement)'),
  // Code written all in lower case ("const winston = require('winston')") beside chat all in lower case with names in
  // it: both sets written before the change; the held-out set measured blind once after it (recall 0.750 -> 0.750,
  // precision 0.273 -> 0.750), then read.
  (engines) => frozenPii(engines, 'pii-lowercase-code-dev-round16.jsonl', 'privacy (sixteenth round lower-case code development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-lowercase-code-heldout-round16.jsonl', 'privacy (sixteenth round lower-case code held-out set, seen after its one blind measurement)'),
  // Names in lower-case chat after a verb opening a question or a call ("can priya send …", "call amara …") beside the
  // same verbs before other words: both sets written before the change; the held-out set measured blind once after it
  // (recall 0.833 -> 1.000, precision 1.000 -> 1.000), then read.
  (engines) => frozenPii(engines, 'pii-chat-cues-dev-round16.jsonl', 'privacy (sixteenth round chat cues development set, tuned)'),
  (engines) => frozenPii(engines, 'pii-chat-cues-heldout-round16.jsonl', 'privacy (sixteenth round chat cues held-out set, seen after its one blind measurement)'),
]

export function printFrozenReport(report: FrozenReport): void {
  const headline = Object.entries(report.headline).map(([name, value]) => `${name} ${value.toFixed(3)}`).join(', ')
  console.log(`\n## frozen ${report.check} — ${report.engine} (${report.examples} examples, p50 ${report.latencyP50Ms.toFixed(3)} ms)`)
  console.log(`  ${headline}   goal: ${report.goal}: ${report.met ? 'MET' : 'NOT MET'}`)
  for (const f of report.families) console.log(`    ${f.expected.padEnd(18)} ${f.family.padEnd(26)} n=${String(f.examples).padEnd(3)} ${f.measure} ${f.value.toFixed(3)}`)
  for (const m of report.mistakes) console.log(`    ! ${m}`)
}

export function frozenMarkdown(reports: FrozenReport[]): string[] {
  const summary = reports.map((r) => {
    const headline = Object.entries(r.headline).map(([name, value]) => `${name} ${value.toFixed(3)}`).join(', ')
    return `| ${r.check} | \`${r.engine}\` | ${r.examples} | ${headline} | ${r.goal} | ${r.met ? 'met' : '**not met**'} | ${r.latencyP50Ms.toFixed(3)} |`
  })
  const perFamily = reports.flatMap((r) => [
    `### ${r.check}`,
    '',
    '| expected | family | examples | measure | value |',
    '|---|---|---|---|---|',
    ...r.families.map((f) => `| ${f.expected} | ${f.family} | ${f.examples} | ${f.measure} | ${f.value.toFixed(3)} |`),
    '',
    ...(r.mistakes.length ? ['Worst mistakes:', '', ...r.mistakes.map((m) => `- ${m.replace(/\|/g, '\\|')}`), ''] : []),
  ])
  return [
    '| check | engine | examples | measures | goal (issue 18) | goal | p50 ms |',
    '|---|---|---|---|---|---|---|',
    ...summary,
    '',
    ...perFamily,
  ]
}
