/** One evaluation per check, over any engine of that check (offline or neural), on its set in tests/eval. */
import { GIBBERISH_LABELS, type BanCodeVerdict, type GibberishPrediction, type InjectionVerdict, type ModerationEngine } from '@/lib/moderation/engines/types'
import { evaluateBinary, evaluateMultiClass, readEvalSet, type EvalReport } from './evaluate'

type Labelled = { text: string; label: string; group?: string }

export function evaluateBancode(engine: ModerationEngine<string, BanCodeVerdict>): Promise<EvalReport> {
  return evaluateBinary({
    check: 'bancode',
    engine: engine.name,
    rows: readEvalSet<Labelled>('bancode.jsonl'),
    positive: 'CODE',
    negative: 'NL',
    predict: async (text) => {
      const { label, score } = await engine.run(text)
      return { label, probabilityPositive: label === 'CODE' ? score : 1 - score }
    },
  })
}

export function evaluatePromptInjection(engine: ModerationEngine<string, InjectionVerdict>): Promise<EvalReport> {
  return evaluateBinary({
    check: 'promptInjection',
    engine: engine.name,
    rows: readEvalSet<Labelled>('prompt-injection.jsonl'),
    positive: 'INJECTION',
    negative: 'LEGIT',
    predict: async (text) => {
      const { label, score } = await engine.run(text)
      return { label, probabilityPositive: label === 'INJECTION' ? score : 1 - score }
    },
  })
}

export function evaluateGibberish(engine: ModerationEngine<string, GibberishPrediction>): Promise<EvalReport> {
  return evaluateMultiClass({
    check: 'gibberish',
    engine: engine.name,
    rows: readEvalSet<Labelled>('gibberish.jsonl'),
    classes: GIBBERISH_LABELS,
    predict: (text) => engine.run(text),
  })
}
