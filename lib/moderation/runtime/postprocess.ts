/**
 * Turning model outputs into check answers. Pure functions with no Node or model imports, so
 * the browser playground can share them.
 */

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x))
}

export function softmax(values: ArrayLike<number>): number[] {
  let top = -Infinity
  for (let i = 0; i < values.length; i++) top = Math.max(top, values[i])
  const exps = Array.from(values, (v) => Math.exp(v - top))
  const sum = exps.reduce((a, b) => a + b, 0)
  return exps.map((e) => e / sum)
}

export function argmax(values: ArrayLike<number>): number {
  let best = 0
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i
  return best
}

/** Column means of equally long rows. */
export function meanRows(rows: ArrayLike<number>[]): number[] {
  const out = new Array<number>(rows[0].length).fill(0)
  for (const row of rows) for (let i = 0; i < out.length; i++) out[i] += row[i]
  return out.map((v) => v / rows.length)
}

/** Split token ids into consecutive windows of at most `size` tokens (the last may be shorter). */
export function tokenWindows(ids: number[], size: number): number[][] {
  const windows: number[][] = []
  for (let start = 0; start < ids.length; start += size) windows.push(ids.slice(start, start + size))
  return windows
}

/**
 * Index of the entailment logit and of the logit it is contrasted with in multi-label zero-shot:
 * the first other class when entailment is not first, otherwise the last one. That is the rule
 * of the Hugging Face zero-shot pipeline, and it covers both 3-way NLI heads
 * (contradiction/entailment/neutral) and binary ones (entailment/not_entailment).
 */
export function entailmentIndexes(id2label: Record<string | number, string>): { entailment: number; contrast: number } {
  const count = Object.keys(id2label).length
  const entry = Object.entries(id2label).find(([, label]) => label.toLowerCase().startsWith('entail'))
  if (!entry) throw new Error('zero-shot model has no entailment label')
  const entailment = Number(entry[0])
  return { entailment, contrast: entailment === 0 ? count - 1 : 0 }
}

export function entailmentScore(logits: ArrayLike<number>, indexes: { entailment: number; contrast: number }): number {
  return softmax([logits[indexes.contrast], logits[indexes.entailment]])[1]
}

/** Python's `\s` for str patterns (what the toolkit's regexes mean); JS `\s` differs in a few code points. */
const PY_SPACE = '[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]'
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'gu')

/**
 * codenlbert's input clean-up as the toolkit applies it (taken over from llm-guard's BanCode):
 * drop Markdown decoration, list markers, digits and sentence-ending periods, which the small
 * model otherwise mistakes for code. Python regex semantics: `\d` is any Unicode digit.
 */
export function cleanForCodeDetection(text: string): string {
  const markdown: [RegExp, string][] = [
    [/\*\*([^*]+)\*\*/g, '$1'],
    [/\*([^*]+)\*/g, '$1'],
    [/!\[[^\]]+\]\([^)]+\)/g, ''],
    [/\[[^\]]+\]\([^)]+\)/g, ''],
    [new RegExp(`#{1,6}${PY_SPACE}`, 'gu'), ''],
    [/>+/g, ''],
    [/`{1,3}[^`]+`{1,3}/g, ''],
    [/\n{2,}/g, ''],
  ]
  let out = text
  for (const [pattern, replacement] of markdown) out = out.replace(pattern, replacement)
  out = out.replace(/[*_`]/g, '').replace(PY_STRIP, '')
  out = out.replace(new RegExp(`\\p{Nd}+\\.${PY_SPACE}+|[-*•]${PY_SPACE}+`, 'gu'), '')
  out = out.replace(/\p{Nd}+/gu, '')
  return out.replace(new RegExp(`\\.(?!\\p{Nd})(?=${PY_SPACE}|['"“”‘’)\\]}]|$)`, 'gu'), '')
}
