/**
 * `npm run eval [--write]`: evaluates the offline engines on the frozen set of
 * issue 18 (tests/eval/frozen: per check the overall measure next to the issue's goal, and one
 * row per family of hard cases), then every offline engine, and every neural model installed in
 * MODELS_DIR, on the project's labelled sets in tests/eval, with the worst mistakes and the
 * median latency per text. `--write` also writes bench/offline/RESULTS.md.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { neuralEngines, offlineEngines } from '@/lib/moderation/engines/registry'
import {
  evaluateBancode,
  evaluateGibberish,
  evaluatePromptInjection,
  evaluateRestrictedTopic,
  evaluateSimilarity,
  evaluateToxicity,
  evaluateEverydayProse,
  OFFLINE_EVALUATIONS,
  type ProseReport,
} from './checks'
import { format, printReport, type EvalReport } from './evaluate'
import { FROZEN_EVALUATIONS, frozenMarkdown, printFrozenReport, type FrozenReport } from './frozen'

/** The project's goals on its own sets (tests/eval/*.jsonl); issue 18's goals are the frozen set's (./frozen.ts). */
const GOALS: Record<string, string> = {
  bancode: 'AUC >= 0.98',
  'bancode (short messages, fourteenth round development set, tuned)': 'none set (greetings, one-word replies, chat, emoji; short lines of code; reported)',
  'bancode (short messages, fourteenth round held-out set)': 'none set (greetings, one-word replies, chat, emoji; short lines of code; reported)',
  promptInjection: 'AUC >= 0.95, <= 5% false positives on benign instructions',
  gibberish: 'macro-F1 >= 0.85',
  'gibberish (other languages, fourteenth round development set, tuned)': 'none set (short sentences of 19 languages, English garbles beside them; reported)',
  'gibberish (other languages, fourteenth round held-out set)': 'none set (short sentences of 19 languages, English garbles beside them; reported)',
  toxicity: 'AUC >= 0.90',
  'toxicity (twelfth round development set, tuned)': 'none set (hard cases by family; reported)',
  'toxicity (twelfth round held-out set)': 'none set (hard cases by family; reported)',
  'promptInjection (twelfth round development set, tuned)': 'none set (attacks in new words by family, benign look-alikes; reported)',
  'promptInjection (twenty-sixth round held-out set)': 'none set (attacks and look-alikes by family, other languages; reported)',
  'toxicity (twenty-seventh round held-out set)': 'none set (hard cases by family, some in other languages; reported)',
  'promptInjection (twenty-eighth round 42 languages held-out set)': 'none set (attacks and look-alikes in 42 languages other than English; reported)',
  'toxicity (twenty-eighth round 42 languages held-out set)': 'none set (toxic and hard clean texts in 42 languages other than English; reported)',
  'promptInjection (twelfth round held-out set)': 'none set (attacks in new words by family, benign look-alikes; reported)',
  similarity: 'none set (pair-ranking AUC reported)',
  restrictedTopic: 'AUC >= 0.90 (default labels)',
  'restrictedTopic (attacks in other words)': 'none set (default labels on texts without their own words, and look-alikes; reported)',
  'restrictedTopic (twenty-fifth round development set, tuned)': 'none set (hard cases by family, other languages, long texts; reported)',
  'restrictedTopic (twenty-fifth round held-out set)': 'none set (hard cases by family, other languages, long texts; reported)',
  'restrictedTopic (twenty-eighth round 42 languages held-out set)': 'none set (default labels in 42 languages other than English; reported)',
  'restrictedTopic (other labels)': 'none set (twenty other labels, each text against its own label; reported)',
  'restrictedTopic (other names of the labels)': 'none set (the same rows under every other name of their label; reported)',
}

function resultsMarkdown(frozen: FrozenReport[], reports: EvalReport[], prose: ProseReport[]): string {
  const rows = reports.map((r) => {
    const m = r.measures
    const headline = m.auc !== undefined ? `AUC ${format(m.auc)}` : `macro-F1 ${format(m.macroF1)}`
    const extra = m['errorRate:benign instruction'] !== undefined ? `; benign-instruction FP ${format(m['errorRate:benign instruction'])}` : ''
    // Multi-class checks have no single positive label: per-class F1 instead of precision/recall.
    const perClass = Object.entries(m).filter(([name]) => name.startsWith('f1:'))
    const atThreshold = perClass.length
      ? `F1 ${perClass.map(([name, value]) => `${name.slice(3)} ${format(value)}`).join(', ')}`
      : `${format(m.precision)} / ${format(m.recall)}${extra}`
    const perMetric = Object.entries(m).filter(([name]) => name.startsWith('auc:'))
    const headlineWithMetrics = perMetric.length ? `${headline} (${perMetric.map(([name, value]) => `${name.slice(4)} ${format(value)}`).join(', ')})` : headline
    return `| ${r.check} | \`${r.engine}\` | ${r.examples} | ${headlineWithMetrics} | ${atThreshold} | ${format(m.accuracy)} | ${r.latencyP50Ms.toFixed(3)} | ${GOALS[r.check] ?? ''} |`
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
    '## Frozen set of issue 18 (tests/eval/frozen)',
    '',
    'Written by hand for issue 18, by one writer, before any engine was changed for it, and read by no trainer (the',
    'blind-* files were written after the first measurement, before any change, and their rows are never printed; the',
    'trainers generate their texts from their own phrase lists and from package prose). Every row names its family of',
    'hard cases. Binary checks: recall per family of positives, false-positive rate per family of negatives, at the',
    "engine's default threshold. Gibberish: the share of each family given its expected class. Similarity: Spearman of",
    "the answer (for two texts, the offline engine's reading of the pair) against a 0-5 similarity grade, per family the",
    'mean answer next to the mean grade. Personal data: a',
    'found entity counts when its type and offsets equal a labelled one (DATE_TIME and URL findings are not labelled and',
    'are left out). The sets are small (20-99 rows per check): one row moves a family rate by 10-30 points.',
    "The frozen rows' mistakes were looked at while the toxicity, prompt-injection, gibberish, bancode and personal-data",
    'engines were changed, so their frozen numbers are tuned numbers; the blind rows were not looked at (only their totals',
    'and family rates). Every number seen while tuning, with the numbers before any change: bench/offline/TUNING-issue18.md.',
    'The similarity engine (WordNet retrofitting, a polarity dimension) and the restricted-topic engine (recalibrated on',
    'those embeddings; multilingual seed terms) changed by methods chosen before measuring, each measured once on the',
    'frozen rows and kept or rejected on that number: their frozen numbers are lightly tuned. In the fourth round (runs 60-80)',
    "the embedding's SIF smoothing was searched (1e-3, 3e-4, 1e-4, 3e-5) with the frozen similarity rows in view: a tuned number.",
    'In the fifth round (runs 81-97) the embedding was rebuilt on GloVe 6B vectors; its SIF smoothing (1e-3 or 1e-4) and its',
    'vocabulary size and dimensions (20,000-50,000 words, 64-100 dims, within the browser budget) were chosen with the frozen',
    'similarity rows in view, so the similarity number is a tuned one; the topic changes (GloVe neighbours of label terms) were',
    'chosen before measuring and kept on one measurement each. In the eighth round (runs 423-428) the restricted-topic',
    "engine's sense readings (the WordNet senses a label is meant in, the share of a word's senses that are the label's,",
    'other-sense phrases, ambiguous adjectives before abstract nouns, the kind of a linking verb\'s subject), the means of',
    'attacks for Terrorism and the reading of seed words of other languages were chosen before measuring and measured once',
    'on the frozen rows (0.854 -> 0.907); a filter of definition words and a fix of the sense data were measured after eight',
    'frozen rows had been printed (0.909). In the tenth round (runs 520-521) every shipped label got seed terms and an',
    "inflected verb meets its base form among a label's terms; chosen while reading the other-labels set below (so its",
    'number is a tuned one) and measured once on the frozen rows (0.910). In the eleventh round (run 534) an act and what',
    'it is done to (an attack on a crowd, a charge set off) count as a term together, and Terrorism got the attack types',
    "of the Global Terrorism Database as seeds; written from those taxonomies and a new set (\"attacks in other words\", below)",
    'before the change, but with the frozen mistakes of earlier rounds known; measured once on the frozen rows (0.915).',
    "Gibberish's last change (the word pairs of CMU Sphinx's general English language model, runs 140-146) was chosen on",
    "the lead's development set and the project set with five-member ensembles, but every run printed the frozen totals,",
    'so its number (0.821) is a tuned one, as was the engine before it (0.816, tuned on printed frozen mistakes).',
    "Toxicity's last change (more kinds of identity attack, harassment and sarcasm, disagreement as a hard negative, runs",
    '610-612) was chosen on a new writer\'s development set (below, "twelfth round development set": tuned numbers) and',
    'measured on a held-out set written after the change was designed ("twelfth round held-out set"); the frozen worst',
    'mistakes were printed by every run, the blind rows were not read (bench/offline/TUNING-issue18.md). Prompt injection\'s',
    'last change (overrides in other words: the verbs of WordNet\'s synsets of ignore, cancel and disobey, more names of',
    'instructions, overrides stated of the instructions; run 620) was chosen on the same writer\'s development set and',
    'measured once on a held-out set written after it ("twelfth round" sets below); frozen and blind totals were printed.',
    'Personal data\'s last changes (given names of many languages, and names that their neighbours show to be software,',
    'a device or a storm; thirteenth round) were chosen on two development sets (tuned numbers); the held-out set was',
    'measured blind after the first change and is no longer blind after the second; the frozen totals were printed.',
    'In the fourteenth round, people that no list knows are read from the shape and place of their words (two or three',
    'words written as names that are no English word, or one right after a verb done to a person or a word of kin);',
    'chosen on a new development set and on the PERSON findings it added to 8,000 clean texts, and measured blind once on a',
    'held-out set written before the change (recall 0.556 -> 0.815, precision 0.714 -> 0.786); that set\'s mistakes then',
    'shaped a second change (names found cut short carried on, names after an article read as things), so its numbers',
    'below are seen ones; the frozen totals were printed. Gibberish in the same round: a text in another language is',
    'told by the stop words of 56 languages (stopwords-iso, less every English word) in place of ten hand-written lists;',
    'chosen on a development set of short sentences in other languages and measured blind once on a held-out one (the',
    '"other languages" rows of the project sets below); the frozen totals were printed. Banned code in the same round:',
    'short messages (greetings, one-word replies, chat abbreviations, emoji) joined the training prose, chosen on a',
    'development set and measured blind once on a held-out set of short messages and short lines of code (below).',
    'Personal data in the fifteenth and sixteenth rounds (the rest of Presidio\'s recognizers, national identifiers,',
    'streets, landmarks, addresses; then places and people written in lower case, names in markup, acronyms): each change',
    'chosen on its own development set and measured once on a held-out set written before it, named below as blind or as',
    'seen; the frozen totals were printed and did not move.',
    'Restricted topic in the twenty-fifth round: a classifier of whole texts (words, word pairs, character n-grams),',
    'trained on texts written for it by five writers given only the label definitions, is stacked on the default labels;',
    'its settings were chosen on a development set by another writer (tuned numbers), it was kept on one blind measurement',
    'of a held-out set by a third (0.731 -> 0.919), and the frozen rows were measured once after that decision (0.915 ->',
    '0.947); after a review, the changes it called for were chosen on the development set and the review\'s probes, and',
    'the held-out and frozen sets were measured a second time (0.923, 0.967: seen numbers). The label definitions the',
    "writers were given follow the project set's conventions, known with the frozen rows' mistakes of earlier rounds.",
    'Prompt injection in the twenty-sixth round: the same classifier, trained on texts by five more writers, is stacked',
    'on the engine; its settings were chosen on the earlier rounds\' development sets, it was kept on one blind measurement',
    'of a new held-out set (0.772 -> 0.873) written before any earlier held-out set was scored with it; its stacking\'s',
    'weight of harmless texts was chosen after that, so every held-out number below is a seen one.',
    'Toxicity in the twenty-seventh round: the same classifier, by six more writers, stacked on the toxicity head; kept on',
    'one blind measurement of a new held-out set (0.848 -> 0.928) with five of the writers; the sixth (short friendly',
    'messages) was added after it, so the held-out numbers below (0.892) are seen ones.',
    'Twenty-eighth round, 42 languages other than English: toxicity and prompt injection got texts by five more writers',
    '(two and three; the third prompt-injection writer also wrote minimal pairs of attacks and their negated, quoted and',
    'reported twins), and a stacking of their own for texts that read as another language. Both were measured blind once',
    'on a new held-out set of 42 languages (toxicity 0.636 -> 0.868, prompt injection 0.770 -> 0.910) under a rule written',
    'before; neither met every clause of it (toxicity: one more false alarm of 31 on the twelfth round\'s held-out set;',
    'prompt injection: the encodings held-out set 0.949 -> 0.929, two more false alarms of 48 on the twentieth round\'s),',
    'and the unit tests found borderline English attacks missed; English prompt injection was then given back its',
    'classifier of the twenty-sixth round, both checks\' weights of harmless texts were chosen again on the development',
    'sets and the folds; a review then found an evasion (words of another language added to an English attack moved it to',
    "the other languages' stacking), mended by reading a mixed text both ways. Every number below, the 42-language sets'",
    'too, is a seen one (bench/offline/TUNING-issue18.md). Restricted topic in the same round: two more writers in 42',
    'languages train a classifier of texts in other languages (English is read as before), kept on one blind measurement',
    "of a held-out set of 42 languages (0.750 -> 0.945) under a rule written before; its numbers below are blind ones.",
    'Similarity in the twenty-ninth round: two texts are read as a pair (word alignment, WordNet synonyms and antonyms,',
    'negation, numbers) by small networks trained on graded pairs by six writers; chosen on the folds, the twenty-fifth',
    "round's development set and the project set, kept on one measurement of its held-out set and the frozen rows under a",
    'rule written before (held-out 0.622 -> 0.767, frozen 0.706 -> 0.724: the frozen goal not met then); a mend and a',
    "review's mends came after, so every similarity number below is a seen one (frozen 0.794, held-out 0.751).",
    '',
    ...frozenMarkdown(frozen),
    '## Project sets (tests/eval/*.jsonl)',
    '',
    'Reproduce: `npm run eval -- --write` (i.e. `npx tsx scripts/train-offline/eval.ts --write`); rebuild the models first with',
    '`npm run train:offline` (`npx tsx scripts/train-offline/index.ts`). Sets: tests/eval/*.jsonl, written by the project and never',
    `used for training. Latency (here and in the frozen table): the median over texts of each text's median of three timed calls,`,
    `after 300 calls to warm the engine up, one text per call, engine called as the API calls it, on ${os.cpus().length} cores`,
    `(${os.cpus()[0]?.model ?? 'unknown CPU'}). Precision/recall are at the engine's default threshold, for the positive label`,
    '(CODE, INJECTION, toxic at toxicity >= 0.5, similar at similarity >= 0.5, on topic at score >= 0.5). Toxicity: AUC of the toxicity',
    'metric against the toxic/clean label, then each other metric against the rows labelled with it. Similarity: one example is a',
    'pair, both texts embedded in one call. Restricted topic: one example is a (text, default label) pair; latency is per text',
    'scored against both default labels. Restricted topic (other labels): twenty other labels, five on-topic and five',
    "off-topic texts each, the off-topic ones using the label's words in another sense; each text against its own label alone.",
    'Neural rows appear when a neural model is installed in MODELS_DIR.',
    '',
    '| check | engine | examples | AUC / macro-F1 | precision / recall | accuracy | p50 ms | goal |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'Every check now answers offline. How the sets were made, and what the numbers do not show: each set was written by the',
    'project (the same people who wrote the engines, so it shares their blind spots), never used for training. The gibberish',
    "engine's features and training data were revised several times while its numbers on its set were being looked at, and the",
    'toxicity patterns had one bug fixed after a miss on the set (word boundaries in Cyrillic): expect lower numbers on text from',
    'elsewhere.',
    'The offline embeddings are not mpnet vectors (see public/models/offline/SOURCES.md).',
    '',
    '## Everyday prose (false alarms)',
    '',
    `Held-out sentences of everyday prose (fortunes and the documentation of the npm packages installed where this ran; the`,
    'quarter that the text classifiers never train on): none is an attack, toxic, or about terrorism or explosives.',
    '',
    '| check | engine | flagged |',
    '|---|---|---|',
    ...prose.map((p) => `| ${p.check} | \`${p.engine}\` | ${p.flagged} of ${p.sentences} |`),
    '',
    '## Worst mistakes',
    '',
    ...mistakes,
  ].join('\n')
}

async function main() {
  const offline = offlineEngines()
  const frozen: FrozenReport[] = []
  for (const evaluate of FROZEN_EVALUATIONS) frozen.push(await evaluate(offline))
  const reports: EvalReport[] = []
  for (const evaluate of Object.values(OFFLINE_EVALUATIONS)) reports.push(await evaluate(offline))
  const neural = neuralEngines()
  if (neural.banCode!.available()) reports.push(await evaluateBancode(neural.banCode!))
  if (neural.promptInjection!.available()) reports.push(await evaluatePromptInjection(neural.promptInjection!))
  if (neural.gibberish!.available()) reports.push(await evaluateGibberish(neural.gibberish!))
  if (neural.toxicity!.available()) reports.push(await evaluateToxicity(neural.toxicity!))
  if (neural.similarity!.available()) reports.push(await evaluateSimilarity(neural.similarity!))
  if (neural.restrictedTopic!.available()) reports.push(await evaluateRestrictedTopic(neural.restrictedTopic!))
  const prose = await evaluateEverydayProse(offline)
  frozen.forEach(printFrozenReport)
  reports.forEach(printReport)
  for (const p of prose) console.log(`\n## everyday prose — ${p.check} (${p.engine}): flagged ${p.flagged} of ${p.sentences}${p.examples.map((e) => `\n    ${JSON.stringify(e.slice(0, 100))}`).join('')}`)
  if (process.argv.includes('--write')) {
    const file = path.resolve('bench/offline/RESULTS.md')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, `${resultsMarkdown(frozen, reports, prose)}\n`)
    console.log(`\nwrote ${path.relative(process.cwd(), file)}`)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
