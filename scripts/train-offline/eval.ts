/**
 * `npm run eval [--write]`: evaluates every offline engine, and every neural model installed in
 * MODELS_DIR, on the labelled sets in tests/eval, and prints per check the measures, the worst
 * mistakes and the median latency per text. `--write` also writes bench/offline/RESULTS.md.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  neuralBanCodeEngine,
  neuralEmbeddingEngine,
  neuralGibberishEngine,
  neuralPromptInjectionEngine,
  neuralToxicityEngine,
} from '@/lib/moderation/engines/neural'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { evaluateBancode, evaluateGibberish, evaluatePromptInjection, evaluateSimilarity, evaluateToxicity } from './checks'
import type { EvalReport } from './evaluate'

const GOALS: Record<string, string> = {
  bancode: 'AUC >= 0.98',
  promptInjection: 'AUC >= 0.95, <= 5% false positives on benign instructions',
  gibberish: 'macro-F1 >= 0.85',
  toxicity: 'AUC >= 0.90',
  similarity: 'none set (pair-ranking AUC reported)',
}

function format(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : 'n/a'
}

function printReport(report: EvalReport): void {
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

function resultsMarkdown(reports: EvalReport[]): string {
  const rows = reports.map((r) => {
    const m = r.measures
    const headline = m.auc !== undefined ? `AUC ${format(m.auc)}` : `macro-F1 ${format(m.macroF1)}`
    const extra = m['errorRate:benign instruction'] !== undefined ? `; benign-instruction FP ${format(m['errorRate:benign instruction'])}` : ''
    return `| ${r.check} | \`${r.engine}\` | ${r.examples} | ${headline} | ${format(m.precision)} / ${format(m.recall)}${extra} | ${format(m.accuracy)} | ${r.latencyP50Ms.toFixed(3)} | ${GOALS[r.check] ?? ''} |`
  })
  const mistakes = reports.flatMap((r) => [
    `### ${r.check} — \`${r.engine}\``,
    '',
    ...[...r.worstFalsePositives, ...r.worstFalseNegatives].map(
      (e) => `- ${e.score.toFixed(3)} ${e.expected} → ${e.predicted}: ${JSON.stringify(e.text.slice(0, 100)).replace(/\|/g, '\\|')}`,
    ),
    '',
  ])
  return [
    '# Offline moderation engines: evaluation',
    '',
    'Reproduce: `npm run eval -- --write` (i.e. `npx tsx scripts/train-offline/eval.ts --write`); rebuild the models first with',
    '`npm run train:offline` (`npx tsx scripts/train-offline/index.ts`). Sets: tests/eval/*.jsonl, written by the project and never',
    `used for training. Latency: median per text, one text per call, engine called as the API calls it, on ${os.cpus().length} cores`,
    `(${os.cpus()[0]?.model ?? 'unknown CPU'}). Precision/recall are at the engine's default threshold, for the positive label`,
    '(CODE, INJECTION). Neural rows appear when a neural model is installed in MODELS_DIR.',
    '',
    '| check | engine | examples | AUC / macro-F1 | precision / recall | accuracy | p50 ms | goal |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'Not built yet (they still answer 503 "model not installed" unless their neural model is installed): gibberish, toxicity,',
    'embeddings/similarity, restricted topic.',
    '',
    '## Worst mistakes',
    '',
    ...mistakes,
  ].join('\n')
}

async function main() {
  const offline = offlineEngines()
  const reports: EvalReport[] = [
    await evaluateBancode(offline.banCode),
    await evaluatePromptInjection(offline.promptInjection),
    await evaluateGibberish(offline.gibberish),
    await evaluateToxicity(offline.toxicity),
    await evaluateSimilarity(offline.embedding),
  ]
  if (neuralBanCodeEngine.available()) reports.push(await evaluateBancode(neuralBanCodeEngine))
  if (neuralPromptInjectionEngine.available()) reports.push(await evaluatePromptInjection(neuralPromptInjectionEngine))
  if (neuralGibberishEngine.available()) reports.push(await evaluateGibberish(neuralGibberishEngine))
  if (neuralToxicityEngine.available()) reports.push(await evaluateToxicity(neuralToxicityEngine))
  if (neuralEmbeddingEngine.available()) reports.push(await evaluateSimilarity(neuralEmbeddingEngine))
  reports.forEach(printReport)
  if (process.argv.includes('--write')) {
    const file = path.resolve('bench/offline/RESULTS.md')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, `${resultsMarkdown(reports)}\n`)
    console.log(`\nwrote ${path.relative(process.cwd(), file)}`)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
