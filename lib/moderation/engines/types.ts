import { TOXICITY_METRICS } from '@/lib/moderation/runtime/manifest'
import type { ModelChoice } from '@/lib/moderation/runtime/settings'
/**
 * One interface for every moderation engine, whatever runs it: rules, an offline graph model or a
 * neural model (lib/moderation/checks says which a check has). The API only reports `name`.
 */
export interface ModerationEngine<Input, Output> {
  /** Reported as `engine` in answers, e.g. "offline:vader" or "neural:<model id>". */
  readonly name: string
  /** False when this deployment cannot run the engine (e.g. its model files are absent). */
  available(): boolean
  /** Engines that pick a model per request (e.g. the two zero-shot classifiers) say which one answers `input`. */
  nameFor?(input: Input): string
  /** Whether `input` can be answered; absent means `available()`. */
  availableFor?(input: Input): boolean
  /** `model`: a model the caller picked for this request (neural engines only; the others have none to swap). */
  run(input: Input, model?: ModelChoice): Promise<Output>
}

// Detoxify's seven metrics, in the order the toolkit's client reads them by index; the runtime's
// manifest defines them because its toxicity post-processing emits them in that order.
export { TOXICITY_METRICS }
export type ToxicityMetric = (typeof TOXICITY_METRICS)[number]
export type ToxicityScores = Record<ToxicityMetric, number>

/** A span of personal data; offsets are UTF-16 indices into the checked text. */
export type PiiEntity = { type: string; beginOffset: number; endOffset: number; score: number }

export type InjectionVerdict = { label: 'INJECTION' | 'LEGIT'; score: number }

/** `nliMini` is the small NLI classifier; every other request uses the default one. */
export type TopicClassifier = 'nliMini' | 'default'
export type TopicInput = { text: string; labels: string[]; classifier: TopicClassifier }
/** One independent (multi-label) score per requested label, in request order. */
export type TopicScores = number[]

export type SentimentScores = { neg: number; neu: number; pos: number; compound: number }

export type InvisibleTextInput = { text: string; bannedCategories: string[] }

export const GIBBERISH_LABELS = ['clean', 'mild gibberish', 'word salad', 'noise'] as const
export type GibberishLabel = (typeof GIBBERISH_LABELS)[number]
/** The top class and its probability. */
export type GibberishPrediction = { label: GibberishLabel; probability: number }

export type BanCodeVerdict = { label: 'CODE' | 'NL'; score: number }
