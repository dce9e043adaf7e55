/**
 * The evaluation of a moderation engine on a labelled set under tests/eval: the engine is
 * called exactly as the API calls it, one text at a time, and timed per text.
 */
import fs from 'node:fs'
import path from 'node:path'
import { accuracy, binaryCounts, macroF1, median, precision, recall, rocAuc } from './metrics'

export const EVAL_DIR = path.resolve('tests/eval')

export function readEvalSet<T>(file: string): T[] {
  return fs
    .readFileSync(path.join(EVAL_DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T)
}

export type Example = { text: string; score: number; expected: string; predicted: string }

export type EvalReport = {
  check: string
  engine: string
  examples: number
  /** Named measures, e.g. auc, accuracy, precision, recall, macroF1, falsePositiveRate. */
  measures: Record<string, number>
  worstFalsePositives: Example[]
  worstFalseNegatives: Example[]
  latencyP50Ms: number
  notes?: string
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await run()
  return { value, ms: performance.now() - started }
}

/** Calls made before timing: about what a server process has answered a few seconds after it starts. */
const WARM_UP_CALLS = 300
/** Timed passes: each text's latency is the median of its passes. */
const TIMED_PASSES = 3

/**
 * Runs `predict` on every text, warms the engine up, then times it. The first pass gives the answers; passes over the
 * set continue until WARM_UP_CALLS calls have been made, because a server answers many requests with the same engine
 * and the warm time is what a request costs: one pass over a set of 20 texts left compromise's and libphonenumber's
 * code half compiled (privacy on the frozen set: 1.9 ms p50 after one pass, against 0.7 ms of CPU per text at rest).
 * Each text is then timed TIMED_PASSES times and its median kept, so that one pause of the machine (this one's
 * hypervisor steals a quarter of its time) or of the garbage collector does not stand for the text; the latency is
 * the median over texts of those.
 */
export async function predictAll<R>(texts: string[], predict: (text: string) => Promise<R>): Promise<{ answers: R[]; latencyP50Ms: number }> {
  const answers: R[] = []
  for (const text of texts) answers.push(await predict(text))
  for (let calls = texts.length; calls < WARM_UP_CALLS && texts.length > 0; calls += texts.length) for (const text of texts) await predict(text)
  const passes: number[][] = texts.map(() => [])
  for (let pass = 0; pass < TIMED_PASSES; pass++) {
    for (let i = 0; i < texts.length; i++) passes[i]!.push((await timed(() => predict(texts[i]!))).ms)
  }
  return { answers, latencyP50Ms: median(passes.map(median)) }
}

/**
 * A two-class check: `score` is the probability of the positive label, `predicted` the engine's
 * label at its default threshold. `subsets` report the false-positive rate on named groups of
 * negatives (e.g. benign instructions).
 */
export async function evaluateBinary(options: {
  check: string
  engine: string
  rows: { text: string; label: string; group?: string }[]
  positive: string
  negative: string
  predict: (text: string) => Promise<{ label: string; probabilityPositive: number }>
}): Promise<EvalReport> {
  const { rows, positive, negative } = options
  const { answers, latencyP50Ms } = await predictAll(rows.map((r) => r.text), options.predict)
  const positives = rows.map((r) => r.label === positive)
  const scores = answers.map((a) => a.probabilityPositive)
  const predicted = answers.map((a) => a.label === positive)
  const counts = binaryCounts(predicted, positives)
  const examples: Example[] = rows.map((r, i) => ({ text: r.text, score: scores[i], expected: r.label, predicted: answers[i].label }))
  const measures: Record<string, number> = {
    auc: rocAuc(scores, positives),
    accuracy: accuracy(predicted, positives),
    precision: precision(counts),
    recall: recall(counts),
    falsePositiveRate: counts.falsePositives / Math.max(1, counts.falsePositives + counts.trueNegatives),
  }
  for (const group of new Set(rows.map((r) => r.group).filter((g): g is string => !!g))) {
    const members = rows.map((r, i) => (r.group === group ? i : -1)).filter((i) => i >= 0)
    const wrong = members.filter((i) => predicted[i] !== positives[i]).length
    measures[`errorRate:${group}`] = wrong / members.length
  }
  const wrongWith = (label: string) => examples.filter((e) => e.expected === label && e.predicted !== label)
  return {
    check: options.check,
    engine: options.engine,
    examples: rows.length,
    measures,
    worstFalsePositives: wrongWith(negative).sort((a, b) => b.score - a.score).slice(0, 5),
    worstFalseNegatives: wrongWith(positive).sort((a, b) => a.score - b.score).slice(0, 5),
    latencyP50Ms,
  }
}

/** A multi-class check: macro-F1 and accuracy of the top label; `score` is the top label's probability. */
export async function evaluateMultiClass(options: {
  check: string
  engine: string
  rows: { text: string; label: string }[]
  classes: readonly string[]
  predict: (text: string) => Promise<{ label: string; probability: number }>
}): Promise<EvalReport> {
  const { rows, classes } = options
  const { answers, latencyP50Ms } = await predictAll(rows.map((r) => r.text), options.predict)
  const predicted = answers.map((a) => a.label)
  const expected = rows.map((r) => r.label)
  const f1 = macroF1(predicted, expected, classes)
  const wrong = rows
    .map((r, i): Example => ({ text: r.text, score: answers[i].probability, expected: r.label, predicted: predicted[i] }))
    .filter((e) => e.expected !== e.predicted)
    .sort((a, b) => b.score - a.score)
  const measures: Record<string, number> = { macroF1: f1.macro, accuracy: accuracy(predicted, expected) }
  for (const [c, value] of Object.entries(f1.perClass)) measures[`f1:${c}`] = value
  return {
    check: options.check,
    engine: options.engine,
    examples: rows.length,
    measures,
    // For several classes "false positive" means a confident wrong label, "false negative" a missed clean text.
    worstFalsePositives: wrong.filter((e) => e.expected === classes[0]).slice(0, 5),
    worstFalseNegatives: wrong.filter((e) => e.expected !== classes[0]).slice(0, 5),
    latencyP50Ms,
  }
}

export function format(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : 'n/a'
}

export function printReport(report: EvalReport): void {
  console.log(`\n## ${report.check} — ${report.engine} (${report.examples} examples, p50 ${report.latencyP50Ms.toFixed(3)} ms/text)`)
  for (const [name, value] of Object.entries(report.measures)) console.log(`  ${name.padEnd(34)} ${format(value)}`)
  const show = (title: string, examples: EvalReport['worstFalsePositives']) => {
    if (examples.length === 0) return
    console.log(`  ${title}:`)
    for (const e of examples) console.log(`    ${e.score.toFixed(3)} [${e.expected} -> ${e.predicted}] ${JSON.stringify(e.text.slice(0, 100))}`)
  }
  show('worst false positives', report.worstFalsePositives)
  show('worst false negatives', report.worstFalseNegatives)
}
