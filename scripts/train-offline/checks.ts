/** One evaluation per check, over any engine of that check (offline or neural), on its set in tests/eval. */
import type { BanCodeVerdict, ModerationEngine } from '@/lib/moderation/engines/types'
import { evaluateBinary, readEvalSet, type EvalReport } from './evaluate'

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
