/** One evaluation per check, over any engine of that check (offline or neural), on its set in tests/eval. */
import { GIBBERISH_LABELS, TOXICITY_METRICS, type BanCodeVerdict, type GibberishPrediction, type InjectionVerdict, type ModerationEngine, type TopicInput, type TopicScores, type ToxicityScores } from '@/lib/moderation/engines/types'
import type { ModerationEngines } from '@/lib/moderation/checks'
import { evaluateBinary, evaluateMultiClass, readEvalSet, type EvalReport } from './evaluate'
import { rocAuc } from './metrics'
import { SIMILARITY_THRESHOLD } from '@/lib/moderation/offline/embedding'
import { similarityOfTexts, type SimilarityOutput } from '@/lib/moderation/checks/similarity'
import { DEFAULT_TOPIC_LABELS, TOPIC_LABEL_ALIASES, TOPIC_THRESHOLD } from '@/lib/moderation/offline/restricted-topic'
import { heldOutProse } from './stacked-text-classifier'

type Labelled = { text: string; label: string; group?: string }

/** A two-label verdict (the label and the probability of that label) as the probability of `positive`. */
export function probabilityOf(positive: string, { label, score }: { label: string; score: number }): number {
  return label === positive ? score : 1 - score
}

/** An engine's answer as a two-class evaluation reads it: the label and the probability of the positive one. */
type Verdict<Answer> = (answer: Answer) => { label: string; probabilityPositive: number }

/** The answer of an engine that answers one of two labels with its probability. */
const labelled =
  (positive: string) =>
  (verdict: { label: string; score: number }): { label: string; probabilityPositive: number } => ({ label: verdict.label, probabilityPositive: probabilityOf(positive, verdict) })

/**
 * A two-class evaluation on a set in tests/eval: error rates per `group` of a row, or per `family` (the hard-case sets
 * name their rows' kinds so).
 */
function binaryEvaluation<Answer>(check: string, file: string, positive: string, negative: string, verdict: Verdict<Answer>) {
  return (engine: ModerationEngine<string, Answer>): Promise<EvalReport> =>
    evaluateBinary({
      check,
      engine: engine.name,
      rows: readEvalSet<Labelled & { family?: string }>(file).map((r) => ({ text: r.text, label: r.label, group: r.group ?? r.family })),
      positive,
      negative,
      predict: async (text) => verdict(await engine.run(text)),
    })
}

export const evaluateBancode = binaryEvaluation<BanCodeVerdict>('bancode', 'bancode.jsonl', 'CODE', 'NL', labelled('CODE'))
/**
 * Short messages and short lines of code (bancode-short-*-round14.jsonl), written by the lead before the fourteenth
 * round's short messages joined the training prose: the development set shaped the change, the held-out set was
 * measured blind once after it (bench/offline/TUNING-issue18.md).
 */
export const evaluateBancodeShortDevelopment = binaryEvaluation<BanCodeVerdict>('bancode (short messages, fourteenth round development set, tuned)', 'bancode-short-dev-round14.jsonl', 'CODE', 'NL', labelled('CODE'))
export const evaluateBancodeShortHeldOut = binaryEvaluation<BanCodeVerdict>('bancode (short messages, fourteenth round held-out set)', 'bancode-short-heldout-round14.jsonl', 'CODE', 'NL', labelled('CODE'))
export const evaluatePromptInjection = binaryEvaluation<InjectionVerdict>('promptInjection', 'prompt-injection.jsonl', 'INJECTION', 'LEGIT', labelled('INJECTION'))

export function evaluateGibberish(engine: ModerationEngine<string, GibberishPrediction>, file = 'gibberish.jsonl', check = 'gibberish'): Promise<EvalReport> {
  return evaluateMultiClass({
    check,
    engine: engine.name,
    rows: readEvalSet<Labelled>(file),
    classes: GIBBERISH_LABELS,
    predict: (text) => engine.run(text),
  })
}

/**
 * Toxicity: the headline is the toxicity metric against the toxic/clean label, at the 0.5
 * threshold; each other metric gets its AUC against the rows that name it in `metrics`.
 */
export async function evaluateToxicity(engine: ModerationEngine<string, ToxicityScores>): Promise<EvalReport> {
  const rows = readEvalSet<Labelled & { metrics: string[] }>('toxicity.jsonl')
  const answers = new Map<string, ToxicityScores>()
  const report = await evaluateBinary({
    check: 'toxicity',
    engine: engine.name,
    rows,
    positive: 'toxic',
    negative: 'clean',
    predict: async (text) => {
      const scores = await engine.run(text)
      answers.set(text, scores)
      return { label: scores.toxicity >= 0.5 ? 'toxic' : 'clean', probabilityPositive: scores.toxicity }
    },
  })
  for (const metric of TOXICITY_METRICS.slice(1)) {
    report.measures[`auc:${metric}`] = rocAuc(
      rows.map((r) => answers.get(r.text)![metric]),
      rows.map((r) => r.metrics.includes(metric)),
    )
  }
  return report
}

/**
 * Similarity, judged by what the endpoint answers for two texts (the offline engine's reading of the pair, the neural
 * engine's cosine) against the similar/unrelated label. Each pair is shown as a JSON array.
 */
export function evaluateSimilarity(engine: ModerationEngine<string[], SimilarityOutput>): Promise<EvalReport> {
  const pairs = readEvalSet<{ text1: string; text2: string; label: string }>('similarity.jsonl')
  return evaluateBinary({
    check: 'similarity',
    engine: engine.name,
    rows: pairs.map((p) => ({ text: JSON.stringify([p.text1, p.text2]), label: p.label })),
    positive: 'similar',
    negative: 'unrelated',
    predict: async (pair) => {
      const similarity = similarityOfTexts(await engine.run(JSON.parse(pair) as string[]))
      return { label: similarity >= SIMILARITY_THRESHOLD ? 'similar' : 'unrelated', probabilityPositive: similarity }
    },
  })
}

/**
 * Restricted topics with the default labels: every (text, label) pair is one example, on topic
 * when the label is among the row's `topics`. Each call scores the text against both default
 * labels, as the API does by default, so the latency is per text.
 */
export function evaluateRestrictedTopic(engine: ModerationEngine<TopicInput, TopicScores>, file = 'restricted-topic.jsonl', check = 'restrictedTopic'): Promise<EvalReport> {
  const rows = readEvalSet<{ text: string; topics: string[] }>(file)
  const labels: string[] = [...DEFAULT_TOPIC_LABELS]
  return evaluateBinary({
    check,
    engine: engine.name,
    rows: rows.flatMap((r) => labels.map((label) => ({ text: JSON.stringify([r.text, label]), label: r.topics.includes(label) ? 'on topic' : 'off topic', group: label }))),
    positive: 'on topic',
    negative: 'off topic',
    predict: async (pair) => {
      const [text, label] = JSON.parse(pair) as [string, string]
      const scores = await engine.run({ text, labels, classifier: 'default' })
      const score = scores[labels.indexOf(label)]
      return { label: score >= TOPIC_THRESHOLD ? 'on topic' : 'off topic', probabilityPositive: score }
    },
  })
}

/**
 * The default labels on attacks and devices described without the labels' own words (tests/eval/restricted-topic-indirect.jsonl:
 * an attack on a crowd, a charge set off, hostages taken for demands) and on everyday texts that share their words (a parade
 * crowd, a battery charge, "she killed it on stage"). Written for the eleventh round before its change; read by no trainer.
 */
export function evaluateRestrictedTopicIndirect(engine: ModerationEngine<TopicInput, TopicScores>): Promise<EvalReport> {
  return evaluateRestrictedTopic(engine, 'restricted-topic-indirect.jsonl', 'restrictedTopic (attacks in other words)')
}

/**
 * The default labels on the twenty-fifth round's sets (tests/eval/restricted-topic-{dev,heldout}-round25.jsonl, 160
 * texts each by two writers blind to the project and to each other, in eight families of hard cases: direct, indirect,
 * neutral and other-language texts on topic; figurative, nearby and plain texts off topic; long texts where the topic
 * is one sentence or none). The development set chose the text classifier's settings (tuned numbers); the held-out
 * set was measured once, blind, to keep or drop it. Read by no trainer.
 */
export function evaluateRestrictedTopicRound25(engine: ModerationEngine<TopicInput, TopicScores>, set: 'dev' | 'heldout'): Promise<EvalReport> {
  const check = set === 'dev' ? 'restrictedTopic (twenty-fifth round development set, tuned)' : 'restrictedTopic (twenty-fifth round held-out set)'
  return evaluateRestrictedTopic(engine, `restricted-topic-${set}-round25.jsonl`, check)
}

/**
 * The default labels on the twenty-eighth round's held-out set in 42 languages other than English
 * (tests/eval/restricted-topic-heldout-round28.jsonl, 252 texts, six a language), by a writer who saw only the label
 * definitions: measured blind once to keep the classifier's texts in those languages.
 */
export function evaluateRestrictedTopicRound28HeldOut(engine: ModerationEngine<TopicInput, TopicScores>): Promise<EvalReport> {
  return evaluateRestrictedTopic(engine, 'restricted-topic-heldout-round28.jsonl', 'restrictedTopic (twenty-eighth round 42 languages held-out set)')
}

/**
 * Restricted topics with labels other than the defaults (tests/eval/restricted-topic-other-labels.jsonl: twenty policy
 * labels, five on-topic and five off-topic texts each, the off-topic ones sharing the label's words in another sense or
 * a nearby subject). Each text is scored against its own label alone, as a caller with a custom label list would; one
 * AUC over all (text, label) pairs, error rates per label.
 */
export function evaluateRestrictedTopicOtherLabels(engine: ModerationEngine<TopicInput, TopicScores>): Promise<EvalReport> {
  return evaluateOtherLabelRows(engine, 'restrictedTopic (other labels)', (label) => [label])
}

/**
 * The same 200 rows scored with every other name of their label (TOPIC_LABEL_ALIASES: "guns" for Weapons, "self-harm"
 * for Suicide), one scoring per row and alias: a caller naming a shipped topic its own way should get the same answers.
 */
export function evaluateRestrictedTopicAliases(engine: ModerationEngine<TopicInput, TopicScores>): Promise<EvalReport> {
  return evaluateOtherLabelRows(engine, 'restrictedTopic (other names of the labels)', (label) => TOPIC_LABEL_ALIASES[label] ?? [])
}

/** The other-labels rows, each text scored alone against every name `namesOf` gives its label; error rates per label. */
function evaluateOtherLabelRows(engine: ModerationEngine<TopicInput, TopicScores>, check: string, namesOf: (label: string) => readonly string[]): Promise<EvalReport> {
  const rows = readEvalSet<{ text: string; label: string; onTopic: boolean }>('restricted-topic-other-labels.jsonl')
  return evaluateBinary({
    check,
    engine: engine.name,
    rows: rows.flatMap((r) => namesOf(r.label).map((name) => ({ text: JSON.stringify([r.text, name]), label: r.onTopic ? 'on topic' : 'off topic', group: r.label }))),
    positive: 'on topic',
    negative: 'off topic',
    predict: async (pair) => {
      const [text, label] = JSON.parse(pair) as [string, string]
      const [score] = await engine.run({ text, labels: [label], classifier: 'default' })
      return { label: score >= TOPIC_THRESHOLD ? 'on topic' : 'off topic', probabilityPositive: score }
    },
  })
}

/**
 * Toxicity and prompt injection on the twelfth round's sets of hard cases by family, one writer's, read by no trainer:
 * toxicity-dev-round12.jsonl (92 rows) and prompt-injection-dev-round12.jsonl (82 rows) were written before that
 * round's changes and used to choose them, so their numbers are tuned ones; toxicity-heldout-round12.jsonl (70 rows) and prompt-injection-heldout-round12.jsonl
 * (72 rows) were written after each change was designed, before any engine's numbers on them were seen.
 */
const toxicityVerdict: Verdict<ToxicityScores> = ({ toxicity }) => ({ label: toxicity >= 0.5 ? 'toxic' : 'clean', probabilityPositive: toxicity })
export const evaluateToxicityDevelopment = binaryEvaluation('toxicity (twelfth round development set, tuned)', 'toxicity-dev-round12.jsonl', 'toxic', 'clean', toxicityVerdict)
export const evaluateToxicityHeldOut = binaryEvaluation('toxicity (twelfth round held-out set)', 'toxicity-heldout-round12.jsonl', 'toxic', 'clean', toxicityVerdict)
/**
 * Veiled threats, identity attacks, sexual harassment, sarcasm, obfuscation and dehumanising speech against six
 * families of hard negatives (toxicity-*-round17.jsonl): each set written by its own helper that saw neither the engine
 * nor the other set, before the seventeenth round's change. The development set shaped the change; the held-out set
 * was measured once before it and once, blind, after it.
 */
export const evaluateToxicityDevelopmentRound17 = binaryEvaluation('toxicity (seventeenth round development set, tuned)', 'toxicity-dev-round17.jsonl', 'toxic', 'clean', toxicityVerdict)
export const evaluateToxicityHeldOutRound17 = binaryEvaluation('toxicity (seventeenth round held-out set)', 'toxicity-heldout-round17.jsonl', 'toxic', 'clean', toxicityVerdict)
/**
 * Implicit sexual harassment, innuendo, sarcasm at people and groups, condescension and disguised abuse, against six
 * families of hard negatives (toxicity-harassment-sarcasm-*-round18.jsonl): each set written by its own helper that saw
 * neither the engine nor the other set, before the eighteenth round's change. The development set shaped the change;
 * the held-out set was measured once before it, once blind after it, and once more after a calibration fix.
 */
export const evaluateToxicityDevelopmentRound18 = binaryEvaluation('toxicity (eighteenth round harassment and sarcasm development set, tuned)', 'toxicity-harassment-sarcasm-dev-round18.jsonl', 'toxic', 'clean', toxicityVerdict)
export const evaluateToxicityHeldOutRound18 = binaryEvaluation('toxicity (eighteenth round harassment and sarcasm held-out set)', 'toxicity-harassment-sarcasm-heldout-round18.jsonl', 'toxic', 'clean', toxicityVerdict)
/**
 * Threats without profanity or a violent word (the target's whereabouts and routine, harm implied, exposure, plain
 * threats, conditions, intimidation), against six families of look-alikes (violent idioms, care, business
 * consequences, reported threats, fiction, firm boundaries) (toxicity-threats-*-round19.jsonl): each set written by its
 * own helper that saw neither the engine nor the other set, before the nineteenth round's change. The development set
 * shaped the change; the held-out set was measured once before it, once blind after it, and once after a fix of
 * README false positives that the development set and text nobody here wrote asked for.
 */
export const evaluateToxicityDevelopmentRound19 = binaryEvaluation('toxicity (nineteenth round threats development set, tuned)', 'toxicity-threats-dev-round19.jsonl', 'toxic', 'clean', toxicityVerdict)
export const evaluateToxicityHeldOutRound19 = binaryEvaluation('toxicity (nineteenth round threats held-out set)', 'toxicity-threats-heldout-round19.jsonl', 'toxic', 'clean', toxicityVerdict)
/**
 * Contempt without a rude word (sarcastic insults, condescension, backhanded compliments, innuendo, dismissal,
 * demeaning generalisations about a group) against teasing between friends, sincere praise, blunt but civil criticism,
 * talk about such comments, plain facts about groups and welcome affection (toxicity-implicit-*-round22.jsonl): each set
 * written by its own helper that saw neither the engine nor the other set. The twenty-second round's change was tried
 * on the development set and rejected (bench/offline/TUNING-issue18.md): these numbers are the engine's as it stands.
 */
export const evaluateToxicityImplicitDevelopmentRound22 = binaryEvaluation('toxicity (twenty-second round implicit contempt development set)', 'toxicity-implicit-dev-round22.jsonl', 'toxic', 'clean', toxicityVerdict)
export const evaluateToxicityImplicitHeldOutRound22 = binaryEvaluation('toxicity (twenty-second round implicit contempt held-out set)', 'toxicity-implicit-heldout-round22.jsonl', 'toxic', 'clean', toxicityVerdict)
export const evaluatePromptInjectionDevelopment = binaryEvaluation<InjectionVerdict>(
  'promptInjection (twelfth round development set, tuned)',
  'prompt-injection-dev-round12.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)
export const evaluatePromptInjectionHeldOut = binaryEvaluation<InjectionVerdict>('promptInjection (twelfth round held-out set)', 'prompt-injection-heldout-round12.jsonl', 'INJECTION', 'LEGIT', labelled('INJECTION'))
/**
 * Indirect injection (documents, web pages, e-mails, tool output, records), role-play, exfiltration and agent hijack,
 * against five families of hard negatives (prompt-injection-indirect-*-round17.jsonl): each set written by its own
 * helper that saw neither the engine nor the other set, before the seventeenth round's change. The development set
 * shaped the change; the held-out set was measured once before it and once, blind, after it.
 */
export const evaluatePromptInjectionIndirectDevelopment = binaryEvaluation<InjectionVerdict>(
  'promptInjection (seventeenth round indirect development set, tuned)',
  'prompt-injection-indirect-dev-round17.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)
export const evaluatePromptInjectionIndirectHeldOut = binaryEvaluation<InjectionVerdict>(
  'promptInjection (seventeenth round indirect held-out set)',
  'prompt-injection-indirect-heldout-round17.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)

/**
 * Attacks in other languages (direct, inside content, mixed with English, exfiltration), encoded (base64, hex, ROT13,
 * Morse, ciphers), obfuscated with Unicode and split into pieces, against five families of hard negatives
 * (prompt-injection-multilingual-encoded-*-round18.jsonl): each set written by its own helper that saw neither the
 * engine nor the other set, before the eighteenth round's change. The development set shaped the change; the
 * held-out set was measured once before it, once blind after its first step, and three times more (totals seen).
 */
export const evaluatePromptInjectionMultilingualDevelopment = binaryEvaluation<InjectionVerdict>(
  'promptInjection (eighteenth round multilingual and encoded development set, tuned)',
  'prompt-injection-multilingual-encoded-dev-round18.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)
export const evaluatePromptInjectionMultilingualHeldOut = binaryEvaluation<InjectionVerdict>(
  'promptInjection (eighteenth round multilingual and encoded held-out set)',
  'prompt-injection-multilingual-encoded-heldout-round18.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)

/**
 * Content aimed at the program that reads it by that program's job, at any reader that is not a person, at whatever
 * summary or answer is made of it, at an agent's tools and at the user's data, inside documents, code, tool results and
 * records, against five families of hard negatives written to look alike (notes to human reviewers, documentation of
 * AI systems, ordinary tickets and e-mails, code comments, security write-ups) (prompt-injection-indirect-*-round19.jsonl):
 * each set written by its own helper that saw neither the engine nor the other set, before the nineteenth round's
 * change. The development set shaped the change; the held-out set was measured once before it, once blind after its
 * first version, and once after two narrowings that the development set and hand-written hard negatives asked for.
 */
export const evaluatePromptInjectionIndirectRound19Development = binaryEvaluation<InjectionVerdict>(
  'promptInjection (nineteenth round indirect development set, tuned)',
  'prompt-injection-indirect-dev-round19.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)
export const evaluatePromptInjectionIndirectRound19HeldOut = binaryEvaluation<InjectionVerdict>(
  'promptInjection (nineteenth round indirect held-out set)',
  'prompt-injection-indirect-heldout-round19.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)

/**
 * Indirect injection in other languages (documents, e-mails, web pages, tool output, agent hijacking, readers named only
 * by what they do) against six families of hard negatives in the same languages (documents and e-mails for people,
 * talk about AI, ordinary logs, code-switching, translation requests) (prompt-injection-multilingual-indirect-*-round20.jsonl):
 * each set written by its own helper that saw neither the engine nor the other set, before the twentieth round's change;
 * the held-out writer was asked for less common languages as well. The development set shaped the change; the held-out
 * set was measured once before it, once blind after its first version, and twice after two narrowings.
 */
export const evaluatePromptInjectionMultilingualIndirectDevelopment = binaryEvaluation<InjectionVerdict>(
  'promptInjection (twentieth round multilingual indirect development set, tuned)',
  'prompt-injection-multilingual-indirect-dev-round20.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)
export const evaluatePromptInjectionMultilingualIndirectHeldOut = binaryEvaluation<InjectionVerdict>(
  'promptInjection (twentieth round multilingual indirect held-out set)',
  'prompt-injection-multilingual-indirect-heldout-round20.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)

/**
 * Indirect injection in English once more, in the shapes the earlier rounds' features did not read: output steering
 * with the reader named by its role or not at all, markup, tool output, agent actions, exfiltration, conditional
 * readers, data records and soft persuasion, against five families of hard negatives (reports and lessons that quote
 * attacks, instructions for people, documentation of AI settings, automation content, persuasive writing for people)
 * (prompt-injection-indirect-*-round21.jsonl): each set written by its own helper that saw neither the engine nor the
 * other set, before the twenty-first round's change. That change was tried on the development set and rejected after
 * two reviews (bench/offline/TUNING-issue18.md): these numbers are the engine's as it stands.
 */
export const evaluatePromptInjectionIndirectRound21Development = binaryEvaluation<InjectionVerdict>(
  'promptInjection (twenty-first round indirect development set)',
  'prompt-injection-indirect-dev-round21.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)
export const evaluatePromptInjectionIndirectRound21HeldOut = binaryEvaluation<InjectionVerdict>(
  'promptInjection (twenty-first round indirect held-out set)',
  'prompt-injection-indirect-heldout-round21.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)
/**
 * The sentences two reviewers wrote against the twenty-first round's rejected patterns (prompt-injection-review-probes-
 * round21.jsonl): notes a repository gives coding agents, policies for AI output and for software, FAQ lines, people
 * named by their job, security write-ups, and attacks wrapped in a report's or a guide's words ("Finding 4
 * (guardrail):", "Payload ready. Recommendations:", "A guide to writing system prompts: …"). Kept as a standing set so
 * that the next attempt at the round's families is held to them; no change was tuned on them.
 */
export const evaluatePromptInjectionReviewProbesRound21 = binaryEvaluation<InjectionVerdict>(
  'promptInjection (twenty-first round review probes)',
  'prompt-injection-review-probes-round21.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)

/**
 * Attacks hidden in encodings, ciphers and word games the engine did not decode before the twenty-fourth round
 * (percent-encoding, HTML entities, escapes, binary and character codes, base32 and ascii85, Caesar shifts, atbash,
 * spelled-out letters, leetspeak, Unicode tag characters), against harmless text in the same encodings, puzzles, talk
 * about encodings, logs and code (prompt-injection-encodings-*-round24.jsonl): both sets written by one helper that read
 * nothing of the project, the held-out set in fresh wording, after the round's decoders were written from the
 * encodings' own definitions. The development set was looked at; the held-out set was measured before and once after.
 */
export const evaluatePromptInjectionEncodingsDevelopment = binaryEvaluation<InjectionVerdict>(
  'promptInjection (twenty-fourth round encodings development set)',
  'prompt-injection-encodings-dev-round24.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)
export const evaluatePromptInjectionEncodingsHeldOut = binaryEvaluation<InjectionVerdict>(
  'promptInjection (twenty-fourth round encodings held-out set)',
  'prompt-injection-encodings-heldout-round24.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)

/**
 * The twenty-seventh round's toxicity held-out set (toxicity-heldout-round27.jsonl, 192 texts, twelve in each of eight
 * toxic and eight clean families, 21 in other languages), by a writer who saw only the label definitions: measured
 * blind once to keep the toxicity text classifier, and again after a sixth writer's texts were added.
 */
export const evaluateToxicityRound27HeldOut = binaryEvaluation('toxicity (twenty-seventh round held-out set)', 'toxicity-heldout-round27.jsonl', 'toxic', 'clean', toxicityVerdict)

/**
 * The twenty-sixth round's held-out set (prompt-injection-heldout-round26.jsonl, 192 texts in six attack and six
 * harmless families: overrides, personas, extraction, planted orders in content, in tool output and records, other
 * languages; harmless instructions, security writing, instructions for people, developers' own configuration, content,
 * other languages), by a writer who saw only the label definitions: measured blind once to keep the text classifier,
 * and again after its stacking weight was chosen on the development sets.
 */
export const evaluatePromptInjectionRound26HeldOut = binaryEvaluation<InjectionVerdict>(
  'promptInjection (twenty-sixth round held-out set)',
  'prompt-injection-heldout-round26.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)

/**
 * The twenty-eighth round's held-out sets in 42 languages other than English (prompt-injection-heldout-round28.jsonl,
 * toxicity-heldout-round28.jsonl, 252 texts each, three of each label per language), each by a writer who saw only the
 * label definitions: measured blind once to keep the classifiers' texts in those languages.
 */
export const evaluatePromptInjectionRound28HeldOut = binaryEvaluation<InjectionVerdict>(
  'promptInjection (twenty-eighth round 42 languages held-out set)',
  'prompt-injection-heldout-round28.jsonl',
  'INJECTION',
  'LEGIT',
  labelled('INJECTION'),
)
export const evaluateToxicityRound28HeldOut = binaryEvaluation('toxicity (twenty-eighth round 42 languages held-out set)', 'toxicity-heldout-round28.jsonl', 'toxic', 'clean', toxicityVerdict)

/**
 * Short sentences of other languages, and English garbles beside them (gibberish-languages-*-round14.jsonl), written
 * by the lead before the fourteenth round's word lists of 56 languages: the development set shaped the change, the
 * held-out set was measured blind once after it (bench/offline/TUNING-issue18.md).
 */
export const evaluateGibberishLanguagesDevelopment = (engine: ModerationEngine<string, GibberishPrediction>) =>
  evaluateGibberish(engine, 'gibberish-languages-dev-round14.jsonl', 'gibberish (other languages, fourteenth round development set, tuned)')
export const evaluateGibberishLanguagesHeldOut = (engine: ModerationEngine<string, GibberishPrediction>) =>
  evaluateGibberish(engine, 'gibberish-languages-heldout-round14.jsonl', 'gibberish (other languages, fourteenth round held-out set)')

/** The evaluation of each offline engine, by the name `npm run train:offline` gives its trainer. */
export const OFFLINE_EVALUATIONS: Record<string, (engines: ModerationEngines) => Promise<EvalReport>> = {
  bancode: (engines) => evaluateBancode(engines.banCode),
  bancodeShortDevelopment: (engines) => evaluateBancodeShortDevelopment(engines.banCode),
  bancodeShortHeldOut: (engines) => evaluateBancodeShortHeldOut(engines.banCode),
  promptInjection: (engines) => evaluatePromptInjection(engines.promptInjection),
  promptInjectionDevelopment: (engines) => evaluatePromptInjectionDevelopment(engines.promptInjection),
  promptInjectionHeldOut: (engines) => evaluatePromptInjectionHeldOut(engines.promptInjection),
  promptInjectionIndirectDevelopment: (engines) => evaluatePromptInjectionIndirectDevelopment(engines.promptInjection),
  promptInjectionIndirectHeldOut: (engines) => evaluatePromptInjectionIndirectHeldOut(engines.promptInjection),
  promptInjectionMultilingualDevelopment: (engines) => evaluatePromptInjectionMultilingualDevelopment(engines.promptInjection),
  promptInjectionMultilingualHeldOut: (engines) => evaluatePromptInjectionMultilingualHeldOut(engines.promptInjection),
  promptInjectionIndirectRound19Development: (engines) => evaluatePromptInjectionIndirectRound19Development(engines.promptInjection),
  promptInjectionIndirectRound19HeldOut: (engines) => evaluatePromptInjectionIndirectRound19HeldOut(engines.promptInjection),
  promptInjectionMultilingualIndirectDevelopment: (engines) => evaluatePromptInjectionMultilingualIndirectDevelopment(engines.promptInjection),
  promptInjectionMultilingualIndirectHeldOut: (engines) => evaluatePromptInjectionMultilingualIndirectHeldOut(engines.promptInjection),
  promptInjectionIndirectRound21Development: (engines) => evaluatePromptInjectionIndirectRound21Development(engines.promptInjection),
  promptInjectionIndirectRound21HeldOut: (engines) => evaluatePromptInjectionIndirectRound21HeldOut(engines.promptInjection),
  promptInjectionReviewProbesRound21: (engines) => evaluatePromptInjectionReviewProbesRound21(engines.promptInjection),
  promptInjectionEncodingsDevelopment: (engines) => evaluatePromptInjectionEncodingsDevelopment(engines.promptInjection),
  promptInjectionEncodingsHeldOut: (engines) => evaluatePromptInjectionEncodingsHeldOut(engines.promptInjection),
  promptInjectionRound26HeldOut: (engines) => evaluatePromptInjectionRound26HeldOut(engines.promptInjection),
  promptInjectionRound28HeldOut: (engines) => evaluatePromptInjectionRound28HeldOut(engines.promptInjection),
  gibberish: (engines) => evaluateGibberish(engines.gibberish),
  gibberishLanguagesDevelopment: (engines) => evaluateGibberishLanguagesDevelopment(engines.gibberish),
  gibberishLanguagesHeldOut: (engines) => evaluateGibberishLanguagesHeldOut(engines.gibberish),
  toxicity: (engines) => evaluateToxicity(engines.toxicity),
  toxicityDevelopment: (engines) => evaluateToxicityDevelopment(engines.toxicity),
  toxicityHeldOut: (engines) => evaluateToxicityHeldOut(engines.toxicity),
  toxicityDevelopmentRound17: (engines) => evaluateToxicityDevelopmentRound17(engines.toxicity),
  toxicityHeldOutRound17: (engines) => evaluateToxicityHeldOutRound17(engines.toxicity),
  toxicityDevelopmentRound18: (engines) => evaluateToxicityDevelopmentRound18(engines.toxicity),
  toxicityHeldOutRound18: (engines) => evaluateToxicityHeldOutRound18(engines.toxicity),
  toxicityDevelopmentRound19: (engines) => evaluateToxicityDevelopmentRound19(engines.toxicity),
  toxicityHeldOutRound19: (engines) => evaluateToxicityHeldOutRound19(engines.toxicity),
  toxicityImplicitDevelopmentRound22: (engines) => evaluateToxicityImplicitDevelopmentRound22(engines.toxicity),
  toxicityImplicitHeldOutRound22: (engines) => evaluateToxicityImplicitHeldOutRound22(engines.toxicity),
  toxicityRound27HeldOut: (engines) => evaluateToxicityRound27HeldOut(engines.toxicity),
  toxicityRound28HeldOut: (engines) => evaluateToxicityRound28HeldOut(engines.toxicity),
  similarity: (engines) => evaluateSimilarity(engines.similarity),
  restrictedTopic: (engines) => evaluateRestrictedTopic(engines.restrictedTopic),
  restrictedTopicIndirect: (engines) => evaluateRestrictedTopicIndirect(engines.restrictedTopic),
  restrictedTopicRound25Dev: (engines) => evaluateRestrictedTopicRound25(engines.restrictedTopic, 'dev'),
  restrictedTopicRound25HeldOut: (engines) => evaluateRestrictedTopicRound25(engines.restrictedTopic, 'heldout'),
  restrictedTopicRound28HeldOut: (engines) => evaluateRestrictedTopicRound28HeldOut(engines.restrictedTopic),
  restrictedTopicOtherLabels: (engines) => evaluateRestrictedTopicOtherLabels(engines.restrictedTopic),
  restrictedTopicAliases: (engines) => evaluateRestrictedTopicAliases(engines.restrictedTopic),
}

/** How many sentences of everyday prose a check flags, and a few of them. */
export type ProseReport = { check: string; engine: string; flagged: number; sentences: number; examples: string[] }

/** Sentences of everyday prose read: the stacked text classifiers' held-out quarter (`heldOutProse`). */
export const EVERYDAY_PROSE_SENTENCES = 3000

/**
 * False alarms on everyday prose: the quarter of the fortune and package-documentation sentences that no text
 * classifier trains on (`heldOutProse`; which sentences depends on the fortunes and the packages installed here), each
 * read by prompt injection, toxicity and the default restricted topics. None of them is an attack, toxic or about
 * terrorism or explosives, so every flag is a false alarm (a few quote a fortune's joke about a bomb: the count is an
 * upper bound).
 */
export async function evaluateEverydayProse(engines: ModerationEngines): Promise<ProseReport[]> {
  const sentences = heldOutProse(EVERYDAY_PROSE_SENTENCES)
  const labels = [...DEFAULT_TOPIC_LABELS]
  const checks: [string, string, (text: string) => Promise<boolean>][] = [
    ['promptInjection', engines.promptInjection.name, async (text) => (await engines.promptInjection.run(text)).label === 'INJECTION'],
    ['toxicity', engines.toxicity.name, async (text) => (await engines.toxicity.run(text)).toxicity >= 0.5],
    ['restrictedTopic', engines.restrictedTopic.name, async (text) => (await engines.restrictedTopic.run({ text, labels, classifier: 'default' })).some((score) => score >= TOPIC_THRESHOLD)],
  ]
  const reports: ProseReport[] = []
  for (const [check, engine, flags] of checks) {
    const flagged: string[] = []
    for (const sentence of sentences) if (await flags(sentence)) flagged.push(sentence)
    reports.push({ check, engine, flagged: flagged.length, sentences: sentences.length, examples: flagged.slice(0, 3) })
  }
  return reports
}
