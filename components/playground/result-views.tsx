/**
 * The moderation API's answers drawn for people: score bars with their thresholds, personal data
 * highlighted in the text, invisible characters made visible with their code points. Each view
 * takes the API's exact 200 body (the same whether the browser or the server answered).
 */
import type { ReactNode } from 'react'

/** Above this a score counts as a hit (Detoxify, zero-shot and the classifiers all use 0.5). */
export const SCORE_THRESHOLD = 0.5

/** Label, bar, value: shared by the bars and their scale so the ticks line up with the bars. */
const BAR_ROW = 'grid grid-cols-[minmax(6rem,10rem)_minmax(4rem,1fr)_4.5rem] items-center gap-2'

/** The axis under a group of bars: where min, the middle and max are. */
export function ScoreScale({ min = 0, max = 1 }: { min?: number; max?: number }) {
  return (
    <div data-testid="score-scale" className={`${BAR_ROW} text-[0.7rem] text-slate-500`} aria-hidden>
      <span />
      <span className="flex justify-between border-t border-slate-300 pt-0.5 tabular-nums">
        <span>{min}</span>
        <span>{(min + max) / 2}</span>
        <span>{max}</span>
      </span>
      <span />
    </div>
  )
}

export function ScoreBar({ label, value, threshold = SCORE_THRESHOLD, min = 0, max = 1, flagged }: {
  label: ReactNode
  value: number
  threshold?: number
  min?: number
  max?: number
  /** Whether to draw the score as a finding; by default when it reaches the threshold. */
  flagged?: boolean
}) {
  const fraction = (v: number) => Math.min(1, Math.max(0, (v - min) / (max - min)))
  const over = flagged ?? value >= threshold
  return (
    <div className={`${BAR_ROW} text-sm`}>
      <span className="truncate text-slate-700">{label}</span>
      <span
        role="meter"
        aria-valuemin={min}
        aria-valuemax={max}
        aria-valuenow={value}
        aria-label={typeof label === 'string' ? label : undefined}
        className="relative h-3 overflow-hidden rounded bg-slate-100"
      >
        <span className={`absolute inset-y-0 left-0 rounded ${over ? 'bg-red-500' : 'bg-brand-500'}`} style={{ width: `${fraction(value) * 100}%` }} />
        <span aria-hidden className="absolute inset-y-0 w-0.5 bg-slate-700" style={{ left: `${fraction(threshold) * 100}%` }} title={`threshold ${threshold}`} />
      </span>
      <span className={`text-right font-mono tabular-nums ${over ? 'font-semibold text-red-700' : 'text-slate-700'}`}>{value.toFixed(4)}</span>
    </div>
  )
}

function Verdict({ label, bad }: { label: string; bad: boolean }) {
  return <span className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-semibold ${bad ? 'bg-red-100 text-red-800' : 'bg-green-100 text-green-800'}`}>{label}</span>
}

type Pii = { type: string; beginOffset: number; endOffset: number; score: number; responseText: string }

/** The text with each personal-data span marked and labelled with its type; overlapping spans keep the first. */
export function PiiHighlight({ text, entities }: { text: string; entities: Pii[] }) {
  const parts: ReactNode[] = []
  let cursor = 0
  for (const [i, entity] of [...entities].sort((a, b) => a.beginOffset - b.beginOffset).entries()) {
    if (entity.beginOffset < cursor) continue
    parts.push(text.slice(cursor, entity.beginOffset))
    parts.push(
      <mark key={i} data-testid="pii-span" data-type={entity.type} className="rounded bg-amber-200 px-0.5 text-slate-900" title={`${entity.type} (score ${entity.score.toFixed(2)})`}>
        {text.slice(entity.beginOffset, entity.endOffset)}
        <sup className="ml-0.5 inline-block whitespace-nowrap rounded bg-amber-600 px-1 text-[0.65rem] font-semibold leading-4 text-on-accent">{entity.type}</sup>
      </mark>,
    )
    cursor = entity.endOffset
  }
  parts.push(text.slice(cursor))
  return <p className="whitespace-pre-wrap break-words rounded border border-slate-200 bg-slate-50 p-3 text-sm leading-7">{parts}</p>
}

export function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/** The text with every reported character replaced by a visible badge naming its code point. */
export function InvisibleCharacters({ text, found }: { text: string; found: string[] }) {
  const offending = new Set(found)
  const parts = Array.from(text, (character, i) =>
    offending.has(character) ? (
      <span key={i} data-testid="invisible-char" className="mx-0.5 inline-block whitespace-nowrap rounded border border-red-300 bg-red-50 px-1 font-mono text-xs text-red-800">
        {codePoint(character)}
      </span>
    ) : (
      character
    ),
  )
  return <p className="whitespace-pre-wrap break-words rounded border border-slate-200 bg-slate-50 p-3 text-sm leading-7">{parts}</p>
}

/** Renders one check's 200 body; `request` is what was sent (the text the spans and characters point into). */
export function CheckAnswer({ path, body, request }: { path: string; body: unknown; request: Record<string, unknown> }) {
  const text = typeof request.text === 'string' ? request.text : ''
  switch (path) {
    case 'detoxifymodel': {
      const { toxicScore } = body as { toxicScore: { metricName: string; metricScore: number }[] }
      return (
        <div className="space-y-1">
          {toxicScore.map((m) => <ScoreBar key={m.metricName} label={m.metricName} value={m.metricScore} />)}
          <ScoreScale />
        </div>
      )
    }
    case 'privacy': {
      const { PIIresult } = body as { PIIresult: Pii[] }
      return (
        <div className="space-y-2">
          <PiiHighlight text={text} entities={PIIresult} />
          <p className="text-sm text-slate-600">{PIIresult.length === 0 ? 'No personal data found.' : `${PIIresult.length} span(s): ${[...new Set(PIIresult.map((p) => p.type))].join(', ')}`}</p>
        </div>
      )
    }
    case 'promptinjectionmodel': {
      const [label, probability] = body as [string, number]
      const injection = label === 'INJECTION' ? probability : 1 - probability
      return (
        <div className="space-y-2">
          <Verdict label={label} bad={label === 'INJECTION'} />
          <ScoreBar label="P(injection)" value={injection} />
          <ScoreScale />
        </div>
      )
    }
    case 'restrictedtopicmodel': {
      const { labels, scores } = body as { labels: string[]; scores: number[] }
      return (
        <div className="space-y-1">
          <ol className="space-y-1">{labels.map((label, i) => <li key={label}><ScoreBar label={`${i + 1}. ${label}`} value={scores[i]} /></li>)}</ol>
          <ScoreScale />
        </div>
      )
    }
    case 'multi_q_net_embedding': {
      const [vectors] = body as [number[][]]
      return (
        <ul className="space-y-1 text-sm">
          {vectors.map((vector, i) => (
            <li key={i} className="font-mono text-xs text-slate-700">
              {vector.length} dimensions, norm {Math.hypot(...vector).toFixed(4)}: [{vector.slice(0, 6).map((v) => v.toFixed(4)).join(', ')}, …]
            </li>
          ))}
        </ul>
      )
    }
    case 'multi-qa-mpnet-model_similarity': {
      // The neural engine answers the embeddings' cosine (-1 to 1); the offline engine reads two texts as a pair (0 to 1).
      // Two texts alike are no finding: the bar keeps its colour, the tick marks where "similar" begins.
      const [[[similarity]]] = body as [number[][]]
      return (
        <div className="space-y-1">
          <ScoreBar label="similarity" value={similarity} min={-1} max={1} threshold={SCORE_THRESHOLD} flagged={false} />
          <ScoreScale min={-1} max={1} />
        </div>
      )
    }
    case 'sentimentmodel': {
      const { score } = body as { score: { neg: number; neu: number; pos: number; compound: number } }
      const verdict = score.compound >= 0.05 ? 'positive' : score.compound <= -0.05 ? 'negative' : 'neutral'
      // neg, neu and pos are the text's shares of each tone (they sum to 1), not findings: only the
      // verdict decides what is drawn as a problem.
      const negative = verdict === 'negative'
      return (
        <div className="space-y-1">
          <Verdict label={verdict} bad={negative} />
          <ScoreBar label="negative" value={score.neg} flagged={negative} />
          <ScoreBar label="neutral" value={score.neu} flagged={false} />
          <ScoreBar label="positive" value={score.pos} flagged={false} />
          <ScoreScale />
          <ScoreBar label="compound" value={score.compound} min={-1} max={1} threshold={0.05} flagged={negative} />
          <ScoreScale min={-1} max={1} />
        </div>
      )
    }
    case 'invisibletextmodel': {
      const { result } = body as { result: string[] }
      return (
        <div className="space-y-2">
          <InvisibleCharacters text={text} found={result} />
          <p className="text-sm text-slate-600">
            {result.length === 0 ? 'No banned characters.' : `${result.length} banned character(s): ${result.map(codePoint).join(' ')}`}
          </p>
        </div>
      )
    }
    case 'gibberishmodel': {
      const [{ gibberish_label, gibberish_score }] = (body as { result: { gibberish_label: string; gibberish_score: number }[] }).result
      return (
        <div className="space-y-2">
          <Verdict label={gibberish_label} bad={gibberish_label !== 'clean'} />
          <ScoreBar label={`score (${gibberish_label})`} value={gibberish_score} flagged={gibberish_label !== 'clean'} />
          <ScoreScale />
        </div>
      )
    }
    case 'bancodemodel': {
      const { label, score } = (body as { result: { label: string; score: number } }).result
      return (
        <div className="space-y-2">
          <Verdict label={label} bad={label === 'CODE'} />
          <ScoreBar label="P(code)" value={label === 'CODE' ? score : 1 - score} />
          <ScoreScale />
        </div>
      )
    }
    default:
      // A check without a view of its own (a new one) still shows its answer.
      return <pre tabIndex={0} className="overflow-x-auto rounded border border-slate-200 bg-slate-50 p-3 font-mono text-xs">{JSON.stringify(body, null, 2)}</pre>
  }
}
